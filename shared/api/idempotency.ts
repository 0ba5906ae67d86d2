import type { Context } from 'aws-lambda';
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyPersistenceLayerError,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { DomainError } from '../domain/errors';
import { canonicalJson } from '../data/cursor';
import { db, tableName } from '../data/db';
import { TABLE_TTL_ATTRIBUTE } from '../data/table';
import { ApiError, errorBody } from './errors';
import { IDEMPOTENCY_KEY_HEADER } from './headers';
import { toApiError } from './response';

/**
 * Idempotency-Key (draft-ietf-httpapi-idempotency-key-header) on every POST, PUT and DELETE, with
 * Powertools idempotency (`makeIdempotent` + its DynamoDB persistence layer, in the API's own table):
 * - the record is kept per workspace (partition `WS#<ws>#IDEMPOTENCY`, sort key = Powertools' hash of the
 *   key string), for 24 hours (`ttl`, so DynamoDB's TTL removes it afterwards);
 * - a repeat with the same key, method, path, query, body, If-Match and If-None-Match (bodies compared
 *   by the hash of their canonical JSON: whitespace and key order do not matter) gets the kept answer and
 *   `Idempotent-Replayed: true`; another method, path, query, body or condition is 422
 *   IDEMPOTENCY_KEY_REUSED; a
 *   repeat while the first runs is 409 CONFLICT with Retry-After (Powertools' in-progress record, which
 *   expires with the Lambda's remaining time, so a crashed attempt does not block its retries for long);
 * - kept: final answers only (issue 22 item 3): 2xx, 404, 412 and the 409s of lasting state conflicts
 *   (a taken name, a record in use, an invoice's status, a running timer); not kept: anything the
 *   middleware refused before (400, 401, 403, rate limits), failures (5xx: the 503 of a write that met
 *   contention past its retry budget included), 400s of the data layer, and the 409 of a whole list at its
 *   bound (a delete frees it): the function throws, Powertools deletes its in-progress record, and the
 *   retry with the same key runs afresh.
 * Requests without the header do none of this (no extra call, no extra work).
 */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;
/** Statuses a kept answer may have besides 2xx: decided by the data, so repeating would give the same. */
const KEPT_ERRORS: ReadonlySet<number> = new Set([404, 409, 412]);

/** What is kept and replayed: the status, body and the headers that describe the resource (ETag). */
export interface KeptAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  /** Set on an answer that came from the store (a repeat). */
  replayed?: true;
}

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

/**
 * Runs `work` once per (workspace, key) within the window and answers the kept result for repeats. `work`
 * answers a status, body and headers; a domain refusal it throws (404/409/412) is kept as its error answer.
 */
export async function runIdempotent(req: IdempotentRequest, context: Context, work: () => Promise<KeptAnswer>): Promise<KeptAnswer> {
  const persistenceStore = new DynamoDBPersistenceLayer({
    tableName: tableName(),
    keyAttr: 'PK',
    sortKeyAttr: 'SK',
    staticPkValue: `WS#${req.workspaceId}#IDEMPOTENCY`,
    expiryAttr: TABLE_TTL_ATTRIBUTE,
    awsSdkV3Client: db(),
  });
  const config = new IdempotencyConfig({
    eventKeyJmesPath: 'key',
    payloadValidationJmesPath: 'request',
    expiresAfterSeconds: IDEMPOTENCY_WINDOW_SECONDS,
    responseHook: (response) => ({ ...(response as object), replayed: true }),
  });
  // What identifies the request (the key) and what a repeat must match (method, path, query, body).
  // The conditions join the fingerprint only when sent, so requests without them keep their earlier fingerprint.
  const conditions = { ...(req.ifMatch !== undefined ? { ifMatch: req.ifMatch } : {}), ...(req.ifNoneMatch !== undefined ? { ifNoneMatch: req.ifNoneMatch } : {}) };
  const payload = { key: req.key, request: canonicalJson({ method: req.method, path: req.path, query: req.query ?? {}, body: req.body ?? null, ...conditions }) };
  const run = makeIdempotent(
    async (_payload: typeof payload, _context: Context): Promise<KeptAnswer> => {
      try {
        return await work();
      } catch (err) {
        // a refusal another request can clear soon (a list bound, contention) is not final: not kept
        if (err instanceof DomainError && err.transient) throw err;
        const api = toApiError(err);
        if (api instanceof ApiError && KEPT_ERRORS.has(api.status)) {
          return { status: api.status, body: errorBody(api.code, api.message, { details: api.details, reason: api.reason }), headers: { ...api.headers } };
        }
        throw err;
      }
    },
    { persistenceStore, config, keyPrefix: 'idempotency' },
  );
  try {
    return await run(payload, context);
  } catch (err) {
    if (err instanceof IdempotencyAlreadyInProgressError) {
      throw new ApiError('CONFLICT', `A request with this ${IDEMPOTENCY_KEY_HEADER} is still being processed; retry after a moment`, undefined, { 'Retry-After': '1' });
    }
    if (err instanceof IdempotencyValidationError) {
      throw new ApiError(
        'IDEMPOTENCY_KEY_REUSED',
        `This ${IDEMPOTENCY_KEY_HEADER} was used with another method, path, body, If-Match or If-None-Match; use a new key for a new request`,
      );
    }
    // A failure of the idempotency store itself: its cause decides (e.g. DynamoDB unavailable: 503).
    if (err instanceof IdempotencyPersistenceLayerError && err.cause instanceof Error) throw err.cause;
    throw err;
  }
}

/** Whether an answer came from the store (a repeat). */
export const isReplayed = (answer: KeptAnswer): boolean => answer.replayed === true;
