import { createHash } from 'node:crypto';
import { busy, DomainError } from '../domain/errors';
import { canonicalJson } from '../data/cursor';
import { currentKeyedWrite, KeyedWrite, KeyTaken, type KeptAnswer, type KeptRecord } from '../data/idempotency';
import { ApiError, errorBody } from './errors';
import { IDEMPOTENCY_KEY_HEADER } from './headers';
import { toApiError } from './response';

/**
 * Idempotency-Key (draft-ietf-httpapi-idempotency-key-header) on every POST, PUT and DELETE, kept in the
 * write's own transaction (shared/data/idempotency.ts; docs/decisions.md, "Idempotency in the transaction"):
 * - the record is kept per workspace (partition `WS#<ws>#IDEMPOTENCY`, sort key = the SHA-256 of the key),
 *   for 24 hours (`ttl`; a record past it no longer counts, whenever DynamoDB's TTL removes it);
 * - it is written as one more item of the write's transaction, on the condition that no live record of the
 *   key exists: the change and its answer commit together or not at all; there is no in-progress state;
 * - a repeat with the same key, method, path, query, body, If-Match and If-None-Match (bodies compared
 *   by the hash of their canonical JSON: whitespace and key order do not matter) gets the kept answer and
 *   `Idempotent-Replayed: true`; another method, path, query, body or condition is 422
 *   IDEMPOTENCY_KEY_REUSED. A repeat while the first still runs is no longer refused: whichever commits
 *   first wins, the other's transaction is cancelled on the record's condition and it answers the winner's
 *   answer, replayed (never a 5xx, never a second effect);
 * - kept: final answers only (issue 22 item 3): 2xx, 404, 412 and the 409s of lasting state conflicts
 *   (a taken name, a record in use, an invoice's status, a running timer). A 2xx is kept by its write's
 *   transaction; a refusal (no transaction committed) by one conditional PutItem of the record. Not kept:
 *   anything the middleware refused before (400, 401, 403, rate limits), failures (5xx: the 503 of a write
 *   that met contention past its retry budget included), 400s of the data layer, and the 409 of a whole
 *   list at its bound (a delete frees it): nothing is written, so the retry with the same key runs afresh.
 *   Before answering such a failure, the key's record is read once: if another request with the key
 *   committed meanwhile, its answer is the answer.
 * Requests without the header do none of this (no extra call, no extra work).
 *
 * For a caller with writes of its own (the console's POSTs): wrap the action in `runIdempotent` with the
 * request's fingerprint parts and an `answerOf` that turns the write's result into the answer; inside, a
 * repository write carries the key by itself, and a TransactWriteItems of the action's own goes through
 * `commitKept(result, ops, commit)` (shared/data/idempotency.ts), which adds the key's record to it. An
 * effect outside the table goes through `keepBeforeEffect`.
 */
export { IDEMPOTENCY_WINDOW_SECONDS, type KeptAnswer } from '../data/idempotency';
/** Statuses a kept answer may have besides 2xx: decided by the data, so repeating would give the same. */
const KEPT_ERRORS: ReadonlySet<number> = new Set([404, 409, 412]);

/** An answer, and whether it came from the store (a repeat). */
export type IdempotentAnswer = KeptAnswer & { replayed?: true };

export interface IdempotentRequest {
  workspaceId: string;
  key: string;
  method: string;
  path: string;
  query: Readonly<Record<string, string | undefined>> | null;
  /** The parsed JSON body (undefined without one). */
  body: unknown;
  /** The conditions sent (If-Match, If-None-Match): part of what a repeat must match. */
  ifMatch?: string;
  ifNoneMatch?: string;
}

/** What a repeat must match, hashed: method, path, query, canonical body and the conditions sent. */
export function fingerprintOf(req: IdempotentRequest): string {
  // The conditions join the fingerprint only when sent.
  const conditions = { ...(req.ifMatch !== undefined ? { ifMatch: req.ifMatch } : {}), ...(req.ifNoneMatch !== undefined ? { ifNoneMatch: req.ifNoneMatch } : {}) };
  const request = canonicalJson({ method: req.method, path: req.path, query: req.query ?? {}, body: req.body ?? null, ...conditions });
  return createHash('sha256').update(request, 'utf8').digest('base64url');
}

/** A record write's result as the answer of a route that answers it (201/200, the record, its ETag). */
export const recordAnswer =
  (status: number) =>
  (result: unknown): KeptAnswer => {
    const etag = (result as { etag?: unknown } | null)?.etag;
    return { status, body: result, headers: typeof etag === 'string' ? { ETag: etag } : {} };
  };

/**
 * Runs `work` once per (workspace, key) within the window and answers the kept result for repeats. `work`
 * answers a status, body and headers; `answerOf` says, before the commit, what answer a record write's
 * result gives (the answer the record keeps; `work` must answer the same). A domain refusal `work` throws
 * (404/409/412) is kept as its error answer.
 */
export async function runIdempotent(req: IdempotentRequest, answerOf: (result: unknown) => KeptAnswer, work: () => Promise<KeptAnswer>): Promise<IdempotentAnswer> {
  const keyed = new KeyedWrite({ workspaceId: req.workspaceId, key: req.key, fingerprint: fingerprintOf(req), answerOf });
  let taken: KeptRecord | undefined;
  try {
    return await keyed.run(async () => {
      const answer = await work();
      // No record write carried the key (the route wrote through something else): keep the answer now.
      if (!keyed.committed) await keyed.keep(answer);
      return keyed.committed ?? answer;
    });
  } catch (err) {
    // The work failed after its write committed (a step after it): the committed answer is the answer.
    if (keyed.committed && !(err instanceof KeyTaken)) return keyed.committed;
    const outcome = err instanceof KeyTaken ? { taken: err.record ?? (await keyed.read()) } : await afterFailure(keyed, err);
    if ('kept' in outcome) return outcome.kept;
    taken = outcome.taken;
    // the key was taken, then its record was gone when read (its 24 hours ended in between): retry
    if (!taken) throw busy(`A request with this ${IDEMPOTENCY_KEY_HEADER} has just expired; retry`);
  }
  if (taken.fingerprint !== keyed.request.fingerprint) {
    throw new ApiError(
      'IDEMPOTENCY_KEY_REUSED',
      `This ${IDEMPOTENCY_KEY_HEADER} was used with another method, path, body, If-Match or If-None-Match; use a new key for a new request`,
    );
  }
  return { ...taken.answer, replayed: true };
}

/** The answer to keep for a failure, when it is a final refusal (404, 409 of lasting state, 412); else undefined. */
export function finalRefusal(err: unknown): KeptAnswer | undefined {
  const api = toApiError(err);
  // a refusal another request can clear soon (a list bound, contention) is not final: not kept
  const final = !(err instanceof DomainError && err.transient) && api instanceof ApiError && KEPT_ERRORS.has(api.status);
  return final ? { status: api.status, body: errorBody(api.code, api.message, { details: api.details, reason: api.reason }), headers: { ...api.headers } } : undefined;
}

/**
 * The work threw. A final refusal is kept (one conditional PutItem) and is the answer (`kept`); another
 * failure is thrown as it is, unless the key's record shows that another request with the key committed
 * meanwhile (`taken`: the contention or the refusal came from it).
 */
async function afterFailure(keyed: KeyedWrite, err: unknown): Promise<{ kept: KeptAnswer } | { taken: KeptRecord | undefined }> {
  const answer = finalRefusal(err);
  if (answer) {
    try {
      await keyed.keep(answer);
      return { kept: answer };
    } catch (keepErr) {
      if (keepErr instanceof KeyTaken) return { taken: keepErr.record ?? (await keyed.read()) };
      throw err; // the refusal could not be kept: it is answered all the same (a retry decides again)
    }
  }
  const record = await keyed.read().catch(() => undefined);
  if (record) return { taken: record };
  throw err;
}

/**
 * For an effect outside the table (a queued ping): keeps `answer` as the key's answer BEFORE the effect, so
 * a concurrent or later repeat replays it rather than repeating the effect; `undo` takes it back when the
 * effect then fails (the key stays usable). Without a key: nothing.
 */
export async function keepBeforeEffect<T>(answer: KeptAnswer, effect: () => Promise<T>): Promise<T> {
  const keyed = currentKeyedWrite();
  if (!keyed) return effect();
  await keyed.keep(answer);
  try {
    return await effect();
  } catch (err) {
    await keyed.forget().catch(() => undefined);
    throw err;
  }
}

/** Whether an answer came from the store (a repeat). */
export const isReplayed = (answer: IdempotentAnswer): boolean => answer.replayed === true;
