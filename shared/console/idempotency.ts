import type { Context } from 'aws-lambda';
import { REPLAYED_HEADER } from '../api/gateway-edge';
import { isReplayed, runIdempotent } from '../api/idempotency';
import { AcceptedReply, type ConsoleRouteDecl } from './route-table';

/**
 * Idempotency-Key on the console's POSTs (key create, roll, member add, invoice create, preview, continue,
 * send, pay, void), with the /v1 semantics (shared/api/idempotency.ts, its one entry point, called only
 * here): the same key and body within 24 hours gets the first answer again with `Idempotent-Replayed: true`;
 * the same key with another path or body is 422 IDEMPOTENCY_KEY_REUSED; a repeat while the first runs is 409
 * with Retry-After. Keys are scoped to the workspace and the person (`console:<person>:<key>`), so one
 * person's key never replays another's answer. A secret in an answer (a new API key, an invitation link) is
 * never kept: the first answer carries it, a replay answers `key: null` / `invitation: null` (shown once).
 */
export interface ConsoleIdempotentCall {
  route: ConsoleRouteDecl;
  workspaceId: string;
  personId: string;
  key: string;
  path: string;
  query: Readonly<Record<string, string | undefined>> | null;
  body: unknown;
  context: Context;
}

export const consoleIdempotencyApplies = (route: ConsoleRouteDecl): boolean => route.method === 'POST' && route.access !== null && route.access !== 'person';

/** Runs `run` once per key; answers the result (fresh or replayed) and the headers to add. */
export async function runConsoleIdempotent(call: ConsoleIdempotentCall, run: () => Promise<unknown>): Promise<{ result: unknown; headers: Record<string, string> }> {
  let fresh: { value: unknown } | undefined;
  const answer = await runIdempotent(
    { workspaceId: call.workspaceId, key: `console:${call.personId}:${call.key}`, method: call.route.method, path: call.path, query: call.query, body: call.body },
    call.context,
    async () => {
      const value = await run();
      fresh = { value };
      const accepted = value instanceof AcceptedReply;
      const body = accepted ? value.body : value;
      return { status: accepted ? 202 : call.route.successStatus, body: call.route.secret ? withoutSecret(body) : body, headers: {} };
    },
  );
  const replayed = isReplayed(answer);
  if (fresh && !replayed) return { result: fresh.value, headers: {} };
  // a replay, or a refusal kept as an answer (404, 409) on its first run
  const result = answer.status === 202 ? new AcceptedReply(answer.body) : answer.status >= 400 ? new KeptError(answer.status, answer.body) : answer.body;
  return { result, headers: replayed ? { [REPLAYED_HEADER]: 'true' } : {} };
}

/** A kept refusal (404, 409) replayed as it was answered. */
export class KeptError {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/** The answer without its secrets: a new API key (`key`), an invitation link (`invitation`). */
function withoutSecret(body: unknown): unknown {
  if (!body || typeof body !== 'object') return body;
  return { ...body, ...('key' in body ? { key: null } : {}), ...('invitation' in body ? { invitation: null } : {}) };
}
