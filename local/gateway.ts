import { randomUUID } from 'node:crypto';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import {
  apiKeyOf,
  corsOrigins,
  deployedMethodArnBytes,
  FUNCTION_TIMEOUT_SECONDS,
  gatewayAnswerResponse,
  headerValue,
  MAX_METHOD_ARN_BYTES,
  MAX_URL_CHARS,
  preflightResponse,
  REQUEST_ID_HEADER,
  urlChars,
  type GatewayAnswerId,
} from '../shared/api/gateway-edge';
import { toErrorResponse } from '../shared/api/response';
import { findRoute, matchPath, type FunctionName } from '../shared/api/routes';
import { findConsoleRoute, isConsolePath, matchConsolePath } from '../shared/console/routes';
import { functionOf, type ConsoleFunctionName } from '../shared/console/route-table';
// Handlers run here queue webhook messages (pings) on the local run's table-backed queue, as SQS in AWS.
import './queue';

/**
 * The local stand-in for API Gateway (REST, v1 proxy events). It does what the deployed gateway
 * does, in the same order: URL over the quota → 414; unknown path → 404 without auth; OPTIONS on a known
 * path → the CORS preflight (204, no key needed, as the deployed OPTIONS mock methods); on a method behind
 * the authorizer, a method ARN over 1600 bytes → 414, the API key header missing → 401 without calling
 * the authorizer; the REQUEST authorizer's answer cached per key for AUTH_CACHE_TTL_SECONDS (300 by
 * default, as deployed; 503 instead while the data store is known to be down: npm start restarting
 * DynamoDB Local); a method not offered on a known path → 501; then the resource's Lambda handler
 * (the very same module that is deployed) with a REST proxy event. Every answer it makes itself
 * comes from the table of shared/api/gateway-edge.ts, in the very body the deployed gateway renders.
 */
export interface GatewayRequest {
  method: string;
  /** Path without query string, e.g. /v1/clients/abc */
  path: string;
  query?: Record<string, string | string[] | undefined>;
  /** A header sent several times is a list (API Gateway: `headers` has the last, `multiValueHeaders` all). */
  headers?: Record<string, string | string[] | undefined>;
  body?: string;
  sourceIp?: string;
  /** The request id (API Gateway's $context.requestId); a fresh one when absent. */
  requestId?: string;
}
export interface GatewayResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body is base64 (a binary answer: the console's PDF), as API Gateway receives it from the function. */
  isBase64Encoded?: boolean;
}

type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

/** The functions the local gateway runs: the API's, its authorizer, and the console's (page and API, invoice PDF, authorizer). */
export type LocalFunctionName = FunctionName | 'authorizer' | ConsoleFunctionName | 'console-authorizer';
/** The console authorizer's cache at most (API Gateway's for it: lib/console.ts). */
export const CONSOLE_AUTH_CACHE_MAX_SECONDS = 60;

/** The handler modules, loaded lazily by name (functions/<name>/index.ts), as Lambda would. */
function loadHandler(name: LocalFunctionName): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(`../functions/${name}/index`).handler;
}

export interface GatewayOptions {
  authCacheTtlSeconds?: number;
  stage?: string;
  now?: () => number;
  /** Where a function's handler comes from (default: functions/<name>/index.ts, as Lambda loads it). */
  loadHandler?: (name: LocalFunctionName) => unknown;
  /**
   * Whether the data store can be reached (npm start: false while DynamoDB Local is down and being
   * restarted). When it cannot, a route that needs it (every route behind the authorizer) is answered
   * 503 SERVICE_UNAVAILABLE with Retry-After before the authorizer runs: the very answer a handler gives
   * when DynamoDB is unreachable (shared/api/response.ts).
   */
  storeAvailable?: () => boolean;
}

/** What a handler answers when DynamoDB is unreachable (connection refused): 503 with Retry-After and the request id. */
function storeUnavailableResponse(requestId: string): GatewayResponse {
  const unreachable = Object.assign(new Error('DynamoDB Local is not running (restarting)'), { code: 'ECONNREFUSED' });
  const { response } = toErrorResponse(unreachable, requestId);
  return { status: response.statusCode, headers: { ...stringHeaders(response.headers), [REQUEST_ID_HEADER]: requestId }, body: response.body };
}

const stringHeaders = (headers: APIGatewayProxyResult['headers']): Record<string, string> => Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k, String(v)]));

/** The query string as the caller sent it (near enough: for the URL length quota). */
function queryStringOf(query: GatewayRequest['query']): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) qs.append(k, one);
  }
  return qs.toString();
}

/** The authorizer threw something else than 'Unauthorized' (API Gateway: AUTHORIZER_CONFIGURATION_ERROR, 503 with Retry-After). */
class AuthorizerFailure extends Error {
  constructor(readonly failure: unknown) {
    super('authorizer failed');
    this.name = 'AuthorizerFailure';
  }
}

export function createGateway(opts: GatewayOptions = {}) {
  const ttlMs = (opts.authCacheTtlSeconds ?? Number(process.env.AUTH_CACHE_TTL_SECONDS ?? 300)) * 1000;
  const stage = opts.stage ?? 'local';
  const now = opts.now ?? Date.now;
  const load = opts.loadHandler ?? loadHandler;
  const storeAvailable = opts.storeAvailable ?? (() => true);
  const cache = new Map<string, { result: APIGatewayAuthorizerResult; expires: number }>();
  const handlers = new Map<string, LambdaHandler>();
  // The console's authorizer answer, cached per Authorization header at most 60 s (shorter when the API key cache is).
  const consoleTtlMs = Math.min(ttlMs, CONSOLE_AUTH_CACHE_MAX_SECONDS * 1000);
  const consoleCache = new Map<string, { result: APIGatewayAuthorizerResult; expires: number }>();
  const handlerOf = (name: FunctionName | ConsoleFunctionName) => {
    let h = handlers.get(name);
    if (!h) handlers.set(name, (h = load(name) as LambdaHandler));
    return h;
  };
  let authorizer: AuthorizerHandler | undefined;

  let consoleAuthorizer: AuthorizerHandler | undefined;
  async function authorize(key: string, methodArn: string, ev: APIGatewayProxyEvent, forConsole = false): Promise<APIGatewayAuthorizerResult | undefined> {
    const store = forConsole ? consoleCache : cache;
    const hit = store.get(key);
    if (hit && hit.expires > now()) return hit.result;
    const run = forConsole ? (consoleAuthorizer ??= load('console-authorizer') as AuthorizerHandler) : (authorizer ??= load('authorizer') as AuthorizerHandler);
    try {
      const result = await run({
        type: 'REQUEST',
        methodArn,
        resource: ev.resource,
        path: ev.path,
        httpMethod: ev.httpMethod,
        headers: ev.headers,
        multiValueHeaders: ev.multiValueHeaders,
        pathParameters: ev.pathParameters,
        queryStringParameters: ev.queryStringParameters,
        multiValueQueryStringParameters: ev.multiValueQueryStringParameters,
        stageVariables: null,
        requestContext: ev.requestContext,
      } as APIGatewayRequestAuthorizerEvent);
      store.set(key, { result, expires: now() + (forConsole ? consoleTtlMs : ttlMs) });
      return result;
    } catch (err) {
      if ((err as Error).message === 'Unauthorized') return undefined;
      throw new AuthorizerFailure(err);
    }
  }

  async function handle(req: GatewayRequest): Promise<GatewayResponse> {
    const requestId = req.requestId ?? randomUUID();
    // CORS_ORIGINS is read per request, as each deployed function reads it from its environment.
    const origins = corsOrigins();
    const origin = headerValue(lastValues(req.headers), 'Origin');
    const answer = (id: GatewayAnswerId) => gatewayAnswerResponse(id, requestId, undefined, { origins, origin });
    try {
      if (urlChars(req.path, queryStringOf(req.query)) > MAX_URL_CHARS) return answer('URI_TOO_LONG');
      const forConsole = isConsolePath(req.path);
      const match = forConsole ? matchConsolePath(req.path) : matchPath(req.path);
      if (!match) return answer('MISSING_AUTHENTICATION_TOKEN');
      const method = req.method.toUpperCase();
      if (method === 'OPTIONS') return preflightResponse(origins, origin, requestId);
      // The console's routes (shared/console/routes.ts): their own function, and their own authorizer on the
      // Authorization header (a person's token), as the deployed API has them.
      const consoleRoute = forConsole ? findConsoleRoute(match.template, method) : undefined;
      const route = forConsole
        ? consoleRoute
          ? { resource: functionOf(consoleRoute), scope: consoleRoute.access === null ? null : ('console' as const) }
          : undefined
        : findRoute(match.template, method);
      // Own properties only, as JSON.parse builds the deployed event: a name such as __proto__ or
      // constructor is a parameter like any other, never a built-in.
      // A repeated header: the last value in `headers`, every value in `multiValueHeaders` (what API Gateway builds).
      const headerLists = Object.entries(req.headers ?? {}).flatMap(([k, v]): Array<[string, string[]]> => (v === undefined ? [] : [[k, Array.isArray(v) ? v : [v]]]));
      const headers: Record<string, string> = Object.fromEntries(headerLists.filter(([, l]) => l.length > 0).map(([k, l]) => [k, l[l.length - 1]!]));
      const queryLists = Object.entries(req.query ?? {}).flatMap(([k, v]): Array<[string, string[]]> => (v === undefined ? [] : [[k, Array.isArray(v) ? v : [v]]]));
      const multi: Record<string, string[]> = Object.fromEntries(queryLists);
      const single: Record<string, string> = Object.fromEntries(queryLists.map(([k, list]) => [k, list[list.length - 1]!]));
      const event: APIGatewayProxyEvent = {
        resource: match.template,
        path: req.path,
        httpMethod: method,
        headers,
        multiValueHeaders: Object.fromEntries(headerLists.filter(([, l]) => l.length > 0)),
        queryStringParameters: Object.keys(single).length ? single : null,
        multiValueQueryStringParameters: Object.keys(multi).length ? multi : null,
        // As API Gateway REST passes them: not percent-decoded (an id sent as a%20b reaches the handler as a%20b).
        pathParameters: Object.keys(match.params).length ? { ...match.params } : null,
        stageVariables: null,
        body: req.body === undefined || req.body === '' ? null : req.body,
        isBase64Encoded: false,
        requestContext: {
          accountId: '000000000000',
          apiId: 'local',
          authorizer: null,
          protocol: 'HTTP/1.1',
          httpMethod: method,
          identity: { sourceIp: req.sourceIp ?? '127.0.0.1' } as APIGatewayProxyEvent['requestContext']['identity'],
          path: req.path,
          stage,
          requestId,
          requestTimeEpoch: now(),
          resourceId: 'local',
          resourcePath: match.template,
        },
      };
      const isPublic = route?.scope === null;
      if (!isPublic) {
        if (deployedMethodArnBytes(stage, method, req.path) > MAX_METHOD_ARN_BYTES) return answer('URI_TOO_LONG');
        const key = forConsole ? headerValue(headers, 'Authorization') : apiKeyOf(headers);
        if (!key) return answer('UNAUTHORIZED');
        if (!storeAvailable()) return storeUnavailableResponse(requestId);
        const methodArn = `arn:aws:execute-api:local:000000000000:local/${stage}/${method}${req.path}`;
        const result = await authorize(key, methodArn, event, forConsole);
        if (!result) return answer('UNAUTHORIZED');
        if (!policyAllows(result, methodArn)) return answer('ACCESS_DENIED');
        event.requestContext.authorizer = { ...(result.context ?? {}), principalId: result.principalId };
      }
      if (!route) return answer('METHOD_NOT_OFFERED');
      const context = lambdaContext(`local-${route.resource}`, requestId);
      const res = await handlerOf(route.resource)(event, context);
      return { status: res.statusCode, headers: stringHeaders(res.headers), body: res.body, ...(res.isBase64Encoded ? { isBase64Encoded: true } : {}) };
    } catch (err) {
      // What API Gateway does when the authorizer or a function fails: a 5xx in the error body.
      if (err instanceof AuthorizerFailure) {
        // DynamoDB Local went down while the authorizer was reading the key: retryable, as the handlers answer it.
        if (!storeAvailable()) return storeUnavailableResponse(requestId);
        console.error('local gateway: authorizer failed', err.failure);
        // As API Gateway answers an authorizer that throws (shared/api/gateway-edge.ts): 503, Retry-After: 1.
        return answer('AUTHORIZER_CONFIGURATION_ERROR');
      }
      console.error('local gateway: handler failed', err);
      return answer('DEFAULT_5XX');
    }
  }

  return {
    handle,
    clearAuthCache: () => {
      cache.clear();
      consoleCache.clear();
    },
  };
}

/** The Lambda context a function sees (local gateway, benchmarks). */
export function lambdaContext(functionName: string, requestId: string): Context {
  const deadline = Date.now() + FUNCTION_TIMEOUT_SECONDS * 1000;
  return {
    awsRequestId: requestId,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    logGroupName: `/local/${functionName}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** Each header's last value (a repeated header arrives as a list). */
const lastValues = (headers: GatewayRequest['headers']): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v[v.length - 1] : v]));

/** Evaluates the authorizer's policy for one method ARN (Allow with * wildcards, Deny wins). */
export function policyAllows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  let allowed = false;
  for (const st of result.policyDocument.Statement) {
    const s = st as { Effect: string; Resource?: string | string[] };
    const resources = Array.isArray(s.Resource) ? s.Resource : s.Resource ? [s.Resource] : [];
    const hit = resources.some((r) => new RegExp('^' + r.split('*').map(escapeRegExp).join('.*') + '$').test(methodArn));
    if (hit && s.Effect === 'Deny') return false;
    if (hit && s.Effect === 'Allow') allowed = true;
  }
  return allowed;
}
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export type Gateway = ReturnType<typeof createGateway>;
