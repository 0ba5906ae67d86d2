import type * as z from 'zod/mini';
import { ENTITIES } from '../domain/registry';
import { ERROR_STATUS, type ErrorCode } from './errors';
import {
  CONDITIONAL_HEADERS,
  CORS_HEADERS,
  ERROR_HEADERS,
  ETAG_HEADER,
  HEADER_DOCS,
  IDEMPOTENCY_KEY_PARAMETER,
  LOCATION_DOC,
  NEXT_CURSOR_DOC,
  RATE_LIMIT_HEADERS,
  REPLAYED_HEADER_DOC,
  TEXT_EXAMPLES,
} from './openapi-headers';
import { API_KEY_HEADER, CORS, GATEWAY_ANSWERS, gatewayAnswerExample, gatewayAnswerList, type GatewayAnswer, type GatewayAnswerId } from './gateway-edge';
import { NEXT_CURSOR_HEADER, REPLAYED_HEADER } from './headers';
import { errorSchema } from './schemas';
import { buildDocument, Components, type Json, type JsonValue } from './kernel/openapi';
import { ANY_KEY, routeList, SCOPES, type RouteDef } from './routes';

/**
 * The OpenAPI 3.0 document, generated from the route table and its zod schemas by the kernel's builder
 * (shared/api/kernel/openapi.ts). Nothing here is written by hand per route: a new route appears in the
 * document as soon as it is in the table.
 */

const INT32 = 2 ** 31;
/** Every integer gets its format (int32 when its bounds fit, else int64), as generators and linters expect. */
function withIntegerFormats(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(withIntegerFormats);
  if (!v || typeof v !== 'object') return v;
  const o: Json = {};
  for (const [k, val] of Object.entries(v)) if (val !== undefined) o[k] = withIntegerFormats(val);
  if (o.type === 'integer' && o.format === undefined) {
    const fits = typeof o.minimum === 'number' && typeof o.maximum === 'number' && o.minimum >= -INT32 && o.maximum < INT32;
    o.format = fits ? 'int32' : 'int64';
  }
  return o;
}

/** Dates and date-times: their format and an example, not the validator's (leap-year) regular expression. */
const FORMAT_EXAMPLES: Record<string, string> = { 'date-time': '2026-03-02T09:00:00Z', date: '2026-03-02' };
function withDateExamples(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(withDateExamples);
  if (!v || typeof v !== 'object') return v;
  const o: Json = {};
  for (const [k, val] of Object.entries(v)) if (val !== undefined) o[k] = withDateExamples(val);
  const example = typeof o.format === 'string' ? FORMAT_EXAMPLES[o.format] : undefined;
  if (example !== undefined && o.type === 'string') {
    delete o.pattern;
    o.example ??= example;
  }
  return o;
}

/** The document's component schemas: every JSON schema with its integer formats and date examples. */
const components = new Components((v) => withDateExamples(withIntegerFormats(v)));
const schemas = components.schemas;
const toSchema = (schema: z.ZodMiniType, io: 'input' | 'output'): Json => components.schema(schema, io);

/**
 * A component schema's example, composed from its properties' examples (each declared once, on its zod
 * schema), $refs followed: the first enum value or union branch where a part declares none. A schema's
 * own example wins.
 */
function composedExample(s: Json, seen: readonly string[] = []): JsonValue | undefined {
  if (s.example !== undefined) return s.example;
  if (typeof s.$ref === 'string') {
    const name = s.$ref.slice('#/components/schemas/'.length);
    const target = schemas[name];
    return target && !seen.includes(name) ? composedExample(target, [...seen, name]) : undefined;
  }
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = s[key];
    if (Array.isArray(branches)) return branches.map((b) => composedExample(b as Json, seen)).find((e) => e !== undefined);
  }
  if (s.type === 'array' && s.items) {
    const item = composedExample(s.items as Json, seen);
    return item === undefined ? undefined : [item];
  }
  if (s.properties) {
    const out: Json = {};
    for (const [name, p] of Object.entries(s.properties as Record<string, Json>)) {
      const e = composedExample(p, seen);
      if (e !== undefined) out[name] = e;
    }
    return out;
  }
  return undefined;
}

/**
 * One component response per error code (the compiler insists on every code of ERROR_STATUS). The example
 * is the gateway's own answer (shared/api/gateway-edge.ts, request id included) where the code is the
 * gateway's, else a typical handler message.
 */
const ERROR_RESPONSES: Record<ErrorCode, { name: string; description: string; example: { message: string } | { gateway: GatewayAnswerId } }> = {
  VALIDATION_ERROR: {
    name: 'BadRequest',
    description: 'The request is invalid (path, query or body); nothing was changed',
    example: { message: 'Invalid request body: name must not be empty' },
  },
  PRECONDITION_FAILED: {
    name: 'PreconditionFailed',
    description: 'If-Match names an ETag the record no longer has (it changed since it was read): nothing was changed; read it again and retry',
    example: { message: 'Client has changed since the ETag given in If-Match; read it again and retry with its current ETag' },
  },
  CURSOR_EXPIRED: {
    name: 'CursorExpired',
    description:
      'The cursor or since is older than the change feed keeps events (30 days): events after it may be gone. Resynchronise from the lists, then follow the feed from a new cursor',
    example: { message: 'This cursor is older than the 30 days the change feed keeps events; resynchronise from the lists, then follow the feed from a new cursor' },
  },
  IDEMPOTENCY_KEY_REUSED: {
    name: 'IdempotencyKeyReused',
    description: 'The Idempotency-Key was used in the last 24 hours with another method, path, query, body, If-Match or If-None-Match: nothing was changed',
    example: { message: 'This Idempotency-Key was used with another method, path, body, If-Match or If-None-Match; use a new key for a new request' },
  },
  UNAUTHORIZED: { name: 'Unauthorized', description: 'Missing, malformed, unknown, expired or revoked API key', example: { gateway: 'UNAUTHORIZED' } },
  FORBIDDEN: {
    name: 'Forbidden',
    description:
      'The key lacks a scope of this route, or a rate limit (per minute or per hour) was exceeded: then the message names the limit ("Rate limit exceeded: 60 requests per minute") and Retry-After says when its window resets',
    example: { message: 'This API key lacks the required scope: clients:write' },
  },
  NOT_FOUND: { name: 'NotFound', description: "The resource does not exist in the key's workspace", example: { message: 'Client not found' } },
  CONFLICT: {
    name: 'Conflict',
    description:
      'A unique name is taken, the record is still referenced, its state forbids the change, or a whole list is at its bound (the message names the limit; a delete frees a place). Never mere contention with other writers: that is retried, then a 503',
    example: { message: 'A client named "Acme" already exists in this workspace' },
  },
  PAYLOAD_TOO_LARGE: { name: 'PayloadTooLarge', description: 'The request body is larger than the API accepts', example: { gateway: 'REQUEST_TOO_LARGE' } },
  URI_TOO_LONG: {
    name: 'UriTooLong',
    description: `The request URI is too long: ${GATEWAY_ANSWERS.URI_TOO_LONG.when}. On AWS, API Gateway gives this 414 through its default 4XX response, so the code there is VALIDATION_ERROR with API Gateway's message`,
    example: { gateway: 'URI_TOO_LONG' },
  },
  THROTTLED: { name: 'Throttled', description: 'The API as a whole is receiving too many requests; retry with backoff', example: { gateway: 'THROTTLED' } },
  NOT_IMPLEMENTED: { name: 'NotImplemented', description: 'The operation is not offered by this API', example: { gateway: 'METHOD_NOT_OFFERED' } },
  INTERNAL_ERROR: { name: 'InternalError', description: 'Unexpected failure; the body carries only a request id for support', example: { gateway: 'DEFAULT_5XX' } },
  SERVICE_UNAVAILABLE: {
    name: 'ServiceUnavailable',
    description:
      'The data store is throttling or unreachable, or other requests kept changing the same record for the whole retry budget; retry after the Retry-After seconds (with the same Idempotency-Key: a 503 is never kept)',
    example: { message: 'The service is busy; retry after a short wait' },
  },
};

/** The request id of the examples. */
const EXAMPLE_REQUEST_ID = 'c0a8f1e2-5b7d-4c3a-9e6f-1a2b3c4d5e6f';

/** A gateway answer whose status is not its code's (INTEGRATION_TIMEOUT: 504) gets a component of its own. */
const ownComponent = (a: GatewayAnswer) => !a.statusFromGateway && a.status !== ERROR_STATUS[a.code];
const componentName = (a: GatewayAnswer) =>
  ownComponent(a) ? `Gateway${a.id.toLowerCase().replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase())}` : ERROR_RESPONSES[a.code].name;

/**
 * The error statuses a route can answer: the gateway's own answers that reach operations (the table of
 * shared/api/gateway-edge.ts: URI too long, body over API Gateway's limit, stage throttling, integration
 * timeout, unexpected failure; on routes behind the authorizer also 401, 403, 500 and 503 of the
 * authorizer), then the handlers' (shared/api/handler.ts): rate limit (403, or 503 when its counter fails:
 * fail closed) → scope (403) → body size (413) → validation of path, query and body (400; also on the
 * public route, which refuses unknown query parameters) → 501 for declared-but-not-offered routes →
 * the route (404/409) → 500.
 */
function errorResponsesFor(r: RouteDef): Record<string, Json> {
  const out: Record<string, string> = {};
  const add = (status: number, component: string) => (out[String(status)] ??= component);
  for (const a of gatewayAnswerList) {
    // 414 (a URL over the gateway's limit) can meet any operation: it is in `default`, not listed on each.
    // 413 (a body over the gateway's limit) only on operations that take a body.
    if (a.status === 414 || (a.status === 413 && !r.body)) continue;
    if (a.on === 'every-operation' || (a.on === 'authorized-operations' && r.scope !== null)) add(a.status, componentName(a));
  }
  const codes: ErrorCode[] = [];
  if (r.scope !== null) codes.push('FORBIDDEN', 'SERVICE_UNAVAILABLE');
  if (r.notImplemented) codes.push('NOT_IMPLEMENTED');
  else {
    if (refusesInput(r)) codes.push('VALIDATION_ERROR');
    if (r.params) codes.push('NOT_FOUND');
    if (r.conflict) codes.push('CONFLICT');
    if (r.conditional === 'write') codes.push('PRECONDITION_FAILED');
    if (r.expiringCursor) codes.push('CURSOR_EXPIRED');
    // a key never brings a 409 of its own: a repeat while the first runs waits for it and replays its answer
    if (idempotent(r)) codes.push('IDEMPOTENCY_KEY_REUSED');
    if (r.body) codes.push('PAYLOAD_TOO_LARGE');
  }
  codes.push('INTERNAL_ERROR');
  for (const code of codes) add(ERROR_STATUS[code], ERROR_RESPONSES[code].name);
  return {
    ...Object.fromEntries(Object.entries(out).map(([status, name]) => [status, { $ref: `#/components/responses/${name}` }])),
    default: { $ref: '#/components/responses/OtherError' },
  };
}

/** The component responses: one per error code, plus the gateway answers with a status of their own. */
function errorComponents(errorRef: Json): Record<string, Json> {
  const content = (example: Json) => ({ 'application/json': { schema: errorRef, example } });
  const components: Record<string, Json> = {};
  for (const [code, e] of Object.entries(ERROR_RESPONSES) as Array<[ErrorCode, (typeof ERROR_RESPONSES)[ErrorCode]]>) {
    // 414 can meet any operation: it is described once, by `default` (OtherError), not as a component of its own
    if (code === 'URI_TOO_LONG') continue;
    const example = 'gateway' in e.example ? gatewayAnswerExample(e.example.gateway, EXAMPLE_REQUEST_ID) : { error: { code, message: e.example.message } };
    const headers = { ...gatewayHeaders(code), ...(ERROR_HEADERS[e.name] ?? {}), ...CORS_HEADERS };
    components[e.name] = { description: e.description, ...(Object.keys(headers).length ? { headers } : {}), content: content(example) };
  }
  components.OtherError = {
    description: 'Any other error, in the same body: e.g. 414 URI_TOO_LONG when the URL is over the gateway limit (10,240 characters)',
    content: content(gatewayAnswerExample('URI_TOO_LONG', EXAMPLE_REQUEST_ID)),
  };
  for (const a of gatewayAnswerList.filter(ownComponent)) {
    const headers = { ...gatewayHeadersOf(a), ...CORS_HEADERS };
    components[componentName(a)] = {
      description: `Answered by the gateway: ${a.when}`,
      ...(Object.keys(headers).length ? { headers } : {}),
      content: content(gatewayAnswerExample(a.id, EXAMPLE_REQUEST_ID)),
    };
  }
  return components;
}

/** Headers the gateway's answers of a code carry besides Content-Type (Retry-After of THROTTLED). */
function gatewayHeadersOf(a: GatewayAnswer): Record<string, Json> {
  return Object.fromEntries(
    Object.keys(a.headers)
      .filter((h) => h !== 'Content-Type')
      .map((h) => [h, HEADER_DOCS[h] ?? { schema: { type: 'string' } }]),
  );
}
const gatewayHeaders = (code: ErrorCode): Record<string, Json> =>
  Object.assign({}, ...gatewayAnswerList.filter((a) => a.code === code && !ownComponent(a) && a.on !== 'no-operation').map(gatewayHeadersOf));

const parameters = (schema: z.ZodMiniObject | undefined, where: 'path' | 'query'): Json[] => components.parameters(schema, where, true);

/**
 * Writes take an Idempotency-Key (shared/api/idempotency.ts), except those whose answer carries a secret
 * (noIdempotency: the key is refused with a 400, so no 422 can come of it).
 */
const idempotent = (r: RouteDef) => r.scope !== null && r.method !== 'GET' && !r.notImplemented && !r.noIdempotency;
/**
 * Whether the route can refuse its input (400): everything but a public page whose query schema takes any
 * parameter (GET /v1/docs ignores utm_source and the like) and which has no path parameters or body.
 */
const refusesInput = (r: RouteDef) =>
  r.scope !== null ||
  r.params !== undefined ||
  r.body !== undefined ||
  r.query === undefined ||
  Object.keys(r.query.shape).length > 0 ||
  !r.query.safeParse({ utm_source: 'x' }).success;

/** Extra response headers declared on every authenticated success response (e.g. rate-limit quota). */
export const successHeaders: Record<string, Json> = { ...RATE_LIMIT_HEADERS };

/** The document's server: where the caller reached it; `x-internal: false`, the API is for outside integrations. */
export const serverObject = (url: string): Json => ({ url, 'x-internal': false });

/** Bound of a text answer (the reference page's script is about 1.1 MB). */
const MAX_TEXT_RESPONSE_CHARS = 4 * 1024 * 1024;

/** One tag per resource, described by its entity declaration; `meta` for the document itself. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  meta: 'This document and its reference page',
  me: 'The calling API key',
  reports: 'Totals of tracked time (scope time-entries:read)',
  ...Object.fromEntries(ENTITIES.map((e) => [e.resource, e.description])),
};

/** The sidebar's groups of resources (x-tagGroups; a tag not named here goes to "More"). */
const TAG_GROUPS: Array<{ name: string; tags: string[] }> = [
  { name: 'Tracking', tags: ['time-entries', 'favorites', 'reports'] },
  { name: 'Catalog', tags: ['clients', 'projects', 'tasks', 'tags'] },
  { name: 'Billing', tags: ['invoices'] },
  { name: 'Integrations', tags: ['changes', 'webhooks'] },
  { name: 'Key and document', tags: ['me', 'meta'] },
];

/** The reference page's introduction (the document's info.description; Redoc renders it first, Markdown). */
function gettingStarted(): string {
  return [
    '# Getting started',
    "Read and change one workspace's clients, projects, tasks, tags, time entries, favorites and invoices over JSON and HTTPS. Every path starts with `/v1/`; the base URL is the server this document names (locally `127.0.0.1:3000`).",
    `**Your key.** Send it in the \`${API_KEY_HEADER}\` header on every request (only this document and its page are public). A key belongs to one workspace and carries scopes (${SCOPES.join(', ')}); \`GET /v1/me\` shows yours.`,
    '**A first call.** `curl -s <base-url>/v1/clients -H "X-API-Key: svc_live_..."` lists the clients; `curl -s <base-url>/v1/clients -H "X-API-Key: svc_live_..." -H "Content-Type: application/json" -d \'{"name":"Acme Corp"}\'` creates one (201, with its URL in `Location`).',
    '**Errors.** Always `{ "error": { "code", "message" } }`, with `details: [{ field, message }]` for a bad request ("startDate must be a date (YYYY-MM-DD)") and the `requestId` on server and gateway errors. A 403 says why in `details`: `RATE_LIMITED` (retry after `retryAfter` seconds) or `MISSING_SCOPE` (retrying will not help). Each operation lists the errors it can give.',
    '**Paging.** Time entries, invoices, the change feed and webhook deliveries come in pages: `limit` (1-200, default 50), then pass `nextCursor` as `cursor` while `hasMore` is true. The other lists are returned whole.',
    '**Rate limits.** Per key, per minute and per hour (60 and 1,000 by default). Every answer carries `RateLimit-Policy` and `RateLimit` (requests left, seconds to the reset); over a limit the answer is 403 `RATE_LIMITED` with `Retry-After`.',
    '**Safe retries.** Send `Idempotency-Key` (e.g. a UUID) on a `POST`, `PUT` or `DELETE`: for 24 hours a repeat gets the first answer (`Idempotent-Replayed: true`) and changes nothing.',
    '**Safe concurrent edits.** Single records carry a strong `ETag`. `If-Match` on a `PUT` or `DELETE` changes the record only if it has not changed since (412 otherwise); `If-None-Match` on a `GET` answers 304 when nothing changed.',
    '**Changes and webhooks.** `GET /v1/changes` lists every create, update and delete in the workspace in order (keep its `nextCursor` to follow it). Webhooks push the same events, signed with the Standard Webhooks headers; deliveries may arrive in any order, and each event carries its `position` in the feed.',
    `**CSV.** \`GET /v1/time-entries.csv\` and \`GET /v1/reports/summary.csv\` answer RFC 4180 CSV (also \`Accept: text/csv\` on the JSON operations). Browsers may call the API from other origins (CORS: \`${CORS.originsVariable}\`, \`*\` by default).`,
  ].join('\n\n');
}

export function buildOpenApi(serverUrl?: string): Json {
  return buildDocument(routeList, operationOf, (paths) => documentOf(paths, serverUrl));
}

/** The operation of a route. */
function operationOf(r: RouteDef & { id: string }): Json {
  const op: Json = {
    operationId: r.id,
    summary: r.summary,
    tags: [r.resource === 'openapi' ? 'meta' : r.resource],
    security: r.scope ? [{ ApiKeyAuth: [] }] : [],
    description: [
      r.description,
      r.scope === ANY_KEY
        ? 'Any valid API key may call it (no scope needed); it is rate-limited like every route.'
        : r.scope
          ? r.alsoScopes?.length
            ? `Required scopes: ${[r.scope, ...r.alsoScopes].map((x) => `\`${x}\``).join(' and ')}.`
            : `Required scope: \`${r.scope}\`.`
          : 'Public: no API key needed.',
      r.noIdempotency ? `${r.noIdempotency}.` : undefined,
    ]
      .filter(Boolean)
      .join(' '),
    ...(r.scope && r.scope !== ANY_KEY ? { 'x-required-scope': r.scope } : {}),
    ...(r.alsoScopes?.length ? { 'x-also-required-scopes': [...r.alsoScopes] } : {}),
  };
  const params = [
    ...parameters(r.params, 'path'),
    ...parameters(r.query, 'query'),
    ...(r.conditional ? [CONDITIONAL_HEADERS[r.conditional]] : []),
    ...(idempotent(r) ? [IDEMPOTENCY_KEY_PARAMETER] : []),
  ];
  if (params.length) op.parameters = params;
  // The CSV form of this JSON operation (also answered here for Accept: text/csv)
  const csvRoute = r.csv ? routeList.find((c) => c.csvOf === r.id) : undefined;
  if (csvRoute) op['x-csv-operation'] = csvRoute.id;
  if (r.body) op.requestBody = { required: !r.bodyOptional, content: { 'application/json': { schema: toSchema(r.body, 'input') } } };
  const responses: Record<string, Json> = {};
  if (!r.notImplemented) {
    // A CSV page carries its next cursor in a header (the CSV route of a paged list)
    const paged = r.csvOf !== undefined && r.operation === 'list';
    const headers = {
      ...(r.scope ? successHeaders : {}),
      ...(r.etag ? { ETag: ETAG_HEADER } : {}),
      ...(r.successStatus === 201 ? { Location: LOCATION_DOC } : {}),
      ...(idempotent(r) ? { [REPLAYED_HEADER]: REPLAYED_HEADER_DOC } : {}),
      ...CORS_HEADERS,
      ...(paged ? { [NEXT_CURSOR_HEADER]: NEXT_CURSOR_DOC } : {}),
    };
    const text = r.produces?.split(';')[0];
    responses[String(r.successStatus)] = {
      description: r.successStatus === 201 ? 'Created' : 'OK',
      ...(Object.keys(headers).length ? { headers } : {}),
      // JSON only, CSV on a route of its own (csvOf): a generated client's call is typed as one or the other
      content: text
        ? {
            [text]: {
              schema: { type: 'string', maxLength: MAX_TEXT_RESPONSE_CHARS, ...(text === 'text/csv' ? { description: 'RFC 4180 CSV with a header row' } : {}) },
              ...(TEXT_EXAMPLES[r.id] !== undefined ? { example: TEXT_EXAMPLES[r.id] } : {}),
            },
          }
        : { 'application/json': { schema: toSchema(r.response, 'output') } },
    };
    if (r.accepted) {
      responses['202'] = {
        description: r.accepted.description,
        headers: { ...successHeaders, ...CORS_HEADERS },
        content: { 'application/json': { schema: toSchema(r.accepted.schema, 'output') } },
      };
    }
    if (r.conditional === 'read') {
      responses['304'] = {
        description: 'Not Modified: If-None-Match names the current ETag (no body; the request counted toward the rate limit)',
        headers: { ...successHeaders, ETag: ETAG_HEADER, ...CORS_HEADERS },
      };
    }
  }
  op.responses = { ...responses, ...errorResponsesFor(r) };
  return op;
}

/** The document around the paths. */
function documentOf(paths: Record<string, Json>, serverUrl: string | undefined): Json {
  const errorRef = toSchema(errorSchema, 'output');
  for (const schema of Object.values(schemas)) schema.example ??= composedExample(schema);
  const tagNames: string[] = [...new Set(routeList.map((r) => (r.resource === 'openapi' ? 'meta' : r.resource)))];
  return {
    openapi: '3.0.3',
    info: {
      title: 'Workspace Time-Tracking API',
      version: '1.0.0',
      description: gettingStarted(),
      contact: { name: 'Workspace Time-Tracking API team' },
    },
    // Redoc's sidebar: the resources grouped (every tag is in one group)
    'x-tagGroups': TAG_GROUPS.map((g) => ({ ...g, tags: g.tags.filter((t) => tagNames.includes(t)) })).concat(
      (() => {
        const rest = tagNames.filter((t) => !TAG_GROUPS.some((g) => g.tags.includes(t)));
        return rest.length ? [{ name: 'More', tags: rest }] : [];
      })(),
    ),
    servers: [serverObject(serverUrl ?? '/')],
    tags: tagNames.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    components: {
      securitySchemes: { ApiKeyAuth: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: 'svc_live_ followed by 40 characters' } },
      schemas: { ...schemas },
      responses: errorComponents(errorRef),
    },
  };
}
