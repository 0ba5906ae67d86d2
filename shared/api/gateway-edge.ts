import { ERROR_STATUS, UNAUTHORIZED_MESSAGE, type ErrorCode } from './errors';
import * as settings from '../platform/settings';

/**
 * The gateway's edge: every answer the gateway gives itself (before or instead of a handler), and the
 * name of the API key header, written once. lib/gateway-responses.ts turns the table into API Gateway
 * Gateway Responses and the 501 mock template, local/gateway.ts and local/server.ts answer from it, and
 * the OpenAPI document (shared/api/openapi.ts) takes its component responses and key header from it.
 * No aws-cdk-lib here: the Lambdas and the local server import this module.
 *
 * Every answer has the API's error body `{"error":{"code","message","requestId"}}`; the request id is
 * API Gateway's ($context.requestId, also sent as x-amzn-RequestId), locally the gateway's own request id
 * (also sent as X-Request-Id). Both renderings below go through one function, so they cannot differ.
 */

/** The header that carries the API key: the authorizer's identity source, read by the authorizer. */
export const API_KEY_HEADER = 'X-API-Key';
/** The header the local gateway sends the request id in (API Gateway sends it as x-amzn-RequestId). */
export const REQUEST_ID_HEADER = 'X-Request-Id';
/** The request id header API Gateway adds to every answer. */
export const AWS_REQUEST_ID_HEADER = 'x-amzn-RequestId';
/** Safe retries of writes (shared/api/idempotency.ts), and the header marking a kept answer. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** A CSV page's next cursor (the JSON answer's nextCursor): `Accept: text/csv` on a paged list. */
export const NEXT_CURSOR_HEADER = 'Next-Cursor';

/** API Gateway REST refuses payloads over 10 MB before anything runs (REQUEST_TOO_LARGE). */
export const MAX_GATEWAY_BODY_BYTES = 10 * 1024 * 1024;
/**
 * Bodies from 6 MB to 10 MB pass API Gateway's own limit but not Lambda's (6 MB of request payload), which
 * API Gateway would answer with a 5xx. So the edge refuses bodies whose Content-Length has 7 digits or
 * more (1,000,000 bytes and up; the handlers take 128 KB at most) with 413 PAYLOAD_TOO_LARGE: deployed, an
 * AWS WAF rule on the stage (lib/waf.ts, a size constraint on the content-length header); locally,
 * local/server.ts on the bytes it reads.
 */
export const MAX_CONTENT_LENGTH_DIGITS = 6;
export const MAX_EDGE_BODY_BYTES = 10 ** MAX_CONTENT_LENGTH_DIGITS - 1;
/** API Gateway REST quota: length, in characters, of the URL of a Regional API. */
export const MAX_URL_CHARS = 10_240;
/**
 * API Gateway: when a method has authorization, its method ARN
 * (arn:aws:execute-api:{region}:{account}:{api-id}/{stage}/{METHOD}/{path}) is at most 1600 bytes; a
 * longer one is answered 414 (so a long path is refused before the authorizer runs).
 */
export const MAX_METHOD_ARN_BYTES = 1600;
/**
 * Responses of at least this many bytes are gzip-compressed when the client sends Accept-Encoding: gzip:
 * deployed, the RestApi's minimumCompressionSize (lib/time-tracking-stack.ts); locally, local/server.ts.
 */
export const MIN_COMPRESSION_BYTES = 1024;

/**
 * The ids of the gateway's own answers: API Gateway's gateway response types, plus METHOD_NOT_OFFERED
 * (the 501 of the ANY method's MOCK integration) and URI_TOO_LONG (API Gateway's 414, which has no
 * gateway response type of its own).
 */
export type GatewayAnswerId =
  | 'UNAUTHORIZED'
  | 'ACCESS_DENIED'
  | 'MISSING_AUTHENTICATION_TOKEN'
  | 'AUTHORIZER_FAILURE'
  | 'AUTHORIZER_CONFIGURATION_ERROR'
  | 'REQUEST_TOO_LARGE'
  | 'URI_TOO_LONG'
  | 'THROTTLED'
  | 'INTEGRATION_TIMEOUT'
  | 'METHOD_NOT_OFFERED'
  | 'DEFAULT_4XX'
  | 'DEFAULT_5XX';

/** How the deployed API gives an answer. */
export type DeployedAs =
  /** A Gateway Response of this API Gateway response type (lib/gateway-responses.ts). */
  | { kind: 'gateway-response'; responseType: string }
  /** The integration response of the ANY method's MOCK integration (lib/time-tracking-stack.ts). */
  | { kind: 'mock-integration' }
  /**
   * No response type of its own: API Gateway answers it through DEFAULT_4XX (its status, DEFAULT_4XX's
   * code and API Gateway's message). Gateway response templates are not VTL (variables only), so this
   * code cannot be chosen per status there.
   */
  | { kind: 'default-4xx' };

export interface GatewayAnswer {
  readonly id: GatewayAnswerId;
  readonly when: string;
  readonly code: ErrorCode;
  /** The status of the answer (the local gateway's, and the deployed one unless statusFromGateway). */
  readonly status: number;
  /** DEFAULT_4XX/5XX: deployed, API Gateway keeps the status it chose (e.g. 415, 502); `status` is the local one. */
  readonly statusFromGateway: boolean;
  /** The message; for DEFAULT_4XX the local one, the deployed one is API Gateway's own. */
  readonly message: string;
  /** Deployed, the message is API Gateway's own ($context.error.messageString, a JSON string). */
  readonly messageFromGateway: boolean;
  /** Response headers besides the request id (Content-Type always). */
  readonly headers: Readonly<Record<string, string>>;
  readonly deployed: DeployedAs;
  /** Which operations of the OpenAPI document can get it (none: it answers requests no operation matches). */
  readonly on: AnswerScope;
}

export type AnswerScope = 'every-operation' | 'authorized-operations' | 'no-operation';

const JSON_CONTENT_TYPE = { 'Content-Type': 'application/json' } as const;
const RETRY_AFTER = { 'Retry-After': '1' } as const;

interface AnswerSpec {
  when: string;
  code: ErrorCode;
  /** Only where it differs from ERROR_STATUS[code]. */
  status?: number;
  statusFromGateway?: boolean;
  message: string;
  messageFromGateway?: boolean;
  headers?: Record<string, string>;
  deployed?: DeployedAs;
  on: AnswerScope;
}

/**
 * The messages of the two answers a function gives itself should such a request reach it (shared/api/handler.ts),
 * apart from the table so that a function's bundle carries them and not the whole table (issue 35).
 */
export const ROUTE_NOT_FOUND_MESSAGE = 'Route not found';
export const METHOD_NOT_OFFERED_MESSAGE = 'This method is not offered on this path';

/** The specs of the table (a function: the template strings make esbuild keep a plain object even when unread). */
const specs = (): Record<GatewayAnswerId, AnswerSpec> => ({
  UNAUTHORIZED: {
    when: `${API_KEY_HEADER} missing, or the authorizer refused the key (malformed, unknown, expired, revoked)`,
    code: 'UNAUTHORIZED',
    message: UNAUTHORIZED_MESSAGE,
    on: 'authorized-operations',
  },
  ACCESS_DENIED: { when: 'the authorizer returned a policy that does not allow the method', code: 'FORBIDDEN', message: 'Access denied', on: 'authorized-operations' },
  MISSING_AUTHENTICATION_TOKEN: {
    // Every known path template has an ANY method, so "no resource/method matches" means an unknown path.
    when: 'no route of the API matches the path',
    code: 'NOT_FOUND',
    message: ROUTE_NOT_FOUND_MESSAGE,
    on: 'no-operation',
  },
  AUTHORIZER_FAILURE: {
    when: 'the authorizer returned an answer API Gateway cannot use (a malformed policy: a bug, never a transient failure)',
    code: 'INTERNAL_ERROR',
    message: 'Authorization failed unexpectedly',
    on: 'authorized-operations',
  },
  AUTHORIZER_CONFIGURATION_ERROR: {
    // Chosen on purpose, in AWS and locally alike: what makes the authorizer throw (DynamoDB throttled or
    // unreachable, its Lambda throttled or timed out) is transient, so the caller is told to retry.
    when: "the authorizer threw anything but 'Unauthorized' (e.g. DynamoDB unreachable), timed out or could not be invoked (throttled): transient, retry",
    code: 'SERVICE_UNAVAILABLE',
    message: 'Authorization is temporarily unavailable, retry later',
    headers: RETRY_AFTER,
    on: 'authorized-operations',
  },
  REQUEST_TOO_LARGE: {
    when: `the body is ${MAX_EDGE_BODY_BYTES + 1} bytes or more (a Content-Length of ${MAX_CONTENT_LENGTH_DIGITS + 1} digits: deployed, an AWS WAF rule, since Lambda takes at most 6 MB) or over API Gateway's ${MAX_GATEWAY_BODY_BYTES / 1024 / 1024} MB limit (whatever the method)`,
    code: 'PAYLOAD_TOO_LARGE',
    message: 'Request body too large',
    on: 'every-operation',
  },
  URI_TOO_LONG: {
    when: `the URL is over ${MAX_URL_CHARS} characters, or (on a method behind the authorizer) the path makes the method ARN longer than ${MAX_METHOD_ARN_BYTES} bytes`,
    code: 'URI_TOO_LONG',
    message: 'Request URI too long',
    deployed: { kind: 'default-4xx' },
    on: 'every-operation',
  },
  THROTTLED: {
    when: 'the stage throttle (the guard in front of the per-key limits, public route included) is exceeded',
    code: 'THROTTLED',
    message: 'Too many requests, retry later',
    headers: RETRY_AFTER,
    on: 'every-operation',
  },
  INTEGRATION_TIMEOUT: {
    when: 'a function did not answer within the integration timeout',
    code: 'INTERNAL_ERROR',
    status: 504,
    message: 'The request timed out',
    on: 'every-operation',
  },
  METHOD_NOT_OFFERED: {
    when: 'a method the API does not offer on a known path (checked after authentication)',
    code: 'NOT_IMPLEMENTED',
    message: METHOD_NOT_OFFERED_MESSAGE,
    deployed: { kind: 'mock-integration' },
    on: 'no-operation',
  },
  DEFAULT_4XX: {
    when: 'any other 4XX API Gateway answers itself (unsupported media type, bad request, ...): its status and message',
    code: 'VALIDATION_ERROR',
    statusFromGateway: true,
    message: 'Bad request',
    messageFromGateway: true,
    // 415 for a content type the 501 mock does not take; no validator or API key of API Gateway's is used.
    on: 'no-operation',
  },
  DEFAULT_5XX: {
    when: 'any other 5XX API Gateway answers itself (e.g. a function that crashed: 502); locally a crashed handler',
    code: 'INTERNAL_ERROR',
    statusFromGateway: true,
    message: 'An unexpected error occurred',
    on: 'every-operation',
  },
});

/** The table's answers (built by a function, so that a bundle that reads none drops the table: issue 35). */
function answersOf(): Record<GatewayAnswerId, GatewayAnswer> {
  return Object.fromEntries<GatewayAnswer>(
    (Object.entries(specs()) as Array<[GatewayAnswerId, AnswerSpec]>).map(([id, s]) => [
      id,
      Object.freeze({
        id,
        when: s.when,
        code: s.code,
        status: s.status ?? ERROR_STATUS[s.code],
        statusFromGateway: s.statusFromGateway ?? false,
        message: s.message,
        messageFromGateway: s.messageFromGateway ?? false,
        headers: Object.freeze({ ...JSON_CONTENT_TYPE, ...(s.headers ?? {}) }),
        deployed: s.deployed ?? { kind: 'gateway-response' as const, responseType: id },
        on: s.on,
      }),
    ]),
  ) as Record<GatewayAnswerId, GatewayAnswer>;
}

/** The table: every answer the gateway gives itself, by id. */
export const GATEWAY_ANSWERS: Readonly<Record<GatewayAnswerId, GatewayAnswer>> = /* @__PURE__ */ answersOf();

export const gatewayAnswerList: readonly GatewayAnswer[] = /* @__PURE__ */ Object.values(GATEWAY_ANSWERS);

/**
 * The one rendering of an answer's body. `message` and `requestId` are JSON text: JSON strings locally,
 * API Gateway variables in the template.
 */
function renderBody(answer: GatewayAnswer, slots: { message: string; requestId: string }): string {
  return `{"error":{"code":${JSON.stringify(answer.code)},"message":${slots.message},"requestId":${slots.requestId}}}`;
}

/**
 * The deployed body: an API Gateway mapping template (valid JSON once API Gateway substitutes
 * $context.requestId and, for a message from the gateway, $context.error.messageString, which is
 * already a quoted JSON string).
 */
export function gatewayAnswerTemplate(answer: GatewayAnswer): string {
  return renderBody(answer, {
    message: answer.messageFromGateway ? '$context.error.messageString' : JSON.stringify(answer.message),
    requestId: '"$context.requestId"',
  });
}

/** The local body: what API Gateway makes of the template, for this request id (and gateway message). */
export function gatewayAnswerBody(answer: GatewayAnswer, requestId: string, gatewayMessage?: string): string {
  const message = answer.messageFromGateway && gatewayMessage !== undefined ? gatewayMessage : answer.message;
  return renderBody(answer, { message: JSON.stringify(message), requestId: JSON.stringify(requestId) });
}

export interface EdgeResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body is base64 (a binary answer: the console's PDF), decoded when sent as API Gateway does. */
  isBase64Encoded?: boolean;
}

/**
 * The whole local answer: status, the table's headers plus X-Request-Id and the CORS headers (for a
 * request from `cors.origin` under the allowed `cors.origins`, CORS_ORIGINS by default), and the body.
 */
export function gatewayAnswerResponse(
  id: GatewayAnswerId,
  requestId: string,
  gatewayMessage?: string,
  cors: { origins?: readonly string[]; origin?: string | undefined } = {},
): EdgeResponse {
  const answer = GATEWAY_ANSWERS[id];
  return {
    status: answer.status,
    headers: { ...answer.headers, ...gatewayAnswerCorsHeaders(cors.origins ?? corsOrigins(), cors.origin), [REQUEST_ID_HEADER]: requestId },
    body: gatewayAnswerBody(answer, requestId, gatewayMessage),
  };
}

/** The body as an object (the OpenAPI examples). */
export function gatewayAnswerExample(id: GatewayAnswerId, requestId: string): { error: { code: ErrorCode; message: string; requestId: string } } {
  return JSON.parse(gatewayAnswerBody(GATEWAY_ANSWERS[id], requestId)) as { error: { code: ErrorCode; message: string; requestId: string } };
}

/** A request header's value, whatever the case of its name (API Gateway passes names as the client sent them). */
export function headerValue(headers: Readonly<Record<string, string | undefined>> | null | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const k in headers) if (k.toLowerCase() === wanted) return headers[k];
  return undefined;
}

/** The API key of a request's headers, whatever the case of the header name. */
export const apiKeyOf = (headers: Readonly<Record<string, string | undefined>> | null | undefined): string | undefined => headerValue(headers, API_KEY_HEADER);

/**
 * The method ARN's length as API Gateway counts it for the 414 limit, for a method of `stage`. The
 * region, account and API id are those of a typical deployment (9-character region, 12-digit account,
 * 10-character API id); a longer region name lowers the usable path length by a few bytes.
 */
export function deployedMethodArnBytes(stage: string, method: string, path: string): number {
  return Buffer.byteLength(`arn:aws:execute-api:us-east-1:123456789012:a1b2c3d4e5/${stage}/${method}${path}`, 'utf8');
}

/** The URL length API Gateway's quota counts (path and query string; the host is not the caller's to choose). */
export function urlChars(path: string, queryString: string): number {
  return path.length + (queryString ? 1 + queryString.length : 0);
}

// ------------------------------------------------------------------------------------------- CORS

/**
 * CORS, one declaration for every place that answers: the preflight (an OPTIONS on any route, answered
 * by the gateway without a key: locally by local/gateway.ts, deployed by the OPTIONS mock methods of
 * lib/time-tracking-stack.ts), the handlers' answers (shared/api/handler.ts) and the gateway's own
 * answers above (Gateway Responses and the 501 mock). Keys travel in a header and no cookie is used, so
 * the default origin is `*` and credentials are never allowed.
 */
export const CORS = {
  /** The environment variable with the allowed origins: a comma list of `scheme://host[:port]`, or `*`. */
  originsVariable: 'CORS_ORIGINS',
  allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
  allowHeaders: [API_KEY_HEADER, 'Content-Type', 'If-Match', 'If-None-Match', IDEMPOTENCY_KEY_HEADER],
  exposeHeaders: ['RateLimit', 'RateLimit-Policy', 'Retry-After', 'ETag', 'Location', REPLAYED_HEADER, NEXT_CURSOR_HEADER, REQUEST_ID_HEADER, AWS_REQUEST_ID_HEADER],
  /** How long a browser may keep a preflight answer (seconds). */
  maxAgeSeconds: 600,
  preflightStatus: 204,
} as const;

const ORIGIN_PATTERN = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;

/** The allowed origins from CORS_ORIGINS (default `*`); a malformed entry is a configuration error, thrown. */
export function corsOrigins(raw: string | undefined = settings.raw(CORS.originsVariable)): readonly string[] {
  const list = (raw ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  if (list.length === 0) return ['*'];
  for (const o of list) {
    if (o !== '*' && !ORIGIN_PATTERN.test(o)) throw new Error(`${CORS.originsVariable}: "${o}" is not an origin (scheme://host[:port], no path) or *`);
  }
  return list.includes('*') ? ['*'] : list;
}

/** The Access-Control-Allow-Origin value for a request from `origin`: `*`, the origin when listed, or none. */
export function allowedOrigin(origins: readonly string[], origin: string | undefined): string | undefined {
  if (origins.includes('*')) return '*';
  return origin !== undefined && origins.includes(origin) ? origin : undefined;
}

/** The CORS headers of an answer made by a handler: the list is checked against the request's Origin. */
export function corsHeaders(origins: readonly string[], origin: string | undefined): Record<string, string> {
  const allow = allowedOrigin(origins, origin);
  const vary: Record<string, string> = origins.includes('*') ? {} : { Vary: 'Origin' };
  if (allow === undefined) return vary;
  return { 'Access-Control-Allow-Origin': allow, 'Access-Control-Expose-Headers': CORS.exposeHeaders.join(', '), ...vary };
}

/**
 * How the gateway's own answers (the table above) carry CORS, deployed and locally alike. Gateway
 * Responses cannot test a value (their templates take variables only), so with several origins they
 * echo the request's Origin: those answers carry no data (a code, a fixed message, the request id), and
 * a browser script of a listed origin must be able to read its 401 or 429. One origin or `*`: the literal.
 */
export type GatewayCorsOrigin = { literal: string } | { echoRequestHeader: 'Origin' };
export function gatewayCorsOrigin(origins: readonly string[]): GatewayCorsOrigin {
  if (origins.includes('*')) return { literal: '*' };
  return origins.length === 1 ? { literal: origins[0]! } : { echoRequestHeader: 'Origin' };
}
/** The CORS headers of a gateway answer to a request from `origin` (what the deployed mapping produces). */
export function gatewayAnswerCorsHeaders(origins: readonly string[], origin: string | undefined): Record<string, string> {
  const o = gatewayCorsOrigin(origins);
  const allow = 'literal' in o ? o.literal : origin;
  return allow === undefined ? {} : { 'Access-Control-Allow-Origin': allow, 'Access-Control-Expose-Headers': CORS.exposeHeaders.join(', ') };
}

/** The preflight answer (204, no body): allowed methods and headers, max age; the origin only when allowed. */
export function preflightResponse(origins: readonly string[], origin: string | undefined, requestId: string): EdgeResponse {
  const allow = allowedOrigin(origins, origin);
  return {
    status: CORS.preflightStatus,
    headers: {
      ...(allow !== undefined ? { 'Access-Control-Allow-Origin': allow } : {}),
      'Access-Control-Allow-Methods': CORS.allowMethods.join(','),
      'Access-Control-Allow-Headers': CORS.allowHeaders.join(','),
      'Access-Control-Max-Age': String(CORS.maxAgeSeconds),
      ...(origins.includes('*') ? {} : { Vary: 'Origin' }),
      [REQUEST_ID_HEADER]: requestId,
    },
    body: '',
  };
}

/**
 * The API functions' timeout (lib/service-function.ts gives it to every API Lambda): the local gateway
 * gives a handler the same time (and the same getRemainingTimeInMillis), not API Gateway's 29 s
 * integration timeout, which a deployed function never reaches (issue 22 item 10).
 */
export const FUNCTION_TIMEOUT_SECONDS = 10;
