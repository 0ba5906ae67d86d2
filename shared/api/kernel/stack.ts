import middy, { type MiddlewareObj, type Request } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { logger } from '../../platform/logger';
import { createMetrics, recordOutcome } from '../../platform/metrics';
import { ApiError, notImplemented, validationError } from '../errors';
import { headerValue } from '../gateway-edge';
import { json, toErrorResponse } from '../response';
import { assertStorable, parseWith } from '../validate';
import { BinaryReply, Reply, type KernelRoute } from './route';

/**
 * THE middleware stack of every HTTP function, the API's (an API key calls: shared/api/handler.ts) and the
 * console's (a signed-in person calls: shared/console/handler.ts). One order for every request:
 *
 *   logging (Powertools, the event never logged) → route + caller (identify) → rate limit → authorize →
 *   parse (the JSON body, 128 KB) → validate (501 for a route declared but not offered, then zod on path,
 *   query and body) → idempotency (Idempotency-Key, where the caller kind offers it) → the implementation →
 *   the answer (JSON, text, binary, another representation), one error handler (the error model of
 *   shared/api/response.ts) and the outcome metrics.
 *
 * What differs between callers (where the credential is read, what is counted, what "authorized" means, the
 * request an implementation receives) is the `CallerKind` the stack is built with; a route's `access`
 * (shared/api/kernel/route.ts) says which caller it admits. A public route (`access: null`) skips identify,
 * rate limit and authorize.
 */

/**
 * Largest body a route accepts. The largest valid body (a time entry with 10,000 characters of notes and
 * 50 tag ids) is about 50 KB even with every character escaped; API Gateway's own cap is 10 MB.
 */
export const MAX_BODY_BYTES = 128 * 1024;

/** Per-request state the steps share, kept per event object. */
export interface StackState<R extends KernelRoute, C> {
  route?: R;
  /** Who calls (an API key's context and quota, a person and their membership); undefined on a public route. */
  caller?: C;
  /** The JSON body as parsed (what an Idempotency-Key is bound to); undefined when none was sent. */
  body?: unknown;
  input?: { params: unknown; query: unknown; body: unknown };
  /** The request's Idempotency-Key (checked), where the caller kind reads one. */
  idempotencyKey?: string;
  /** Headers every response of this request carries (request id, CORS, quota headers, no-store). */
  headers: Record<string, string>;
}

/** What a route implementation gets from every caller kind: its validated input, the request id, the base URL. */
export interface BaseRequest {
  params: unknown;
  query: unknown;
  body: unknown;
  requestId: string;
  baseUrl: string;
}
export type Impl<Req> = (req: Req) => Promise<unknown>;

/** What the stack needs to know of a caller kind. */
export interface CallerKind<R extends KernelRoute, C, Req extends BaseRequest> {
  /** The routes function `fn` serves (every one must have an implementation, but those not offered). */
  routesOf(fn: string): readonly R[];
  /** The route an event is for, among those of function `fn`; else throws what the gateway would answer. */
  route(event: APIGatewayProxyEvent, fn: string): R;
  /** Headers every answer of the request carries. */
  headers(event: APIGatewayProxyEvent, requestId: string): Record<string, string>;
  /** The caller, from the authorizer's context (a route that is not public); may add log keys and headers. */
  identify(event: APIGatewayProxyEvent, route: R, headers: Record<string, string>, logKeys: Record<string, string>): C;
  /** Counts the request against the caller's limits (403 RATE_LIMITED beyond; the quota headers). */
  rateLimit(caller: C, headers: Record<string, string>): Promise<C>;
  /** Refuses a caller the route's access does not admit (scopes; membership and role). */
  authorize(caller: C, route: R, event: APIGatewayProxyEvent): C | Promise<C>;
  /**
   * How input is taken: path parameters percent-decoded (the console: an e-mail in the path) or as sent
   * (the API, as API Gateway passes them); a body's read-only fields dropped and every value checked
   * storable (the API's records).
   */
  input: { decodePath: boolean; prepareBody?: (raw: object) => unknown; storable?: boolean };
  /** The request's Idempotency-Key, where this kind reads one (checked: 400 when malformed). */
  idempotencyKeyOf?(event: APIGatewayProxyEvent, route: R): string | undefined;
  /** Runs an implementation under the request's Idempotency-Key (the kept answer for a repeat). */
  idempotent?(route: R, req: Req, key: string, run: () => Promise<unknown>): Promise<unknown>;
  /** The request an implementation receives. */
  request(base: BaseRequest, state: StackState<R, C>, event: APIGatewayProxyEvent, context: Context): Req;
  /** Headers a success answer adds (Location of a 201). */
  successHeaders?(route: R, reply: Reply, status: number, event: APIGatewayProxyEvent): Record<string, string>;
  /** Another representation of the answer than the route's JSON or text (CSV), when the request asks for it. */
  represent?(route: R, reply: Reply, status: number, headers: Record<string, string>, event: APIGatewayProxyEvent): APIGatewayProxyResult | undefined;
}

type Middleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>;
type Req = Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>;
export const requestIdOf = (request: Req) => request.event.requestContext?.requestId ?? request.context.awsRequestId;

/** The public base URL of the API as the caller reached it (scheme, host and stage, without /v1/...). */
export function baseUrlOf(event: APIGatewayProxyEvent): string {
  const host = headerValue(event.headers, 'Host') ?? 'localhost';
  const proto = headerValue(event.headers, 'X-Forwarded-Proto') ?? 'https';
  const fullPath = event.requestContext?.path ?? event.path;
  const prefix = fullPath && event.path && fullPath.endsWith(event.path) ? fullPath.slice(0, fullPath.length - event.path.length) : '';
  return `${proto}://${host}${prefix}`;
}

/** Path parameters percent-decoded (a malformed escape stays as sent, and fails validation). */
function decodedParams(raw: Record<string, string | undefined> | null | undefined): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(raw ?? {}).map(([k, v]) => {
      try {
        return [k, v === undefined ? v : decodeURIComponent(v)];
      } catch {
        return [k, v];
      }
    }),
  );
}

function rejectUnknownQuery(q: Record<string, string | undefined> | null): Record<string, never> {
  const names = Object.keys(q ?? {});
  if (names.length > 0)
    throw validationError(
      `Unknown query parameter(s): ${names.join(', ')}`,
      names.map((field) => ({ field, message: 'unknown query parameter' })),
    );
  return {};
}

const isEmpty = (body: string | null | undefined): body is '' | null | undefined => body === null || body === undefined || body === '';

/**
 * The JSON body parser of every stack: middy's (`@middy/http-json-body-parser`; it decodes a base64 body and
 * parses it into `event.body`). disableContentTypeCheck (a runtime option missing from the typings): a JSON
 * API parses every body as JSON, whatever Content-Type says.
 */
const jsonBodyParser = httpJsonBodyParser<APIGatewayProxyEvent>({ disableContentTypeCheck: true } as Parameters<typeof httpJsonBodyParser>[0]);

/** The JSON body of a route that takes one (undefined when it may be left out and was); a missing one is a 400. */
async function parseJsonBody(route: KernelRoute, request: Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>): Promise<unknown> {
  const sent = request.event.body;
  if (isEmpty(sent)) {
    if (route.bodyOptional) return undefined;
    throw validationError('A JSON request body is required', [{ field: 'body', message: 'required' }]);
  }
  if (Buffer.byteLength(sent, request.event.isBase64Encoded ? 'base64' : 'utf8') > MAX_BODY_BYTES) {
    throw new ApiError('PAYLOAD_TOO_LARGE', `Request body too large (at most ${MAX_BODY_BYTES / 1024} KB)`);
  }
  try {
    await jsonBodyParser.before!(request);
  } catch {
    throw validationError('Request body must be valid JSON', [{ field: 'body', message: 'malformed JSON' }]);
  }
  return request.event.body as unknown;
}

/**
 * Builds the stack of function `fn` for a caller kind, with the implementations of its routes (checked when
 * the handler is built: every route of `fn` must have one, but those declared `notImplemented`, which the
 * stack answers 501 before any implementation).
 */
export function buildStack<R extends KernelRoute, C, Rq extends BaseRequest>(kind: CallerKind<R, C, Rq>, fn: string, impls: Readonly<Record<string, Impl<Rq> | undefined>>) {
  const unbound = kind
    .routesOf(fn)
    .filter((r) => !r.notImplemented && !impls[r.id])
    .map((r) => r.id);
  if (unbound.length) throw new Error(`${fn}: no implementation for ${unbound.join(', ')}`);
  const metrics = createMetrics(fn);
  const states = new WeakMap<object, StackState<R, C>>();
  const stateOf = (request: Req): StackState<R, C> => {
    let s = states.get(request.event);
    if (!s) {
      s = { headers: kind.headers(request.event, requestIdOf(request)) };
      states.set(request.event, s);
    }
    return s;
  };

  /**
   * 1. Which route of the table is this, and who calls? API Gateway gives the route template in
   * event.resource and the authorizer's answer (cached by it) in requestContext.authorizer. The request's
   * log keys are appended in ONE call, with whatever this step found out, also when it refuses the request:
   * correlation_id (the API Gateway request id, also X-Request-Id and the requestId of 5xx bodies), then the
   * route and the caller's keys.
   */
  const identify: Middleware = {
    before: (request) => {
      const s = stateOf(request);
      const logKeys: Record<string, string> = { correlation_id: requestIdOf(request) };
      try {
        const route = kind.route(request.event, fn);
        s.route = route;
        logKeys.route = route.id;
        if (route.access !== null) s.caller = kind.identify(request.event, route, s.headers, logKeys);
      } finally {
        logger.appendKeys(logKeys);
      }
    },
  };
  /** 2. The caller's rate limit, before any other work (public routes are not limited). */
  const rateLimit: Middleware = {
    before: async (request) => {
      const s = stateOf(request);
      if (s.caller !== undefined) s.caller = await kind.rateLimit(s.caller, s.headers);
    },
  };
  /** 3. The route's access: the key's scopes, or the person's membership of the path's workspace and role. */
  const authorize: Middleware = {
    before: async (request) => {
      const s = stateOf(request);
      if (s.caller !== undefined) s.caller = await kind.authorize(s.caller, s.route!, request.event);
    },
  };
  /** 4. The JSON body (routes with a body only; 128 KB). */
  const parse: Middleware = {
    before: async (request) => {
      const s = stateOf(request);
      if (s.route!.body) s.body = await parseJsonBody(s.route!, request);
    },
  };
  /** 5. 501 for a route declared but not offered; zod on path, query and body; the Idempotency-Key header. */
  const validate: Middleware = {
    before: (request) => {
      const s = stateOf(request);
      const route = s.route!;
      if (route.notImplemented) throw notImplemented(route.notImplemented);
      const ev = request.event;
      const params = route.params ? parseWith(route.params, kind.input.decodePath ? decodedParams(ev.pathParameters) : (ev.pathParameters ?? {}), 'path') : {};
      const query = route.query ? parseWith(route.query, ev.queryStringParameters ?? {}, 'query') : rejectUnknownQuery(ev.queryStringParameters);
      let body: unknown;
      if (route.body) {
        const raw = s.body === undefined ? {} : s.body;
        if (!raw || typeof raw !== 'object' || Array.isArray(raw))
          throw validationError('The request body must be a JSON object', [{ field: 'body', message: 'must be a JSON object' }]);
        body = parseWith(route.body, kind.input.prepareBody ? kind.input.prepareBody(raw) : raw, 'body');
      }
      if (kind.input.storable) {
        assertStorable(params, 'path');
        assertStorable(query, 'query');
        if (route.body) assertStorable(body, 'body');
      }
      s.input = { params, query, body };
      if (route.access !== null && kind.idempotencyKeyOf) {
        const key = kind.idempotencyKeyOf(ev, route);
        if (key !== undefined) s.idempotencyKey = key;
      }
    },
  };
  /** Last: one error handler for everything thrown above or in the implementation. */
  const handleErrors: Middleware = {
    onError: async (request) => {
      const s = stateOf(request);
      const err = request.error;
      const { response, unexpected } = toErrorResponse(err, requestIdOf(request));
      if (unexpected) logger.error('Request failed unexpectedly', err as Error);
      else logger.info('Request rejected', { status: response.statusCode });
      const rateLimited = err instanceof ApiError && err.reason?.reason === 'RATE_LIMITED';
      recordOutcome(metrics, { status: response.statusCode, rateLimited });
      request.response = { ...response, headers: { ...s.headers, ...response.headers } };
    },
  };

  const core = async (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
    const s = states.get(event)!;
    const route = s.route!;
    const impl = impls[route.id]!; // every route of fn has one (checked above)
    const base: BaseRequest = { ...s.input!, requestId: event.requestContext?.requestId ?? context.awsRequestId, baseUrl: baseUrlOf(event) };
    const req = kind.request(base, s, event, context);
    // 6. Idempotency: the implementation runs once per key; a repeat gets the kept answer.
    const key = s.idempotencyKey;
    const result = key !== undefined && kind.idempotent ? await kind.idempotent(route, req, key, () => impl(req)) : await impl(req);
    return answer(route, result, s.headers, event);
  };

  /** The success answer: binary, 304, another representation (CSV), text, or JSON. */
  function answer(route: R, result: unknown, headers: Record<string, string>, event: APIGatewayProxyEvent): APIGatewayProxyResult {
    if (result instanceof BinaryReply) {
      served(route.successStatus);
      return {
        statusCode: route.successStatus,
        headers: { 'Content-Type': route.produces ?? 'application/octet-stream', ...headers, ...result.headers },
        body: Buffer.from(result.body).toString('base64'),
        isBase64Encoded: true,
      };
    }
    const reply = result instanceof Reply ? result : new Reply(result);
    const status = reply.status ?? route.successStatus;
    const all = { ...headers, ...kind.successHeaders?.(route, reply, status, event), ...reply.headers };
    served(status);
    if (status === 304) return { statusCode: 304, headers: all, body: '' };
    const other = kind.represent?.(route, reply, status, all, event);
    if (other) return other;
    if (route.produces) return { statusCode: status, headers: { 'Content-Type': route.produces, ...all }, body: String(reply.body) };
    return json(status, reply.body, all);
  }
  function served(status: number) {
    logger.info('Request served', { status });
    recordOutcome(metrics, { status });
  }

  return (
    middy(core)
      // logEvent: false whatever POWERTOOLS_LOGGER_LOG_EVENT says: the event carries the credential.
      .use(injectLambdaContext(logger, { resetKeys: true, logEvent: false }))
      .use(identify)
      .use(rateLimit)
      .use(authorize)
      .use(parse)
      .use(validate)
      .use(handleErrors)
  );
}
