import middy, { type MiddlewareObj, type Request } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { decodeAuthContext, requireScope, type AuthContext } from './auth';
import { ApiError, notImplemented, validationError } from './errors';
import { corsHeaders, corsOrigins, GATEWAY_ANSWERS, headerValue } from './gateway-edge';
import { CSV_FORMATS } from './csv';
import { acceptsCsv, CSV_CONTENT_TYPE, idempotencyKeyOf, NEXT_CURSOR_HEADER } from './headers';
import { ANY_KEY, findRoute, matchPath, routeList, type FunctionName, type InputOf, type RouteDef, type RouteId, type Routes } from './routes';
import { logger } from '../platform/logger';
import { createMetrics, recordOutcome } from '../platform/metrics';
import { enforceRateLimit, quotaOf, type Quota } from './rate-limit';
import { json, toErrorResponse } from './response';
import { assertStorable, parseWith, withoutReadOnly } from './validate';

/** What a route implementation receives: validated input, the caller's auth context, the request id. */
export type RouteRequest<R extends RouteDef> = InputOf<R> & {
  auth: AuthContext;
  requestId: string;
  baseUrl: string;
  headers: APIGatewayProxyEvent['headers'];
  /** The concrete path, the query as sent and the parsed JSON body (what an Idempotency-Key is bound to). */
  path: string;
  rawQuery: APIGatewayProxyEvent['queryStringParameters'];
  rawBody: unknown;
  /** The request's Idempotency-Key (checked by the stack), on an authenticated write that sent one. */
  idempotencyKey?: string;
  /** The calling key's quota left in both windows, this request counted (authenticated routes). */
  quota?: Quota;
  context: Context;
};

/**
 * A route's answer when it is more than a body with the route's success status: extra headers (ETag) or
 * another status (304 Not Modified, which has no body).
 */
export class Reply {
  constructor(
    readonly body: unknown,
    readonly headers: Readonly<Record<string, string>> = {},
    readonly status?: number,
  ) {}
}
export type RouteImpl<R extends RouteDef> = (req: RouteRequest<R>) => Promise<unknown>;
export type RouteImpls = { [K in RouteId]?: RouteImpl<Routes[K]> };

/** Per-request state the middlewares share. */
export interface ApiState {
  route?: RouteDef & { id: RouteId };
  auth?: AuthContext;
  input?: { params: unknown; query: unknown; body: unknown };
  /** The request's Idempotency-Key (checked), on an authenticated write that sent one. */
  idempotencyKey?: string;
  /** The calling key's quota after counting this request. */
  quota?: Quota;
  /** Headers every response of this request carries (request id, CORS, quota headers). */
  headers: Record<string, string>;
}
export type ApiMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>;
const states = new WeakMap<object, ApiState>();
/** The state of a request, kept per event object so the core handler (which sees only the event) can read it. */
export const stateOf = (event: APIGatewayProxyEvent): ApiState => {
  let s = states.get(event);
  if (!s) {
    // CORS headers on every answer of the API's functions, error or not (CORS_ORIGINS, shared/api/gateway-edge.ts).
    const cors = corsHeaders(corsOrigins(), headerValue(event.headers, 'Origin'));
    // Any answer may be gzip-compressed (gateway and local, MIN_COMPRESSION_BYTES): caches must key on Accept-Encoding.
    const vary = [cors.Vary, 'Accept-Encoding'].filter(Boolean).join(', ');
    s = { headers: { 'X-Request-Id': event.requestContext?.requestId ?? 'local', ...cors, Vary: vary } };
    states.set(event, s);
  }
  return s;
};
const state = (request: Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>) => stateOf(request.event);
export const requestIdOf = (request: Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>) =>
  request.event.requestContext?.requestId ?? request.context.awsRequestId;

/**
 * 1. Which route of the table is this, and whose key? API Gateway gives the route template in
 * event.resource and the authorizer's answer (cached by it) in requestContext.authorizer; the
 * context is re-checked for expiry. The request's log keys are appended in ONE call, with whatever
 * this step found out, also when it refuses the request: correlation_id (the API Gateway request id,
 * also X-Request-Id and the requestId of 5xx bodies, so a caller's report leads straight to the logs;
 * what logger.setCorrelationId sets), then route, workspaceId and keyId.
 */
const identify = (fn: FunctionName): ApiMiddleware => ({
  before: (request) => {
    const s = state(request);
    const logKeys: Record<string, string> = { correlation_id: requestIdOf(request) };
    try {
      const { resource, httpMethod, path } = request.event;
      const route = findRoute(resource, httpMethod);
      if (!route || route.resource !== fn) {
        // What the gateway answers for such a request (shared/api/gateway-edge.ts), should one reach a function.
        if (matchPath(path ?? resource)) throw notImplemented(GATEWAY_ANSWERS.METHOD_NOT_OFFERED.message);
        throw new ApiError('NOT_FOUND', GATEWAY_ANSWERS.MISSING_AUTHENTICATION_TOKEN.message);
      }
      s.route = route;
      logKeys.route = route.id;
      if (route.scope === null) return;
      s.auth = decodeAuthContext(request.event.requestContext?.authorizer as Record<string, unknown> | undefined);
      logKeys.workspaceId = s.auth.workspaceId;
      logKeys.keyId = s.auth.keyId;
    } finally {
      logger.appendKeys(logKeys);
    }
  },
});

/**
 * 2. Per-key rate limit, before any other work: one conditional UpdateItem counts the request in
 * both windows; over a limit is 403 + Retry-After. Quota headers go on every response of the request.
 * The public route (no auth) is not limited. See shared/api/rate-limit.ts, shared/data/rate-counter.ts and docs/rate-limits.md.
 */
const rateLimit: ApiMiddleware = {
  before: async (request) => {
    const s = state(request);
    if (s.auth) s.quota = quotaOf(s.auth, await enforceRateLimit(s.auth, s.headers));
  },
};

/** 3. Scope of the route (none for a route any key may call), then any other scope it needs (alsoScopes). */
const authorize: ApiMiddleware = {
  before: (request) => {
    const s = state(request);
    if (s.route?.scope && s.route.scope !== ANY_KEY && s.auth) {
      requireScope(s.auth, s.route.scope);
      for (const scope of s.route.alsoScopes ?? []) requireScope(s.auth, scope);
    }
  },
};

/**
 * Largest body a route accepts. The largest valid body (a time entry with 10,000 characters of notes and
 * 50 tag ids) is about 50 KB even with every character escaped; API Gateway's own cap is 10 MB.
 */
export const MAX_BODY_BYTES = 128 * 1024;

/** 4. JSON body (routes with a body only); a missing body on such a route is a 400. */
// disableContentTypeCheck (runtime option missing from the typings): a JSON API parses every body as JSON.
const jsonBodyParser = httpJsonBodyParser({ disableContentTypeCheck: true } as Parameters<typeof httpJsonBodyParser>[0]) as unknown as ApiMiddleware;
const parseBody: ApiMiddleware = {
  before: (request) => {
    const s = state(request);
    if (!s.route?.body) return;
    const body = request.event.body;
    if ((body === null || body === undefined || body === '') && s.route.bodyOptional) return;
    if (body === null || body === undefined || body === '') throw validationError('A JSON request body is required', [{ field: 'body', message: 'required' }]);
    if (Buffer.byteLength(body, request.event.isBase64Encoded ? 'base64' : 'utf8') > MAX_BODY_BYTES) {
      throw new ApiError('PAYLOAD_TOO_LARGE', `Request body too large (at most ${MAX_BODY_BYTES / 1024} KB)`);
    }
    return jsonBodyParser.before!(request);
  },
};

/** 5. zod validation of path, query and body. */
const validateInput: ApiMiddleware = {
  before: (request) => {
    const s = state(request);
    const route = s.route!;
    if (route.notImplemented) throw notImplemented(route.notImplemented);
    const ev = request.event;
    const params = route.params ? parseWith(route.params, ev.pathParameters ?? {}, 'path') : {};
    const query = route.query ? parseWith(route.query, ev.queryStringParameters ?? {}, 'query') : rejectUnknownQuery(ev.queryStringParameters);
    let body: unknown;
    if (route.body) {
      const sent = ev.body as unknown;
      const raw = (sent === null || sent === undefined || sent === '') && route.bodyOptional ? {} : sent;
      if (!raw || typeof raw !== 'object' || Array.isArray(raw))
        throw validationError('The request body must be a JSON object', [{ field: 'body', message: 'must be a JSON object' }]);
      body = parseWith(route.body, withoutReadOnly(raw), 'body');
    }
    assertStorable(params, 'path');
    assertStorable(query, 'query');
    if (route.body) assertStorable(body, 'body');
    s.input = { params, query, body };
    if (route.scope !== null) {
      const key = idempotencyKeyOf(ev.httpMethod, ev.headers);
      if (key !== undefined) s.idempotencyKey = key;
    }
  },
};

function rejectUnknownQuery(q: Record<string, string | undefined> | null): Record<string, never> {
  const names = Object.keys(q ?? {});
  if (names.length > 0)
    throw validationError(
      `Unknown query parameter(s): ${names.join(', ')}`,
      names.map((field) => ({ field, message: 'unknown query parameter' })),
    );
  return {};
}

/** The public base URL of the API as the caller reached it (scheme, host and stage, without /v1/...). */
export function baseUrlOf(event: APIGatewayProxyEvent): string {
  const host = headerValue(event.headers, 'Host') ?? 'localhost';
  const proto = headerValue(event.headers, 'X-Forwarded-Proto') ?? 'https';
  const fullPath = event.requestContext?.path ?? event.path;
  const prefix = fullPath && event.path && fullPath.endsWith(event.path) ? fullPath.slice(0, fullPath.length - event.path.length) : '';
  return `${proto}://${host}${prefix}`;
}

/**
 * The URL of what a 201 created: the get route of the created record's entity (a time entry for a timer
 * started from a favorite), its id in the path and the query that addresses it (sortKey, userId) from the record.
 */
export function locationOf(route: RouteDef, body: unknown, baseUrl: string): string | undefined {
  const entity = route.creates ?? route.entity;
  const created = routeList.find((r) => r.entity === entity && r.operation === 'get');
  const record = body as Record<string, unknown> | undefined;
  if (!created || typeof record?.id !== 'string') return undefined;
  const query = new URLSearchParams();
  for (const name of Object.keys(created.query?.shape ?? {})) if (typeof record[name] === 'string') query.set(name, record[name]);
  const q = query.toString();
  return `${baseUrl}${created.path.replace('{id}', encodeURIComponent(record.id))}${q ? `?${q}` : ''}`;
}

/** Last: one error handler for everything thrown above or in the route implementation. */
const handleErrors = (metrics: ReturnType<typeof createMetrics>): ApiMiddleware => ({
  onError: async (request) => {
    const s = state(request);
    const err = request.error;
    const { response, unexpected } = toErrorResponse(err, requestIdOf(request));
    if (unexpected) logger.error('Request failed unexpectedly', err as Error);
    else logger.info('Request rejected', { status: response.statusCode });
    const rateLimited = err instanceof ApiError && err.reason?.reason === 'RATE_LIMITED';
    recordOutcome(metrics, { status: response.statusCode, rateLimited });
    request.response = { ...response, headers: { ...s.headers, ...response.headers } };
  },
});

/**
 * The one middleware stack of every Lambda of the API. `impls` maps route ids of this function to their
 * implementation: entity routes get theirs from `entityHandler` (shared/api/crud.ts), the OpenAPI
 * document binds its own. Every route of the function must have one (checked when the handler is built),
 * but the routes declared `notImplemented`, which the stack answers 501 before any implementation.
 */
export function resourceHandler(fn: FunctionName, impls: RouteImpls = {}) {
  const unbound = routeList.filter((r) => r.resource === fn && !r.notImplemented && !impls[r.id]).map((r) => r.id);
  if (unbound.length) throw new Error(`${fn}: no implementation for ${unbound.join(', ')}`);
  const metrics = createMetrics(fn);
  const core = async (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
    const s = stateOf(event);
    const route = s.route!;
    const impl = impls[route.id] as RouteImpl<RouteDef>; // every route of fn has one (checked above)
    const input = s.input!;
    const result = await impl({
      params: input.params,
      query: input.query,
      body: input.body,
      auth: s.auth!,
      requestId: event.requestContext?.requestId ?? context.awsRequestId,
      baseUrl: baseUrlOf(event),
      headers: event.headers,
      path: event.path,
      rawQuery: event.queryStringParameters,
      rawBody: event.body ?? undefined,
      ...(s.idempotencyKey ? { idempotencyKey: s.idempotencyKey } : {}),
      ...(s.quota ? { quota: s.quota } : {}),
      context,
    } as RouteRequest<RouteDef>);
    const reply = result instanceof Reply ? result : new Reply(result);
    const status = reply.status ?? route.successStatus;
    const location = status === 201 ? locationOf(route, reply.body, baseUrlOf(event)) : undefined;
    const headers = { ...s.headers, ...(location ? { Location: location } : {}), ...reply.headers };
    logger.info('Request served', { status });
    recordOutcome(metrics, { status });
    if (status === 304) return { statusCode: 304, headers, body: '' };
    // CSV: a route of its own (GET /v1/time-entries.csv), or Accept: text/csv on the JSON route
    const csv = route.csvOf ? CSV_FORMATS[route.csvOf as RouteId] : route.csv && acceptsCsv(event.headers) ? CSV_FORMATS[route.id] : undefined;
    if (csv) {
      // The same answer as CSV; a page's next cursor moves to a header.
      const cursor = (reply.body as { nextCursor?: unknown } | undefined)?.nextCursor;
      return {
        statusCode: status,
        headers: { ...headers, 'Content-Type': CSV_CONTENT_TYPE, ...(typeof cursor === 'string' ? { [NEXT_CURSOR_HEADER]: cursor } : {}) },
        body: csv(reply.body as never),
      };
    }
    if (route.produces) return { statusCode: status, headers: { 'Content-Type': route.produces, ...headers }, body: String(reply.body) };
    return json(status, reply.body, headers);
  };
  return (
    middy(core)
      // logEvent: false whatever POWERTOOLS_LOGGER_LOG_EVENT says: the event carries the X-API-Key header.
      .use(injectLambdaContext(logger, { resetKeys: true, logEvent: false }))
      .use(identify(fn))
      .use(rateLimit)
      .use(authorize)
      .use(parseBody)
      .use(validateInput)
      .use(handleErrors(metrics))
  );
}
