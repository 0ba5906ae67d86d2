import { EXAMPLE_CURSOR, EXAMPLE_IDS, EXAMPLE_SORT_KEY, EXAMPLE_START } from '../domain/examples';
import { CORS } from './gateway-edge';
import { IDEMPOTENCY_KEY_HEADER } from './headers';
import type { Json } from './kernel/openapi';

/**
 * The headers the API's OpenAPI document declares (rate limit, CORS, ETag and the conditional requests,
 * Idempotency-Key, the next page's cursor, Location) and which answers carry them, plus the examples of its
 * text answers: the document's header vocabulary, used by shared/api/openapi.ts.
 */

/**
 * Rate-limit headers (draft-ietf-httpapi-ratelimit-headers-10; docs/rate-limits.md). Every response
 * of an authenticated request that reached the API's handlers carries them.
 */
export const RATE_LIMIT_HEADERS: Record<string, Json> = {
  'RateLimit-Policy': {
    description:
      'The key\'s quota policies: "minute" (q requests per w=60 seconds) and "hour" (q requests per w=3600 seconds). Windows are clock minutes and hours. Sent on every answer to a request with a valid key that reached the API\'s functions.',
    schema: { type: 'string', maxLength: 128, pattern: '^"minute";q=\\d+;w=60, "hour";q=\\d+;w=3600$', example: '"minute";q=60;w=60, "hour";q=1000;w=3600' },
  },
  RateLimit: {
    description:
      'Remaining quota of each policy: r = requests left in the current window after this one, t = seconds until that window resets. Sent with RateLimit-Policy once the request was counted.',
    schema: { type: 'string', maxLength: 128, pattern: '^"minute";r=\\d+;t=\\d+, "hour";r=\\d+;t=\\d+$', example: '"minute";r=57;t=23, "hour";r=994;t=1823' },
  },
};
export const RETRY_AFTER: Json = {
  description: 'Seconds to wait before retrying: until the exceeded rate-limit window resets (1..60 for the minute, up to 3600 for the hour), or 1 when the service is busy.',
  schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 3600, example: 37 },
};

/**
 * CORS headers (shared/api/gateway-edge.ts, CORS_ORIGINS): on every answer, the gateway's own included,
 * to a request from an allowed origin.
 */
export const CORS_HEADERS: Record<string, Json> = {
  'Access-Control-Allow-Origin': {
    description: `\`*\` by default; with ${CORS.originsVariable} set, the request's Origin when it is one of the configured origins`,
    schema: { type: 'string', maxLength: 2048, example: '*' },
  },
  'Access-Control-Expose-Headers': {
    description: 'The response headers a browser script may read',
    schema: { type: 'string', maxLength: 1024, enum: [CORS.exposeHeaders.join(', ')] },
  },
};

/** The record's strong ETag (RFC 9110): the revision it is at, quoted; changes with every update. */
export const ETAG_HEADER: Json = {
  description: "The record's strong ETag; send it in If-Match to change the record only if unchanged since",
  schema: { type: 'string', maxLength: 24, pattern: '^"\\d+"$', example: '"3"' },
};
/** The conditional request headers of single-resource reads and writes. */
export const CONDITIONAL_HEADERS: Record<'read' | 'write', Json> = {
  read: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'An ETag (or *): when it is the current one the answer is 304 Not Modified without a body',
    schema: { type: 'string', maxLength: 1024, example: '"3"' },
  },
  write: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description: 'Change the record only if its ETag is one of these (or * : only if it exists); otherwise 412 PRECONDITION_FAILED and nothing changes',
    schema: { type: 'string', maxLength: 1024, example: '"3"' },
  },
};

export const IDEMPOTENCY_KEY_PARAMETER: Json = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description:
    'A key of your choice (1-255 printable ASCII characters, e.g. a UUID) that makes retries safe: for 24 hours a repeat with the same key, method, path, query, body, If-Match and If-None-Match gets the first answer (with Idempotent-Replayed: true) and changes nothing; the same key with another request is 422 IDEMPOTENCY_KEY_REUSED. Concurrent requests with one key: one runs, the others get its answer (Idempotent-Replayed: true). Only final answers are kept (2xx, 404, 412, the 409s of lasting conflicts); refused requests (400, 401, 403, rate limit), failures (5xx, 503 included) and the 409 of a list at its bound are not, so a retry with the same key runs again. Keys are scoped to the workspace.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$', example: '5f0c6a2e-0b6b-4a4e-9d3c-2f8f7d1f6a01' },
};
export const REPLAYED_HEADER_DOC: Json = {
  description: 'true when this is the kept answer of an earlier request with the same Idempotency-Key',
  schema: { type: 'string', maxLength: 4, enum: ['true'] },
};

/** How a header of the gateway's answers is documented. */
export const HEADER_DOCS: Record<string, Json> = {
  'Retry-After': {
    description: "Seconds to wait before retrying: the gateway's own answers (throttled, authorizer unavailable) always say 1.",
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 3600, example: 1 },
  },
};

/** The next page's cursor of a CSV page (shared/api/csv.ts). */
export const NEXT_CURSOR_DOC: Json = {
  description: 'The cursor of the next page (pass it as cursor), absent on the last page (the JSON answer carries it as nextCursor)',
  schema: { type: 'string', maxLength: 2048, example: EXAMPLE_CURSOR },
};

/** Where a 201's record is: its GET URL (with the sortKey or userId that address it). */
export const LOCATION_DOC: Json = {
  description: 'The URL of the created record (its GET, with the query parameters that address it)',
  schema: { type: 'string', maxLength: 4096, example: 'https://api.example.com/v1/clients/01JB2Z3Y4X5W6V7T8S9R0Q1P2N' },
};

/** Examples of the text answers, by route id: the CSV operations (the example records of shared/domain/examples.ts), the page and its script. */
export const TEXT_EXAMPLES: Record<string, string> = {
  listTimeEntriesCsv:
    'id,sortKey,userId,name,projectId,clientId,taskId,startTime,endTime,durationMinutes,billable,tagIds,notes,createdAt,updatedAt,etag\r\n' +
    `${EXAMPLE_IDS.timeEntry},${EXAMPLE_SORT_KEY},${EXAMPLE_IDS.user},Homepage hero section,${EXAMPLE_IDS.project},${EXAMPLE_IDS.client},${EXAMPLE_IDS.task},${EXAMPLE_START},2026-03-02T10:30:00.000Z,90,true,${EXAMPLE_IDS.tag},Sprint work,2026-03-02T10:30:05.000Z,2026-03-02T10:30:05.000Z,"""1"""\r\n`,
  getSummaryReportCsv:
    'level,project,projectName,entries,durationMinutes,billableMinutes,amount_USD\r\n' +
    'total,,,42,3150,2700,5400\r\n' +
    `group,${EXAMPLE_IDS.project},Website relaunch,30,2250,2250,4500\r\n` +
    'group,,,12,900,450,900\r\n',
  getApiReference: '<!DOCTYPE html>\n<html lang="en">\n<head>\n<title>Workspace Time-Tracking API reference</title>\n...',
  getApiReferenceScript: '/*! For license information please see redoc.standalone.js.LICENSE.txt */\n!function(e,t){...}(this,...);',
};

/**
 * Headers declared on shared error responses. The handlers' refusals of a request with a valid key carry
 * the quota headers (the request was counted); the rate-limit 403 carries Retry-After too. Answers only the
 * gateway gives (401, 414, 429, 504) come before any per-key counting and carry none.
 */
export const ERROR_HEADERS: Record<string, Record<string, Json>> = {
  BadRequest: RATE_LIMIT_HEADERS,
  NotFound: RATE_LIMIT_HEADERS,
  Conflict: { 'Retry-After': RETRY_AFTER, ...RATE_LIMIT_HEADERS },
  PreconditionFailed: RATE_LIMIT_HEADERS,
  CursorExpired: RATE_LIMIT_HEADERS,
  IdempotencyKeyReused: RATE_LIMIT_HEADERS,
  PayloadTooLarge: RATE_LIMIT_HEADERS,
  NotImplemented: RATE_LIMIT_HEADERS,
  InternalError: RATE_LIMIT_HEADERS,
  Forbidden: { 'Retry-After': RETRY_AFTER, ...RATE_LIMIT_HEADERS },
  ServiceUnavailable: { 'Retry-After': RETRY_AFTER, 'RateLimit-Policy': RATE_LIMIT_HEADERS['RateLimit-Policy']! },
};
