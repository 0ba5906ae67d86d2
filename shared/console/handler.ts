import { createHash } from 'node:crypto';
import { hasRole } from '../domain/roles';
import { getMembership, type Member } from '../data/members';
import { ApiError, forbidden, notImplemented, unauthorized } from '../api/errors';
import { corsHeaders, corsOrigins, headerValue } from '../api/gateway-edge';
import { buildStack, type CallerKind, type Impl } from '../api/kernel/stack';
import { logger } from '../platform/logger';
import * as settings from '../platform/settings';
import { enforceRateLimit } from '../api/rate-limit';
import { idempotencyKeyOf } from '../api/headers';
import { consoleIdempotencyApplies, runConsoleIdempotent } from './idempotency';
import { consoleRouteList, findConsoleRoute, matchConsolePath, type ConsoleRouteId, type ConsoleTableRoute } from './routes';
import { functionOf, type ConsoleFunctionName, type ConsolePerson, type ConsoleRequest, type ConsoleRouteDecl, type ConsoleRun } from './route-table';

/**
 * The console's caller kind: a signed-in person (the console authorizer verified their ID token and put
 * `email` in its context), for the one stack of shared/api/kernel/stack.ts. In order: the route of the table
 * (API Gateway's resource template); public routes run at once; otherwise the person (none is a 401); the
 * per-person rate limit (the API's limiter: one conditional UpdateItem on `RATE#person#<hash>`, 403
 * RATE_LIMITED over it); for a route of a workspace, the person's membership (one GetItem: none is 404,
 * whatever the rest of the path says, so another workspace's ids are 404) and role (below the route's: 403
 * with details [{ reason: "ROLE", required }]); the JSON body (128 KB) and zod validation of path (percent-
 * decoded), query and body (400 naming the field); the implementation. Every API answer has
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

/** The signed-in person and, on a route of a workspace, their membership of it. */
interface PersonCaller {
  person: ConsolePerson;
  member?: Member;
}

export const personCaller: CallerKind<ConsoleTableRoute, PersonCaller, ConsoleRequest<ConsoleRouteDecl>> = {
  routesOf: (fn) => consoleRouteList.filter((r) => functionOf(r) === fn),
  route: (event, fn) => {
    const route = findConsoleRoute(event.resource, event.httpMethod);
    // a route of another console function never reaches this one through a gateway
    if (route && functionOf(route) !== fn) throw new ApiError('NOT_FOUND', 'Route not found');
    if (route) return route;
    if (matchConsolePath(event.path ?? event.resource)) throw notImplemented('This method is not offered on this path');
    throw new ApiError('NOT_FOUND', 'Route not found');
  },
  headers: (event, requestId) => ({ 'X-Request-Id': requestId, ...corsHeaders(corsOrigins(), headerValue(event.headers, 'Origin')) }),
  identify: (event, _route, headers, logKeys) => {
    Object.assign(headers, NO_STORE);
    const email: unknown = event.requestContext?.authorizer?.email;
    if (typeof email !== 'string' || !email) throw unauthorized();
    logKeys.person = personCounterId(email);
    return { person: { email } };
  },
  rateLimit: async (caller, headers) => {
    await enforceRateLimit({ workspaceId: '', keyId: personCounterId(caller.person.email), scopes: [], ...CONSOLE_RATE_LIMITS() }, headers);
    return caller;
  },
  authorize: async (caller, route, event) => {
    if (route.access === 'person' || route.access === null) return caller;
    const workspaceId = event.pathParameters?.workspaceId ?? '';
    const member = await getMembership(workspaceId, caller.person.email);
    if (!member) throw new ApiError('NOT_FOUND', 'Workspace not found');
    logger.appendKeys({ workspaceId });
    if (!hasRole(member.role, route.access)) {
      throw forbidden(`This needs the ${route.access} role in this workspace; yours is ${member.role}`, { reason: 'ROLE', required: route.access });
    }
    return { ...caller, member };
  },
  // API Gateway passes path parameters as sent (percent-encoded): an e-mail in `members/{email}` arrives as a%40b.
  input: { decodePath: true },
  // Idempotency-Key on the console's POSTs of a workspace (shared/console/idempotency.ts)
  idempotencyKeyOf: (event, route) => (consoleIdempotencyApplies(route) ? idempotencyKeyOf(event.httpMethod, event.headers) : undefined),
  idempotent: (route, req, key, run) => runConsoleIdempotent({ route, workspaceId: req.member.workspaceId, personId: personCounterId(req.person.email), key, ...req.sent }, run),
  request: (base, s, event) =>
    ({
      ...base,
      person: s.caller?.person as ConsolePerson,
      member: s.caller?.member as Member,
      sent: { path: event.path, query: event.queryStringParameters, body: s.body },
    }) as ConsoleRequest<ConsoleRouteDecl>,
};

/**
 * The handler of one console function: it serves the routes of the table whose `function` is `fn` (the
 * others go to their own function, by API Gateway and the local gateway alike: here they are 404), with the
 * implementations of routes declared without one (`implementations`, from that function's entry).
 */
export function consoleHandler(fn: ConsoleFunctionName = 'console', implementations: Partial<Record<ConsoleRouteId, ConsoleRun<never>>> = {}) {
  const impls: Record<string, Impl<ConsoleRequest<ConsoleRouteDecl>> | undefined> = {};
  for (const r of personCaller.routesOf(fn)) impls[r.id] = (implementations[r.id] ?? r.run) as ConsoleRun | undefined;
  return buildStack(personCaller, fn, impls);
}
