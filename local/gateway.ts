import { randomUUID } from 'node:crypto';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import {
  apiKeyOf,
  corsOrigins,
  deployedMethodArnBytes,
  gatewayAnswerResponse,
  headerValue,
  MAX_METHOD_ARN_BYTES,
  MAX_URL_CHARS,
  preflightResponse,
  urlChars,
  type GatewayAnswerId,
} from '../shared/api/gateway-edge';
import { findRoute, matchPath, type FunctionName } from '../shared/api/routes';

/**
 * The local stand-in for API Gateway (REST, v1 proxy events). It does what the deployed gateway
 * does, in the same order: URL over the quota → 414; unknown path → 404 without auth; OPTIONS on a known
 * path → the CORS preflight (204, no key needed, as the deployed OPTIONS mock methods); on a method behind
 * the authorizer, a method ARN over 1600 bytes → 414, the API key header missing → 401 without calling
 * the authorizer; the REQUEST authorizer's answer cached per key for AUTH_CACHE_TTL_SECONDS (300 by
 * default, as deployed); a method not offered on a known path → 501; then the resource's Lambda
 * handler (the very same module that is deployed) with a REST proxy event. Every answer it makes itself
 * comes from the table of shared/api/gateway-edge.ts, in the very body the deployed gateway renders.
 */
export interface GatewayRequest {
  method: string;
  /** Path without query string, e.g. /v1/clients/abc */
  path: string;
  query?: Record<string, string | string[] | undefined>;
  headers?: Record<string, string | undefined>;
  body?: string;
  sourceIp?: string;
}
export interface GatewayResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

/** The handler modules, loaded lazily by name (functions/<name>/index.ts), as Lambda would. */
function loadHandler(name: FunctionName | 'authorizer'): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(`../functions/${name}/index`).handler;
}

export interface GatewayOptions {
  authCacheTtlSeconds?: number;
  stage?: string;
  now?: () => number;
  /** Where a function's handler comes from (default: functions/<name>/index.ts, as Lambda loads it). */
  loadHandler?: (name: FunctionName | 'authorizer') => unknown;
}

/** The query string as the caller sent it (near enough: for the URL length quota). */
function queryStringOf(query: GatewayRequest['query']): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) qs.append(k, one);
  }
  return qs.toString();
}

/** The authorizer threw something else than 'Unauthorized' (API Gateway: AUTHORIZER_FAILURE). */
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
  const cache = new Map<string, { result: APIGatewayAuthorizerResult; expires: number }>();
  const handlers = new Map<string, LambdaHandler>();
  const handlerOf = (name: FunctionName) => {
    let h = handlers.get(name);
    if (!h) handlers.set(name, (h = load(name) as LambdaHandler));
    return h;
  };
  let authorizer: AuthorizerHandler | undefined;

  async function authorize(key: string, methodArn: string, ev: APIGatewayProxyEvent): Promise<APIGatewayAuthorizerResult | undefined> {
    const hit = cache.get(key);
    if (hit && hit.expires > now()) return hit.result;
    authorizer ??= load('authorizer') as AuthorizerHandler;
    try {
      const result = await authorizer({
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
      cache.set(key, { result, expires: now() + ttlMs });
      return result;
    } catch (err) {
      if ((err as Error).message === 'Unauthorized') return undefined;
      throw new AuthorizerFailure(err);
    }
  }

  async function handle(req: GatewayRequest): Promise<GatewayResponse> {
    const requestId = randomUUID();
    // CORS_ORIGINS is read per request, as each deployed function reads it from its environment.
    const origins = corsOrigins();
    const origin = headerValue(req.headers, 'Origin');
    const answer = (id: GatewayAnswerId) => gatewayAnswerResponse(id, requestId, undefined, { origins, origin });
    try {
      if (urlChars(req.path, queryStringOf(req.query)) > MAX_URL_CHARS) return answer('URI_TOO_LONG');
      const match = matchPath(req.path);
      if (!match) return answer('MISSING_AUTHENTICATION_TOKEN');
      const method = req.method.toUpperCase();
      if (method === 'OPTIONS') return preflightResponse(origins, origin, requestId);
      const route = findRoute(match.template, method);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers ?? {})) if (v !== undefined) headers[k] = v;
      const single: Record<string, string> = {};
      const multi: Record<string, string[]> = {};
      for (const [k, v] of Object.entries(req.query ?? {})) {
        if (v === undefined) continue;
        const list = Array.isArray(v) ? v : [v];
        multi[k] = list;
        single[k] = list[list.length - 1]!;
      }
      const event: APIGatewayProxyEvent = {
        resource: match.template,
        path: req.path,
        httpMethod: method,
        headers,
        multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
        queryStringParameters: Object.keys(single).length ? single : null,
        multiValueQueryStringParameters: Object.keys(multi).length ? multi : null,
        pathParameters: Object.keys(match.params).length ? Object.fromEntries(Object.entries(match.params).map(([k, v]) => [k, safeDecode(v)])) : null,
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
        const key = apiKeyOf(headers);
        if (!key) return answer('UNAUTHORIZED');
        const methodArn = `arn:aws:execute-api:local:000000000000:local/${stage}/${method}${req.path}`;
        const result = await authorize(key, methodArn, event);
        if (!result) return answer('UNAUTHORIZED');
        if (!policyAllows(result, methodArn)) return answer('ACCESS_DENIED');
        event.requestContext.authorizer = { ...(result.context ?? {}), principalId: result.principalId };
      }
      if (!route) return answer('METHOD_NOT_OFFERED');
      const context = lambdaContext(`local-${route.resource}`, requestId);
      const res = await handlerOf(route.resource)(event, context);
      const outHeaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers ?? {})) outHeaders[k] = String(v);
      return { status: res.statusCode, headers: outHeaders, body: res.body };
    } catch (err) {
      // What API Gateway does when the authorizer or a function fails: a 5xx in the error body.
      if (err instanceof AuthorizerFailure) {
        console.error('local gateway: authorizer failed', err.failure);
        return answer('AUTHORIZER_FAILURE');
      }
      console.error('local gateway: handler failed', err);
      return answer('DEFAULT_5XX');
    }
  }

  return { handle, clearAuthCache: () => cache.clear() };
}

/** The Lambda context a function sees (local gateway, benchmarks). */
export function lambdaContext(functionName: string, requestId: string): Context {
  return {
    awsRequestId: requestId,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    logGroupName: `/local/${functionName}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => 29_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

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
