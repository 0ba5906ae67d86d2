import { IDEMPOTENCY_KEY_HEADER, REPLAYED_HEADER } from '../api/gateway-edge';
import { ApiError } from '../api/errors';
import { finalRefusal, fingerprintOf } from '../api/idempotency';
import { Reply } from '../api/kernel/route';
import { busy } from '../domain/errors';
import { isPending, KeyedWrite, KeyTaken, type KeptAnswer } from '../data/idempotency';
import { logger } from '../platform/logger';
import type { ConsoleRouteDecl } from './route-table';

/**
 * Idempotency-Key on the console's POSTs (key create, roll, member add, invoice create, preview, continue,
 * send, pay, void) and PUTs (the billing profile), with the /v1 semantics: the same key and body within 24 hours gets the first answer again
 * with `Idempotent-Replayed: true` and changes nothing; the same key with another path or body is 422
 * IDEMPOTENCY_KEY_REUSED. Keys are scoped to the workspace and the person (`console:<person>:<key>`), so one
 * person's key never replays another's answer.
 *
 * The console's actions write through their own stores (keys, members, invoices in steps), not through the
 * record transaction that carries /v1's key (shared/data/idempotency.ts), so the key is CLAIMED first: one
 * conditional PutItem of a record with no answer yet, live for `CLAIM_SECONDS`. Concurrent repeats find it
 * and answer 409 CONFLICT with Retry-After (never a second effect); the claim is settled with the answer
 * (kept 24 hours), or with a final refusal (404, 409, 412), or given back when the action failed otherwise
 * (the key stays usable). A claim whose request crashed frees the key after `CLAIM_SECONDS`.
 * A secret in an answer (a new API key, an invitation link) is never kept: the first answer carries it, a
 * replay answers `key: null` / `invitation: null` (shown once).
 */
export interface ConsoleIdempotentCall {
  route: ConsoleRouteDecl;
  workspaceId: string;
  personId: string;
  key: string;
  path: string;
  query: Readonly<Record<string, string | undefined>> | null;
  body: unknown;
}

/** How long a claim holds the key without an answer: longer than any console function's timeout. */
export const CLAIM_SECONDS = 60;

export const consoleIdempotencyApplies = (route: ConsoleRouteDecl): boolean =>
  (route.method === 'POST' || route.method === 'PUT') && route.access !== null && route.access !== 'person';

/** Runs `run` once per key; answers its result, or the kept answer of an earlier request with the key. */
export async function runConsoleIdempotent(call: ConsoleIdempotentCall, run: () => Promise<unknown>): Promise<unknown> {
  const request = { workspaceId: call.workspaceId, key: `console:${call.personId}:${call.key}`, method: call.route.method, path: call.path, query: call.query, body: call.body };
  const keyed = new KeyedWrite({
    workspaceId: request.workspaceId,
    key: request.key,
    fingerprint: fingerprintOf(request),
    answerOf: () => {
      throw new Error('a console answer is kept by its claim, not by a record transaction');
    },
  });
  try {
    await keyed.claim(CLAIM_SECONDS);
  } catch (err) {
    if (!(err instanceof KeyTaken)) throw err;
    return replay(keyed, err.record ?? (await keyed.read()));
  }
  let value: unknown;
  try {
    value = await run();
  } catch (err) {
    const refusal = finalRefusal(err);
    await (refusal ? keyed.settle(refusal) : keyed.release()).catch((e: unknown) => logger.warn('Idempotency-Key claim not settled after a failure', e as Error));
    throw err;
  }
  const reply = value instanceof Reply ? value : new Reply(value);
  const answer: KeptAnswer = { status: reply.status ?? call.route.successStatus, body: call.route.secret ? withoutSecret(reply.body) : reply.body, headers: { ...reply.headers } };
  // the action is done: a failure to keep its answer is logged, not answered (the claim expires)
  await keyed.settle(answer).catch((e: unknown) => logger.error('Idempotency-Key answer not kept', e as Error));
  return value;
}

function replay(keyed: KeyedWrite, taken: Awaited<ReturnType<KeyedWrite['read']>>): Reply {
  // the key was taken, then its record was gone when read (its time ended in between): retry
  if (!taken) throw busy(`A request with this ${IDEMPOTENCY_KEY_HEADER} has just expired; retry`);
  if (taken.fingerprint !== keyed.request.fingerprint) {
    throw new ApiError('IDEMPOTENCY_KEY_REUSED', `This ${IDEMPOTENCY_KEY_HEADER} was used with another path or body; use a new key for a new request`);
  }
  if (isPending(taken.answer)) {
    throw new ApiError('CONFLICT', `A request with this ${IDEMPOTENCY_KEY_HEADER} is still running; retry in a moment`, undefined, { 'Retry-After': '1' });
  }
  return new Reply(taken.answer.body, { ...taken.answer.headers, [REPLAYED_HEADER]: 'true' }, taken.answer.status);
}

/** The answer without its secrets: a new API key (`key`), an invitation link (`invitation`). */
function withoutSecret(body: unknown): unknown {
  if (!body || typeof body !== 'object') return body;
  return { ...body, ...('key' in body ? { key: null } : {}), ...('invitation' in body ? { invitation: null } : {}) };
}
