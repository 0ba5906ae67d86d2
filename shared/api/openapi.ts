import * as z from 'zod';
import { ERROR_STATUS, type ErrorCode } from './errors';
import { errorSchema } from './schemas';
import { routeList, SCOPES, type RouteDef } from './routes';

/**
 * The OpenAPI 3.0 document, generated from the route table and its zod schemas. Nothing here is
 * written by hand per route: a new route appears in the document as soon as it is in the table.
 */
type Json = Record<string, unknown>;
const schemas: Record<string, Json> = {};

function toSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as Json;
  const defs = (out.definitions ?? {}) as Record<string, Json>;
  delete out.definitions;
  delete out.$schema;
  for (const [id, def] of Object.entries(defs)) schemas[id] ??= rewriteRefs(def) as Json;
  const id = z.globalRegistry.get(schema)?.id;
  if (id) {
    schemas[id] ??= rewriteRefs(out) as Json;
    return { $ref: `#/components/schemas/${id}` };
  }
  return rewriteRefs(out) as Json;
}

function rewriteRefs(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(rewriteRefs);
  if (v && typeof v === 'object') {
    const o: Json = {};
    for (const [k, val] of Object.entries(v as Json)) {
      o[k] = k === '$ref' && typeof val === 'string' ? val.replace('#/definitions/', '#/components/schemas/') : rewriteRefs(val);
    }
    return o;
  }
  return v;
}

const ERROR_RESPONSES: Record<string, { code: ErrorCode; description: string; message: string }> = {
  BadRequest: { code: 'VALIDATION_ERROR', description: 'The request is invalid (path, query or body); nothing was changed', message: 'Invalid request body: name: must not be empty' },
  Unauthorized: { code: 'UNAUTHORIZED', description: 'Missing, malformed, unknown, expired or revoked API key', message: 'Missing or invalid API key' },
  Forbidden: { code: 'FORBIDDEN', description: 'The key lacks the scope of this route, or a rate limit (per minute or per hour) was exceeded: then the message names the limit ("Rate limit exceeded: 60 requests per minute") and Retry-After says when its window resets', message: 'This API key lacks the required scope: clients:write' },
  NotFound: { code: 'NOT_FOUND', description: 'The resource does not exist in the key\'s workspace', message: 'Client not found' },
  Conflict: { code: 'CONFLICT', description: 'A unique name is taken, the record is still referenced, or its state forbids the change', message: 'A client named "Acme" already exists in this workspace' },
  PayloadTooLarge: { code: 'PAYLOAD_TOO_LARGE', description: 'The request body is larger than the API accepts', message: 'Request body too large' },
  Throttled: { code: 'THROTTLED', description: 'The API as a whole is receiving too many requests; retry with backoff', message: 'Too many requests' },
  NotImplemented: { code: 'NOT_IMPLEMENTED', description: 'The operation is not offered by this API', message: 'This operation is not implemented' },
  InternalError: { code: 'INTERNAL_ERROR', description: 'Unexpected failure; the body carries only a request id for support', message: 'An unexpected error occurred' },
  ServiceUnavailable: { code: 'SERVICE_UNAVAILABLE', description: 'The data store is throttling or unreachable; retry after the Retry-After seconds', message: 'The service is busy; retry after a short wait' },
};

/**
 * The error statuses a route can answer, following the middleware order of shared/http/handler.ts:
 * authorizer (401/403/429) → rate limit (403, or 503 when its counter fails: fail closed) → scope (403) →
 * body size (413) → validation of path, query and body (400; also on the public route, which refuses
 * unknown query parameters) → 501 for declared-but-not-offered routes → the route (404/409) → 500.
 */
function errorResponsesFor(r: RouteDef): Record<string, Json> {
  const names: string[] = [];
  if (r.scope !== null) names.push('Unauthorized', 'Forbidden', 'Throttled');
  if (r.notImplemented) names.push('NotImplemented');
  else {
    names.push('BadRequest');
    if (r.params) names.push('NotFound');
    if (r.conflict) names.push('Conflict');
    if (r.body) names.push('PayloadTooLarge');
  }
  names.push('InternalError');
  if (r.scope !== null) names.push('ServiceUnavailable');
  return Object.fromEntries(names.map((n) => [String(ERROR_STATUS[ERROR_RESPONSES[n]!.code]), { $ref: `#/components/responses/${n}` }]));
}

function parameters(schema: z.ZodObject | undefined, where: 'path' | 'query'): Json[] {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, prop]) => {
    const p = prop as z.ZodType;
    const s = toSchema(p, 'input');
    const description = (s.description as string | undefined) ?? z.globalRegistry.get(p)?.description;
    delete s.description;
    if (s.type === 'integer') delete s.pattern; // the digits pattern of a query-string integer (limitParam)
    return { name, in: where, required: where === 'path' || !p.safeParse(undefined).success, schema: s, ...(description ? { description } : {}) };
  });
}

/**
 * Rate-limit headers (draft-ietf-httpapi-ratelimit-headers-10; docs/rate-limits.md). Every response
 * of an authenticated request that reached the API's handlers carries them.
 */
const RATE_LIMIT_HEADERS: Record<string, Json> = {
  'RateLimit-Policy': {
    description: 'The key\'s quota policies: "minute" (q requests per w=60 seconds) and "hour" (q requests per w=3600 seconds). Windows are clock minutes and hours.',
    schema: { type: 'string', example: '"minute";q=60;w=60, "hour";q=1000;w=3600' },
  },
  RateLimit: {
    description: 'Remaining quota of each policy: r = requests left in the current window after this one, t = seconds until that window resets.',
    schema: { type: 'string', example: '"minute";r=57;t=23, "hour";r=994;t=1823' },
  },
};
const RETRY_AFTER: Json = {
  description: 'Seconds to wait before retrying: until the exceeded rate-limit window resets (1..60 for the minute, up to 3600 for the hour), or 1 when the service is busy.',
  schema: { type: 'integer', minimum: 1, example: 37 },
};

/** Extra response headers declared on every authenticated success response (e.g. rate-limit quota). */
export const successHeaders: Record<string, Json> = { ...RATE_LIMIT_HEADERS };
/** Headers declared on shared error responses: the rate-limit 403 carries Retry-After and the quota. */
const ERROR_HEADERS: Record<string, Record<string, Json>> = {
  Forbidden: { 'Retry-After': RETRY_AFTER, ...RATE_LIMIT_HEADERS },
  ServiceUnavailable: { 'Retry-After': RETRY_AFTER },
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  meta: 'This document',
  clients: 'The customers work is done for',
  projects: 'Projects, optionally of a client',
  tasks: 'Tasks of a project',
  tags: 'Labels for time entries and favorites',
  'time-entries': 'Tracked time of a user; addressed by id and sortKey, listed newest first with cursor paging',
  favorites: 'A user\'s saved time-entry templates; addressed by id and userId',
  invoices: 'Invoices created in the application: read and delete (draft or void) only',
};

export function buildOpenApi(serverUrl?: string): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const r of routeList) {
    const op: Json = {
      operationId: r.id,
      summary: r.summary,
      tags: [r.resource === 'openapi' ? 'meta' : r.resource],
      security: r.scope ? [{ ApiKeyAuth: [] }] : [],
      ...(r.scope ? { description: `Required scope: \`${r.scope}\`.`, 'x-required-scope': r.scope } : {}),
    };
    const params = [...parameters(r.params, 'path'), ...parameters(r.query, 'query')];
    if (params.length) op.parameters = params;
    if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: toSchema(r.body, 'input') } } };
    const responses: Record<string, Json> = {};
    if (!r.notImplemented) {
      responses[String(r.successStatus)] = {
        description: r.successStatus === 201 ? 'Created' : 'OK',
        ...(r.scope && Object.keys(successHeaders).length ? { headers: successHeaders } : {}),
        content: { 'application/json': { schema: toSchema(r.response, 'output') } },
      };
    }
    op.responses = { ...responses, ...errorResponsesFor(r) };
    (paths[r.path] ??= {})[r.method.toLowerCase()] = op;
  }
  const errorRef = toSchema(errorSchema, 'output');
  return {
    openapi: '3.0.3',
    info: {
      title: 'Workspace Time-Tracking API',
      version: '1.0.0',
      description:
        'Read and change one workspace\'s clients, projects, tasks, tags, time entries, favorites and invoices. ' +
        'Authenticate with the `X-API-Key` header. Errors always have the body `{ "error": { "code", "message" } }`. ' +
        `Scopes: ${SCOPES.join(', ')}.`,
    },
    servers: [{ url: serverUrl ?? '/' }],
    tags: [...new Set(routeList.map((r) => (r.resource === 'openapi' ? 'meta' : r.resource)))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    components: {
      securitySchemes: { ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'svc_live_ followed by 40 characters' } },
      schemas: { ...schemas },
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([name, e]) => [
          name,
          {
            description: e.description,
            ...(ERROR_HEADERS[name] ? { headers: ERROR_HEADERS[name] } : {}),
            content: { 'application/json': { schema: errorRef, example: { error: { code: e.code, message: e.message } } } },
          },
        ]),
      ),
    },
  };
}
