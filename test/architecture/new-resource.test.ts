import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type CfnElement } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { Template } from 'aws-cdk-lib/assertions';
import { NO_BUNDLING } from '../cdk/support';
import { useTestTable, newWorkspace } from '../support/harness';
import { applyEdits, checkout, documentedEdits } from './new-resource-experiment';

/**
 * docs/architecture.md, "Worked example: adding a plain resource": a resource is its entity declaration,
 * its line in the registry and a one-line function file. This test makes the three edits, read from the
 * document itself, in a copy of this checkout (its tracked and untracked files) and, with nothing mocked:
 *  - type-checks the copy's production code with a probe that uses the new entry as its types see it
 *    (`entityHandler(crudRoutes(users))`, the route `createUser`, the scope `users:write`, `repository(users)`);
 *  - synthesizes the copy's stack: a function `Fn-users` and its methods behind the authorizer;
 *  - serves the resource end to end through the copy's local gateway against DynamoDB Local (routes,
 *    scopes, validation, storage, OpenAPI).
 * The whole experiment (clients regenerated, `npm run typecheck`, the suites): new-resource-experiment.ts.
 */
useTestTable();

const edits = documentedEdits();
const dir = mkdtempSync(join(tmpdir(), 'new-resource-test-'));
beforeAll(() => {
  checkout(dir, 'worktree');
  applyEdits(dir, edits);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The copy's modules, loaded from the copy (so with the real registry entry): typed as this test uses them. */
const fromCopy = <T>(path: string): T => require(join(dir, path)) as T;

test('the copy type-checks with the new entry: handler, route ids, scopes and repository typed for users', () => {
  writeFileSync(
    join(dir, 'probe.ts'),
    [
      "import { entityHandler } from './shared/api/crud';",
      "import { routes, type RouteId } from './shared/api/routes';",
      "import type { Scope } from './shared/domain/auth';",
      "import { repository } from './shared/data/repository';",
      "import { users } from './shared/domain/entities/users';",
      "import { crudRoutes } from './shared/api/routes/define';",
      'export const handler = entityHandler(crudRoutes(users));',
      "export const ids: RouteId[] = ['listUsers', 'createUser', 'getUser', 'updateUser', 'deleteUser'];",
      "export const scopes: Scope[] = ['users:read', 'users:write'];",
      'export const create = routes.createUser;',
      'export const repo = repository(users);',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'tsconfig.probe.json'), JSON.stringify({ extends: './tsconfig.json', include: ['probe.ts', 'bin', 'lib', 'functions', 'shared', 'local', 'admin'] }));
  const tsc = spawnSync(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.probe.json'], { cwd: dir, encoding: 'utf8' });
  expect(tsc.stdout + tsc.stderr).toBe('');
  expect(tsc.status).toBe(0);
}, 180_000);

test('the copy synthesizes: a function for users and its five methods behind the authorizer', () => {
  const { TimeTrackingStack } = fromCopy<typeof import('../../lib/time-tracking-stack')>('lib/time-tracking-stack');
  const { stageConfig } = fromCopy<typeof import('../../lib/config')>('lib/config');
  const app = new App({ context: NO_BUNDLING, builtinCloudFormationValidation: false });
  const stack = new TimeTrackingStack(app, 'TimeTracking-dev', { config: stageConfig('dev') });
  const users = (stack.functions as Record<string, { fn: IConstruct } | undefined>).users;
  expect(users).toBeDefined();
  const fnId = stack.resolve((users!.fn.node.defaultChild as CfnElement).logicalId) as string;
  const json = Template.fromStack(stack).toJSON() as { Resources: Record<string, { Type: string; Properties?: Record<string, any> }> };
  expect(json.Resources[fnId]?.Type).toBe('AWS::Lambda::Function');
  const methods = Object.values(json.Resources).filter(
    (r) => r.Type === 'AWS::ApiGateway::Method' && r.Properties!.AuthorizationType === 'CUSTOM' && JSON.stringify(r.Properties!.Integration ?? {}).includes(fnId),
  );
  expect(methods.map((m) => m.Properties!.HttpMethod).sort()).toEqual(['DELETE', 'GET', 'GET', 'POST', 'PUT']);
});

test('the copy serves the plain resource end to end through its local gateway', async () => {
  type Gateway = { handle(req: { method: string; path: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string }> };
  const { createGateway } = fromCopy<{ createGateway(opts: { authCacheTtlSeconds: number }): Gateway }>('local/gateway');
  const { createApiKey } = fromCopy<{ createApiKey(input: { workspaceId: string; name: string; scopes: string[] }): Promise<{ key: string }> }>('shared/data/apikey-store');
  const { ROUTE_IDS } = fromCopy<{ ROUTE_IDS: string[] }>('shared/api/routes');
  const gateway = createGateway({ authCacheTtlSeconds: 300 });

  expect(ROUTE_IDS.filter((id) => /User/.test(id)).sort()).toEqual(['createUser', 'deleteUser', 'getUser', 'listUsers', 'updateUser']);
  const ws = newWorkspace('users');
  const { key } = await createApiKey({ workspaceId: ws, name: 'users', scopes: ['users:read', 'users:write'] });
  const { key: readOnly } = await createApiKey({ workspaceId: ws, name: 'ro', scopes: ['users:read'] });
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
