import { apiClient, makeKey, newWorkspace, useTestTable } from '../support/harness';
import { ANY_KEY, routeList, SCOPES, type Scope } from '../../shared/api/routes';
import { err, HIGH_LIMITS, workspaceWithKey } from './support';

/**
 * The full scope matrix: each of the 14 scopes against every route of the route table. A key holding
 * only that scope is allowed exactly when it is the route's scope: otherwise 403 FORBIDDEN naming the
 * route's scope; when it matches, anything but 401/403 (the request may still be a 400, 404 or 501 —
 * the scope check passed).
 */
useTestTable();
const api = apiClient();

/** One key per scope, each holding only that scope, all in one workspace. */
const keyOf = new Map<Scope, string>();
beforeAll(async () => {
  const ws = newWorkspace('scopes');
  for (const scope of SCOPES) keyOf.set(scope, await makeKey(ws, { scopes: [scope], ...HIGH_LIMITS }));
});

const request = (route: (typeof routeList)[number], key?: string) =>
  api.call(route.method, route.path.replace('{id}', '01ABSENT000000000000000000'), {
    ...(key ? { key } : {}),
    ...(route.method === 'POST' || route.method === 'PUT' ? { body: {} } : {}),
  });

const protectedRoutes = routeList.filter((r) => r.scope !== null && r.scope !== ANY_KEY);
const publicRoutes = routeList.filter((r) => r.scope === null);
const anyKeyRoutes = routeList.filter((r) => r.scope === ANY_KEY);

test('the matrix covers every route and every scope', () => {
  expect(SCOPES).toHaveLength(16);
  expect(publicRoutes.map((r) => r.id)).toEqual(['getOpenApi', 'getApiReference', 'getApiReferenceScript']);
  expect(anyKeyRoutes.map((r) => r.id)).toEqual(['getMe', 'listChanges']);
  expect(protectedRoutes.length + publicRoutes.length + anyKeyRoutes.length).toBe(routeList.length);
  expect(new Set(protectedRoutes.map((r) => r.scope))).toEqual(new Set(SCOPES));
});

test.each(anyKeyRoutes.map((r) => [r.id, r.method, r.path] as const))('%s (%s %s) takes a key with any one scope, and none without a key', async (id) => {
  const route = anyKeyRoutes.find((r) => r.id === id)!;
  for (const scope of SCOPES) expect({ scope, status: (await request(route, keyOf.get(scope))).status }).toEqual({ scope, status: 200 });
  expect((await request(route)).status).toBe(401);
});

test.each(protectedRoutes.map((r) => [r.id, r.method, r.path, r.scope!] as const))('%s (%s %s) needs %s', async (_id, _method, _path, required) => {
  const route = protectedRoutes.find((r) => r.id === _id)!;
  const results = await Promise.all(SCOPES.map(async (scope) => [scope, await request(route, keyOf.get(scope))] as const));
  for (const [scope, res] of results) {
    // a route that also needs other scopes (alsoScopes: starting a favorite reads it) refuses a key holding
    // only its own scope, naming the first other one missing
    const also = route.alsoScopes?.[0];
    if (scope === required && also) {
      expect({ scope, ...err(res), details: res.body.error.details }).toEqual({
        scope,
        status: 403,
        code: 'FORBIDDEN',
        message: `This API key lacks the required scope: ${also}`,
        details: [{ reason: 'MISSING_SCOPE', scope: also }],
      });
    } else if (scope === required) {
      expect({ scope, status: res.status }).not.toEqual({ scope, status: 403 });
      expect(res.status).not.toBe(401);
    } else {
      expect({ scope, ...err(res) }).toEqual({ scope, status: 403, code: 'FORBIDDEN', message: `This API key lacks the required scope: ${required}` });
      expect({ scope, details: res.body.error.details }).toEqual({ scope, details: [{ reason: 'MISSING_SCOPE', scope: required }] });
    }
  }
});

test('the public routes need no scope (and no key)', async () => {
  for (const route of publicRoutes) {
    for (const scope of SCOPES) expect([route.id, (await request(route, keyOf.get(scope))).status]).toEqual([route.id, 200]);
    expect([route.id, (await request(route)).status]).toEqual([route.id, 200]);
  }
});

test('a route any key may call (GET /v1/me) answers every single-scope key, and no request without a key', async () => {
  for (const route of anyKeyRoutes) {
    for (const scope of SCOPES) expect([route.id, scope, (await request(route, keyOf.get(scope))).status]).toEqual([route.id, scope, 200]);
    expect([route.id, (await request(route)).status]).toEqual([route.id, 401]);
  }
});

test('a key with every scope passes every scope check', async () => {
  const { key } = await workspaceWithKey('all-scopes');
  for (const route of protectedRoutes) expect([route.id, (await request(route, key)).status]).not.toEqual([route.id, 403]);
});
