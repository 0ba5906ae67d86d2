import { useTestTable, newWorkspace } from '../support/harness';

/**
 * docs/architecture.md, "Adding a plain resource": a resource is its entity declaration, its line in
 * the registry (from which the route table derives its five routes) and a one-line function file. This
 * test does exactly that for a throwaway `users` resource, without touching any other file: the registry
 * is extended with the declaration, the function file is the one line, and the API serves it end to end
 * through the local gateway against DynamoDB Local (routes, scopes, validation, storage, OpenAPI).
 */
useTestTable();

type Gateway = import('../../local/gateway').Gateway;
interface Sandbox {
  gateway: Gateway;
  createApiKey: typeof import('../../shared/data/apikey-store').createApiKey;
  routeIds: string[];
}

function sandbox(): Sandbox {
  let out!: Sandbox;
  jest.isolateModules(() => {
    jest.doMock('../../shared/domain/registry', () => {
      const actual = jest.requireActual<typeof import('../../shared/domain/registry')>('../../shared/domain/registry');
      const { defineEntity } = jest.requireActual<typeof import('../../shared/domain/entity')>('../../shared/domain/entity');
      const { nameString } = jest.requireActual<typeof import('../../shared/domain/fields')>('../../shared/domain/fields');
      const z = jest.requireActual<typeof import('zod')>('zod');
      // 1. The entity declaration.
      const users = defineEntity({
        resource: 'users',
        kind: 'User',
        type: 'USER',
        description: 'People who track time',
        fields: { name: { schema: nameString, required: true }, email: { schema: z.email() }, active: { schema: z.boolean(), default: true } },
        key: { pk: {}, sk: { prefix: 'USER', composite: ['id'] } },
        list: { mode: 'whole', via: ['key'] },
      });
      // 2. Its line in the registry.
      const ENTITIES = [...actual.ENTITIES, users];
      return { ...actual, ENTITIES, RESOURCES: ENTITIES.map((e) => e.resource), usedBy: (target: never, registry = ENTITIES) => actual.usedBy(target, registry) };
    });
    // 3. The function file: one line binding the resource.
    jest.doMock(
      '../../functions/users/index',
      () => ({ handler: jest.requireActual<typeof import('../../shared/api/crud')>('../../shared/api/crud').entityHandler('users' as never) }),
      { virtual: true },
    );
    const { createGateway } = jest.requireActual<typeof import('../../local/gateway')>('../../local/gateway');
    const { createApiKey } = jest.requireActual<typeof import('../../shared/data/apikey-store')>('../../shared/data/apikey-store');
    const { ROUTE_IDS } = jest.requireActual<typeof import('../../shared/api/routes')>('../../shared/api/routes');
    // The gateway loads a function when its first request arrives, after this sandbox has closed: so the
    // functions this test calls are loaded here, inside it, as the gateway would load them.
    const handlers = Object.fromEntries(['users', 'openapi', 'authorizer'].map((name) => [name, (require(`../../functions/${name}/index`) as { handler: unknown }).handler]));
    out = { gateway: createGateway({ authCacheTtlSeconds: 300, loadHandler: (name) => handlers[name] }), createApiKey, routeIds: ROUTE_IDS as string[] };
  });
  return out;
}

test('a throwaway plain resource declared in one place is served end to end', async () => {
  const { gateway, createApiKey, routeIds } = sandbox();
  expect(routeIds.filter((id) => /User/.test(id)).sort()).toEqual(['createUser', 'deleteUser', 'getUser', 'listUsers', 'updateUser']);
  const ws = newWorkspace('users');
  const { key } = await createApiKey({ workspaceId: ws, name: 'users', scopes: ['users:read', 'users:write'] as never[] });
  const { key: readOnly } = await createApiKey({ workspaceId: ws, name: 'ro', scopes: ['users:read'] as never[] });
  const call = async (method: string, path: string, body?: unknown, k = key) => {
    const res = await gateway.handle({
      method,
      path,
      headers: { 'X-API-Key': k, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: JSON.parse(res.body) as Record<string, any> };
  };

  const ada = await call('POST', '/v1/users', { name: 'Ada', email: 'ada@example.com' });
  expect(ada).toMatchObject({ status: 201, body: { name: 'Ada', email: 'ada@example.com', active: true } });
  const bob = await call('POST', '/v1/users', { name: 'bob' });
  expect(await call('GET', `/v1/users/${ada.body.id}`)).toEqual({ status: 200, body: ada.body });
  const renamed = await call('PUT', `/v1/users/${ada.body.id}`, { name: 'Zoe', email: null });
  expect(renamed.status).toBe(200);
  expect(renamed.body).toMatchObject({ id: ada.body.id, name: 'Zoe', active: true });
  expect(renamed.body).not.toHaveProperty('email');
  expect((await call('GET', '/v1/users')).body.items.map((u: { name: string }) => u.name)).toEqual(['bob', 'Zoe']);

  // The edge works for it like for every resource: validation, scopes, NOT_FOUND naming its kind.
  expect(await call('POST', '/v1/users', { name: 'x', extra: 1 })).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_ERROR' } } });
  expect(await call('POST', '/v1/users', { name: 'x' }, readOnly)).toMatchObject({
    status: 403,
    body: { error: { code: 'FORBIDDEN', message: 'This API key lacks the required scope: users:write', details: [{ reason: 'MISSING_SCOPE', scope: 'users:write' }] } },
  });
  expect(await call('DELETE', `/v1/users/${bob.body.id}`)).toEqual({ status: 200, body: { deleted: true, id: bob.body.id } });
  expect(await call('GET', `/v1/users/${bob.body.id}`)).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND', message: 'User not found' } } });

  // The OpenAPI document lists it, tagged with the declaration's description.
  const doc = (await gateway.handle({ method: 'GET', path: '/v1/openapi.json' })).body;
  const openapi = JSON.parse(doc) as { paths: Record<string, Record<string, { operationId: string }>>; tags: Array<{ name: string; description: string }> };
  expect(
    Object.values(openapi.paths['/v1/users/{id}']!)
      .map((op) => op.operationId)
      .sort(),
  ).toEqual(['deleteUser', 'getUser', 'updateUser']);
  expect(openapi.tags).toContainEqual({ name: 'users', description: 'People who track time' });
});
