import { z } from 'zod';
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
  Forbidden: { code: 'FORBIDDEN', description: 'The key lacks the scope of this route, or a rate limit (per minute or per hour) was exceeded', message: 'This API key lacks the required scope: clients:write' },
  NotFound: { code: 'NOT_FOUND', description: 'The resource does not exist in the key\'s workspace', message: 'Client not found' },
  Conflict: { code: 'CONFLICT', description: 'A unique name is taken, the record is still referenced, or its state forbids the change', message: 'A client named "Acme" already exists in this workspace' },
  PayloadTooLarge: { code: 'PAYLOAD_TOO_LARGE', description: 'The request body is larger than the API accepts', message: 'Request body too large' },
  Throttled: { code: 'THROTTLED', description: 'The API as a whole is receiving too many requests; retry with backoff', message: 'Too many requests' },
  NotImplemented: { code: 'NOT_IMPLEMENTED', description: 'The operation is not offered by this API', message: 'This operation is not implemented' },
  InternalError: { code: 'INTERNAL_ERROR', description: 'Unexpected failure; the body carries only a request id for support', message: 'An unexpected error occurred' },
  ServiceUnavailable: { code: 'SERVICE_UNAVAILABLE', description: 'The data store is throttling or unreachable; retry after the Retry-After seconds', message: 'The service is busy; retry after a short wait' },
};

function errorResponsesFor(r: RouteDef): Record<string, Json> {
  const names: string[] = [];
  if (r.scope !== null) names.push('Unauthorized', 'Forbidden', 'Throttled');
  if (r.notImplemented) names.push('NotImplemented');
  else {
    if (r.scope !== null) names.push('BadRequest');
    if (r.params) names.push('NotFound');
    if (r.conflict) names.push('Conflict');
    if (r.body) names.push('PayloadTooLarge');
    names.push('InternalError');
    if (r.scope !== null) names.push('ServiceUnavailable');
  }
  return Object.fromEntries(names.map((n) => [String(ERROR_STATUS[ERROR_RESPONSES[n]!.code]), { $ref: `#/components/responses/${n}` }]));
}

function parameters(schema: z.ZodObject | undefined, where: 'path' | 'query'): Json[] {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, prop]) => {
    const p = prop as z.ZodType;
    const s = toSchema(p, 'input');
    const description = (s.description as string | undefined) ?? z.globalRegistry.get(p)?.description;
    delete s.description;
    return { name, in: where, required: where === 'path' || !p.safeParse(undefined).success, schema: s, ...(description ? { description } : {}) };
  });
}

/** Extra response headers declared on every authenticated success response (e.g. rate-limit quota). */
export const successHeaders: Record<string, Json> = {};

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
    tags: [...new Set(routeList.map((r) => (r.resource === 'openapi' ? 'meta' : r.resource)))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'svc_live_ followed by 40 characters' } },
      schemas: { ...schemas },
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([name, e]) => [
          name,
          { description: e.description, content: { 'application/json': { schema: errorRef, example: { error: { code: e.code, message: e.message } } } } },
        ]),
      ),
    },
  };
}
