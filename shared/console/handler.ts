import { createHash } from 'node:crypto';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { hasRole } from '../domain/roles';
import { getMembership, type Member } from '../data/members';
import { ApiError, forbidden, notImplemented, unauthorized, validationError } from '../api/errors';
import { corsHeaders, corsOrigins, headerValue } from '../api/gateway-edge';
import { baseUrlOf, MAX_BODY_BYTES } from '../api/handler';
import { logger } from '../platform/logger';
import { createMetrics, recordOutcome } from '../platform/metrics';
import * as settings from '../platform/settings';
import { enforceRateLimit } from '../api/rate-limit';
import { json, toErrorResponse } from '../api/response';
import { parseWith } from '../api/validate';
import { idempotencyKeyOf } from '../api/headers';
import { consoleIdempotencyApplies, KeptError, runConsoleIdempotent } from './idempotency';
import { findConsoleRoute, matchConsolePath, type ConsoleRouteId } from './routes';
import { AcceptedReply, BinaryReply, functionOf, TextReply, type ConsoleFunctionName, type ConsoleRequest, type ConsoleRouteDecl, type ConsoleRun } from './route-table';

/**
 * The console function's one stack, in order: the route of the table (API Gateway's resource template);
 * public routes run at once; otherwise the person the console authorizer verified (`email` in its context:
 * none is a 401); the per-person rate limit (the API's limiter: one conditional UpdateItem on
 * `RATE#person#<hash>`, 403 RATE_LIMITED over it); for a route of a workspace, the person's membership
 * (one GetItem: none is 404, whatever the rest of the path says, so another workspace's ids are 404) and
 * role (below the route's: 403 with details [{ reason: "ROLE", required }]); the JSON body (128 KB) and zod
 * validation of path, query and body (400 naming the field); the implementation. Every API answer has
 * `Cache-Control: no-store`. Errors become the API's error body (shared/api/response.ts). The event is never
 * logged (it carries the bearer token).
 */
export const CONSOLE_RATE_LIMITS = () => ({
  perMinute: settings.consoleRatePerMinute(),
  perHour: settings.consoleRatePerHour(),
});
/** The rate-counter id of a person (the e-mail itself stays out of the counter key). */
export const personCounterId = (email: string) => `person#${createHash('sha256').update(email).digest('hex').slice(0, 32)}`;

const NO_STORE = { 'Cache-Control': 'no-store' } as const;

/**
 * The handler of one console function: it serves the routes of the table whose `function` is `fn` (the
 * others go to their own function, by API Gateway and the local gateway alike: here they are 404), with the
 * implementations of routes declared without one (`implementations`, from that function's entry).
 */
export function consoleHandler(fn: ConsoleFunctionName = 'console', implementations: Partial<Record<ConsoleRouteId, ConsoleRun<never>>> = {}) {
  const metrics = createMetrics(fn);
  const core = async (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
    const requestId = event.requestContext?.requestId ?? context.awsRequestId;
    const headers: Record<string, string> = { 'X-Request-Id': requestId, ...corsHeaders(corsOrigins(), headerValue(event.headers, 'Origin')) };
    try {
      const route = findConsoleRoute(event.resource, event.httpMethod);
      // a route of another console function never reaches this one through a gateway
      if (route && functionOf(route) !== fn) throw new ApiError('NOT_FOUND', 'Route not found');
      if (!route) {
        if (matchConsolePath(event.path ?? event.resource)) throw notImplemented('This method is not offered on this path');
        throw new ApiError('NOT_FOUND', 'Route not found');
      }
      logger.appendKeys({ correlation_id: requestId, route: route.id });
      let person: { email: string } | undefined;
      let member: Member | undefined;
      if (route.access !== null) {
        Object.assign(headers, NO_STORE);
        const email = (event.requestContext?.authorizer as Record<string, unknown> | null | undefined)?.email;
        if (typeof email !== 'string' || !email) throw unauthorized();
        person = { email };
        logger.appendKeys({ person: personCounterId(email) });
        await enforceRateLimit({ workspaceId: '', keyId: personCounterId(email), scopes: [], ...CONSOLE_RATE_LIMITS() }, headers);
        if (route.access !== 'person') {
          const workspaceId = event.pathParameters?.workspaceId ?? '';
          member = await getMembership(workspaceId, email);
          if (!member) throw new ApiError('NOT_FOUND', 'Workspace not found');
          logger.appendKeys({ workspaceId });
          if (!hasRole(member.role, route.access)) {
            throw forbidden(`This needs the ${route.access} role in this workspace; yours is ${member.role}`, { reason: 'ROLE', required: route.access });
          }
        }
      }
      const run = (implementations[route.id] ?? route.run) as ConsoleRun | undefined;
      if (!run) throw new Error(`No implementation of ${route.id} in the ${fn} function`);
      const { raw, ...input } = validate(route, event);
      const runIt = () => run({ ...input, person: person!, member: member!, requestId, baseUrl: baseUrlOf(event) } as ConsoleRequest<ConsoleRouteDecl>);
      const idempotencyKey = consoleIdempotencyApplies(route) ? idempotencyKeyOf(event.httpMethod, event.headers) : undefined;
      let result: unknown;
      if (idempotencyKey === undefined) result = await runIt();
      else {
        const call = {
          route,
          workspaceId: member!.workspaceId,
          personId: personCounterId(person!.email),
          key: idempotencyKey,
          path: event.path,
          query: event.queryStringParameters,
          body: raw,
          context,
        };
        const kept = await runConsoleIdempotent(call, runIt);
        Object.assign(headers, kept.headers);
        result = kept.result;
      }
      if (result instanceof KeptError) {
        recordOutcome(metrics, { status: result.status });
        return json(result.status, result.body, headers);
      }
      const status = result instanceof AcceptedReply ? 202 : route.successStatus;
      logger.info('Request served', { status });
      recordOutcome(metrics, { status });
      if (result instanceof AcceptedReply) return json(202, result.body, headers);
      if (result instanceof BinaryReply)
        return {
          statusCode: status,
          headers: { 'Content-Type': route.produces ?? 'application/octet-stream', ...headers, ...result.headers },
          body: Buffer.from(result.body).toString('base64'),
          isBase64Encoded: true,
        };
      if (result instanceof TextReply)
        return { statusCode: route.successStatus, headers: { 'Content-Type': route.produces ?? 'text/plain; charset=utf-8', ...headers, ...result.headers }, body: result.body };
      return json(route.successStatus, result, headers);
    } catch (err) {
      const { response, unexpected } = toErrorResponse(err, requestId);
      if (unexpected) logger.error('Request failed unexpectedly', err as Error);
      else logger.info('Request rejected', { status: response.statusCode });
      recordOutcome(metrics, { status: response.statusCode, rateLimited: err instanceof ApiError && err.reason?.reason === 'RATE_LIMITED' });
      return { ...response, headers: { ...headers, ...response.headers } };
    }
  };
  return middy(core).use(injectLambdaContext(logger, { resetKeys: true, logEvent: false }));
}

function validate(route: ConsoleRouteDecl, event: APIGatewayProxyEvent) {
  // API Gateway passes path parameters as sent (percent-encoded): an e-mail in `members/{email}` arrives as a%40b.
  const params = route.params ? parseWith(route.params, decodedParams(event.pathParameters), 'path') : {};
  const rawQuery = event.queryStringParameters ?? {};
  if (!route.query && Object.keys(rawQuery).length > 0) {
    const names = Object.keys(rawQuery);
    throw validationError(
      `Unknown query parameter(s): ${names.join(', ')}`,
      names.map((field) => ({ field, message: 'unknown query parameter' })),
    );
  }
  const query = route.query ? parseWith(route.query, rawQuery, 'query') : {};
  let body: unknown;
  let rawBody: unknown;
  if (route.body) {
    const text = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';
    if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new ApiError('PAYLOAD_TOO_LARGE', `Request body too large (at most ${MAX_BODY_BYTES / 1024} KB)`);
    let raw: unknown = {};
    if (text.trim() !== '') {
      try {
        raw = JSON.parse(text);
      } catch {
        throw validationError('Request body must be valid JSON', [{ field: 'body', message: 'malformed JSON' }]);
      }
    } else if (!route.bodyOptional) throw validationError('A JSON request body is required', [{ field: 'body', message: 'required' }]);
    if (!raw || typeof raw !== 'object' || Array.isArray(raw))
      throw validationError('The request body must be a JSON object', [{ field: 'body', message: 'must be a JSON object' }]);
    body = parseWith(route.body, raw, 'body');
    rawBody = raw;
  }
  return { params, query, body, raw: rawBody };
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
