import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { invalidField } from '../domain/errors';
import { decodeAuthContext, requireScope, type AuthContext } from './auth';
import { ApiError, notImplemented } from './errors';
import { corsHeaders, corsOrigins, headerValue, METHOD_NOT_OFFERED_MESSAGE, ROUTE_NOT_FOUND_MESSAGE } from './gateway-edge';
import { acceptsCsv, CSV_CONTENT_TYPE, idempotencyKeyOf, NEXT_CURSOR_HEADER, REPLAYED_HEADER } from './headers';
import { isReplayed, recordAnswer, runIdempotent } from './idempotency';
import { Reply } from './kernel/route';
import { baseUrlOf, buildStack, MAX_BODY_BYTES, type CallerKind } from './kernel/stack';
import { enforceRateLimit, quotaOf, type Quota } from './rate-limit';
import { withoutReadOnly } from './validate';
import { pathMatcherOf, routeListOf, type RouteDef, type TableRoute } from './routes/define';
import type { InputOf, RouteId, Routes } from './routes';

export { baseUrlOf, MAX_BODY_BYTES, Reply };

/**
 * The API's caller kind: an API key (the authorizer's context in the event), for the one stack of
 * shared/api/kernel/stack.ts. In order: the route of the table (API Gateway's resource template; a route of
 * another function is the gateway's own 404/501), the key's context (re-checked for expiry), its per-key
 * rate limit (one conditional UpdateItem in shared/data/rate-counter.ts; the quota left goes to the route),
 * the route's scopes (`access.scopes`, none for any key), the JSON body and validation (read-only fields
 * dropped, every value storable), the Idempotency-Key (shared/api/idempotency.ts) on writes, the
 * implementation; a 201 carries Location, and `Accept: text/csv` the CSV form.
 */

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
export type RouteImpl<R extends RouteDef> = (req: RouteRequest<R>) => Promise<unknown>;
export type RouteImpls = { [K in RouteId]?: RouteImpl<Routes[K]> };

/** The calling key and, once counted, its quota. */
interface KeyCaller {
  auth: AuthContext;
  quota?: Quota;
}

/**
 * The URL of what a 201 created: the get route of the created record's entity (a time entry for a timer
 * started from a favorite), its id in the path and the query that addresses it (sortKey, userId) from the record.
 */
export function locationOf(route: RouteDef, body: unknown, baseUrl: string, own: readonly RouteDef[]): string | undefined {
  const entity = route.creates ?? route.entity;
  const created = own.find((r) => r.entity === entity && r.operation === 'get');
  const fields = new Map<string, unknown>(body && typeof body === 'object' ? Object.entries(body) : []);
  const id = fields.get('id');
  if (!created || typeof id !== 'string') return undefined;
  const query = new URLSearchParams();
  for (const name of Object.keys(created.query?.shape ?? {})) {
    const value = fields.get(name);
    if (typeof value === 'string') query.set(name, value);
  }
  const q = query.toString();
  return `${baseUrl}${created.path.replace('{id}', encodeURIComponent(id))}${q ? `?${q}` : ''}`;
}

/** The conditional headers a request sent (part of what an Idempotency-Key's repeat must match). */
function conditionsOf(headers: APIGatewayProxyEvent['headers'] | undefined): { ifMatch?: string; ifNoneMatch?: string } {
  const ifMatch = headerValue(headers, 'If-Match');
  const ifNoneMatch = headerValue(headers, 'If-None-Match');
  return { ...(ifMatch !== undefined ? { ifMatch } : {}), ...(ifNoneMatch !== undefined ? { ifNoneMatch } : {}) };
}

/**
 * The API-key caller of one function, which knows only its own routes (shared/api/routes/<function>.ts):
 * its bundle carries no other function's schemas or handlers.
 */
export const apiKeyCallerOf = (own: readonly TableRoute[], { csv: csvFormats = {} }: HandlerOptions = {}): CallerKind<TableRoute, KeyCaller, RouteRequest<RouteDef>> => {
  const matchOwnPath = pathMatcherOf(own);
  return {
    routesOf: (fn) => own.filter((r) => r.resource === fn),
    route: (event, fn) => {
      const { resource, httpMethod, path } = event;
      const route = own.find((r) => r.path === resource && r.method === httpMethod);
      if (route && route.resource === fn) return route;
      // What the gateway answers for such a request (shared/api/gateway-edge.ts), should one reach a function:
      // another method on a path of this function is 501, any other path 404.
      if (matchOwnPath(path ?? resource)) throw notImplemented(METHOD_NOT_OFFERED_MESSAGE);
      throw new ApiError('NOT_FOUND', ROUTE_NOT_FOUND_MESSAGE);
    },
    headers: (event) => {
      // CORS headers on every answer of the API's functions, error or not (CORS_ORIGINS, shared/api/gateway-edge.ts).
      const cors = corsHeaders(corsOrigins(), headerValue(event.headers, 'Origin'));
      // Any answer may be gzip-compressed (gateway and local, MIN_COMPRESSION_BYTES): caches must key on Accept-Encoding.
      const vary = [cors.Vary, 'Accept-Encoding'].filter(Boolean).join(', ');
      return { 'X-Request-Id': event.requestContext?.requestId ?? 'local', ...cors, Vary: vary };
    },
    identify: (event, _route, _headers, logKeys) => {
      const auth = decodeAuthContext(event.requestContext?.authorizer);
      logKeys.workspaceId = auth.workspaceId;
      logKeys.keyId = auth.keyId;
      return { auth };
    },
    // docs/rate-limits.md: both windows counted in one UpdateItem; over a limit is 403 + Retry-After.
    rateLimit: async (caller, headers) => ({ ...caller, quota: quotaOf(caller.auth, await enforceRateLimit(caller.auth, headers)) }),
    authorize: (caller, route) => {
      for (const scope of route.access?.scopes ?? []) requireScope(caller.auth, scope);
      return caller;
    },
    input: {
      decodePath: false,
      // a record's read-only fields (id, createdAt, etag, computed values) sent back are ignored
      prepareBody: (raw) => withoutReadOnly(raw),
      storable: true,
    },
    idempotencyKeyOf: (event) => idempotencyKeyOf(event.httpMethod, event.headers),
    // With an Idempotency-Key, the implementation runs once per key (shared/api/idempotency.ts); repeats get the kept answer.
    idempotent: async (route, req, key, run) => {
      if (route.noIdempotency) throw invalidField('Idempotency-Key', route.noIdempotency);
      const answer = await runIdempotent(
        { workspaceId: req.auth.workspaceId, key, method: route.method, path: req.path, query: req.rawQuery, body: req.rawBody, ...conditionsOf(req.headers) },
        // the answer is kept in the record write's own transaction: the record (or the delete's result) at the route's status
        recordAnswer(route.successStatus),
        async () => {
          const result = await run();
          const reply = result instanceof Reply ? result : new Reply(result);
          return { status: reply.status ?? route.successStatus, body: reply.body, headers: { ...reply.headers } };
        },
      );
      return new Reply(answer.body, { ...answer.headers, ...(isReplayed(answer) ? { [REPLAYED_HEADER]: 'true' } : {}) }, answer.status);
    },
    request: (base, s, event, context) =>
      ({
        ...base,
        auth: s.caller?.auth as AuthContext, // absent on the public routes, which do not read it
        headers: event.headers,
        path: event.path,
        rawQuery: event.queryStringParameters,
        rawBody: s.route!.body ? s.body : (event.body ?? undefined),
        ...(s.idempotencyKey ? { idempotencyKey: s.idempotencyKey } : {}),
        ...(s.caller?.quota ? { quota: s.caller.quota } : {}),
        context,
      }) as RouteRequest<RouteDef>,
    successHeaders: (route, reply, status, event): Record<string, string> => {
      const location = status === 201 ? locationOf(route, reply.body, baseUrlOf(event), own) : undefined;
      return location ? { Location: location } : {};
    },
    // CSV: a route of its own (GET /v1/time-entries.csv), or Accept: text/csv on the JSON route; a page's next cursor moves to a header.
    represent: (route, reply, status, headers, event) => {
      const csv = route.csvOf ? csvFormats[route.csvOf as RouteId] : route.csv && acceptsCsv(event.headers) ? csvFormats[route.id as RouteId] : undefined;
      if (!csv) return undefined;
      const cursor = (reply.body as { nextCursor?: unknown } | undefined)?.nextCursor;
      return {
        statusCode: status,
        headers: { ...headers, 'Content-Type': CSV_CONTENT_TYPE, ...(typeof cursor === 'string' ? { [NEXT_CURSOR_HEADER]: cursor } : {}) },
        body: csv(reply.body as never),
      };
    },
  };
};

/** What a function's stack needs beyond its routes: the CSV forms of its routes that offer CSV (shared/api/csv.ts CSV_FORMATS). */
export interface HandlerOptions {
  csv?: CsvFormats;
}
export type CsvFormats = Partial<Record<RouteId, (body: never) => string>>;

/** A function's routes, by id: the group its module declares (shared/api/routes/<function>.ts). */
export type RouteGroup = Readonly<Record<string, RouteDef>>;
/** The implementations of a group's routes, each typed from its route. */
export type GroupImpls<G extends RouteGroup> = { [K in keyof G]?: RouteImpl<G[K]> };

/**
 * The handler of a Lambda of the API: the one stack (shared/api/kernel/stack.ts) for the API-key caller,
 * over the function's own routes (`group`: its module's, shared/api/routes/<function>.ts), with the CSV
 * forms of those that offer CSV (`options.csv`: only the functions that serve CSV bundle shared/api/csv.ts). `impls` maps its
 * route ids to their implementation: entity routes get theirs from `entityHandler` (shared/api/crud.ts), the
 * OpenAPI document binds its own.
 */
export function resourceHandler<G extends RouteGroup>(group: G, impls: GroupImpls<G> = {}, options: HandlerOptions = {}) {
  const own = routeListOf(group);
  const fn = own[0]?.resource;
  if (!fn || own.some((r) => r.resource !== fn)) throw new Error(`a function's routes all name one function: ${own.map((r) => r.resource).join(', ')}`);
  const noCsv = own.filter((r) => (r.csv || r.csvOf) && !options.csv?.[(r.csvOf ?? r.id) as RouteId]).map((r) => r.id);
  if (noCsv.length) throw new Error(`${fn}: no CSV form given for ${noCsv.join(', ')}`);
  return buildStack(apiKeyCallerOf(own, options), fn, impls as Record<string, RouteImpl<RouteDef> | undefined>);
}
