/**
 * Nothing of the route table is built at import that the first request does not need (issue 35): the
 * schemas of an entity's routes (`later` in shared/api/routes.ts) are built the first time they are read,
 * once. A function's module builds none; reading one route's schemas builds those alone; the OpenAPI
 * document, which reads every route, builds the rest. What this saves at a cold start is measured by
 * `npm run bench` (section 2), not here.
 */
type RoutesModule = typeof import('../../shared/api/routes');

function fresh<T>(load: () => T): T {
  let out: T | undefined;
  jest.isolateModules(() => {
    out = load();
  });
  return out!;
}

test("importing an entity's function builds none of the route table's schemas; reading a route builds its own, once", () => {
  const { routes, routeList, lazySchemasBuilt } = fresh(() => {
    require('../../functions/clients/index');
    return require('../../shared/api/routes') as RoutesModule;
  });
  expect(lazySchemasBuilt()).toBe(0);
  const route = routes.addClient;
  const body = route.body;
  const response = route.response;
  const afterOne = lazySchemasBuilt();
  expect(afterOne).toBeGreaterThan(0);
  // kept: the same schema objects on every read, through the table and its list alike
  expect(routes.addClient.body).toBe(body);
  expect(routeList.find((r) => r.id === 'addClient')!.response).toBe(response);
  expect(lazySchemasBuilt()).toBe(afterOne);
  // a real schema: it parses and refuses
  expect(body.safeParse({ name: 'Acme' }).success).toBe(true);
  expect(body.safeParse({ name: 42 }).success).toBe(false);
  // every other route's schemas were left unbuilt until read
  for (const r of routeList) void [r.params, r.query, r.body, r.response];
  expect(lazySchemasBuilt()).toBeGreaterThan(afterOne + 20);
});

test('the OpenAPI document builds every schema it describes: every route has the fields it declared', () => {
  const { buildOpenApi, routeList } = fresh(() => ({
    ...(require('../../shared/api/openapi') as typeof import('../../shared/api/openapi')),
    ...(require('../../shared/api/routes') as RoutesModule),
  }));
  const doc = buildOpenApi() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  for (const r of routeList) {
    const op = doc.paths[r.path]?.[r.method.toLowerCase()];
    expect({ id: r.id, documented: Boolean(op?.responses) }).toEqual({ id: r.id, documented: true });
    expect(r.response).toBeDefined();
  }
});
