import { apiClient, useTestTable } from '../support/harness';
import { routeList, type RouteId } from '../../shared/routes';
import { createInvoice } from '../../shared/entities/invoices';
import { dataSnapshot, err, workspaceWithKey } from './support';

/**
 * Workspaces are walls: a key of workspace B (every scope) addressing workspace A's records by their
 * real ids gets 404 "<Kind> not found" on every id route, sees none of A's records in any list, and
 * changes nothing. The routes come from the route table, so a new id route cannot be forgotten.
 */
useTestTable();
const api = apiClient();

const idRoutes = routeList.filter((r) => r.path.includes('{id}'));

test('another workspace\'s key gets 404 on every id route, sees nothing in lists, changes nothing', async () => {
  const a = await workspaceWithKey('wall-a');
  const b = await workspaceWithKey('wall-b');
  const post = async (path: string, body: unknown) => {
    const res = await api.post(path, body, { key: a.key });
    expect(res.status).toBe(201);
    return res.body;
  };
  const client = await post('/v1/clients', { name: 'Acme' });
  const project = await post('/v1/projects', { name: 'Site', clientId: client.id });
  const task = await post('/v1/tasks', { projectId: project.id, name: 'Design' });
  const tag = await post('/v1/tags', { name: 'urgent' });
  const favorite = await post('/v1/favorites', { userId: 'u1', name: 'Fav', taskId: task.id, tagIds: [tag.id] });
  const entry = await post('/v1/time-entries', { userId: 'u1', startTime: '2026-03-02T09:00:00Z', endTime: '2026-03-02T10:00:00Z', taskId: task.id, tagIds: [tag.id] });
  const invoice = await createInvoice(a.ws, {
    number: 'INV-1', clientId: client.id, status: 'draft', issueDate: '2026-03-01', dueDate: '2026-03-31', currency: 'USD',
    lineItems: [{ description: 'Work', quantity: 1, unitPrice: 100, amount: 100 }], subtotal: 100, tax: 0, total: 100,
  });

  const target: Record<string, { id: string; query?: Record<string, string>; body: unknown }> = {
    clients: { id: client.id, body: { name: 'Hijacked' } },
    projects: { id: project.id, body: { name: 'Hijacked' } },
    tasks: { id: task.id, body: { name: 'Hijacked' } },
    tags: { id: tag.id, body: { name: 'Hijacked' } },
    favorites: { id: favorite.id, query: { userId: 'u1' }, body: { name: 'Hijacked' } },
    'time-entries': { id: entry.id, query: { sortKey: entry.sortKey }, body: { notes: 'Hijacked' } },
    invoices: { id: invoice.id, body: {} },
  };
  const call = (route: (typeof idRoutes)[number], key: string) => {
    const t = target[route.resource]!;
    return api.call(route.method, route.path.replace('{id}', encodeURIComponent(t.id)), {
      key,
      ...(t.query ? { query: t.query } : {}),
      ...(route.method === 'PUT' ? { body: t.body } : {}),
    });
  };

  // the targets are real: A's own key reads each of them
  for (const route of idRoutes.filter((r) => r.method === 'GET')) expect([route.id, (await call(route, a.key)).status]).toEqual([route.id, 200]);

  const before = await dataSnapshot();
  const seen: RouteId[] = [];
  for (const route of idRoutes) {
    const res = await call(route, b.key);
    if (route.notImplemented) expect([route.id, err(res).status]).toEqual([route.id, 501]);
    else expect([route.id, err(res)]).toEqual([route.id, { status: 404, code: 'NOT_FOUND', message: `${route.kind} not found` }]);
    seen.push(route.id);
  }
  for (const route of routeList.filter((r) => r.method === 'GET' && !r.path.includes('{id}') && r.scope !== null)) {
    const res = await api.get(route.path, { key: b.key });
    expect([route.id, res.status, res.body.items]).toEqual([route.id, 200, []]);
  }
  expect(await dataSnapshot()).toEqual(before);
  expect(seen).toHaveLength(idRoutes.length);
  expect(new Set(idRoutes.map((r) => r.resource)).size).toBe(7);

  // and A's records are intact
  expect((await api.get(`/v1/clients/${client.id}`, { key: a.key })).body.name).toBe('Acme');
  expect((await api.get(`/v1/favorites/${favorite.id}`, { key: a.key, query: { userId: 'u1' } })).body.name).toBe('Fav');
});

test('references across workspaces are refused: 400 naming the field', async () => {
  const a = await workspaceWithKey('ref-a');
  const b = await workspaceWithKey('ref-b');
  const clientA = (await api.post('/v1/clients', { name: 'A' }, { key: a.key })).body;
  const projectA = (await api.post('/v1/projects', { name: 'PA' }, { key: a.key })).body;
  const tagA = (await api.post('/v1/tags', { name: 'ta' }, { key: a.key })).body;
  const before = await dataSnapshot();
  const cases: Array<[string, unknown, string]> = [
    ['/v1/projects', { name: 'P', clientId: clientA.id }, 'clientId'],
    ['/v1/tasks', { name: 'T', projectId: projectA.id }, 'projectId'],
    ['/v1/favorites', { userId: 'u', name: 'F', projectId: projectA.id }, 'projectId'],
    ['/v1/favorites', { userId: 'u', name: 'F', tagIds: [tagA.id] }, 'tagIds'],
    ['/v1/favorites', { userId: 'u', name: 'F', clientId: clientA.id }, 'clientId'],
  ];
  for (const [path, body, field] of cases) {
    const res = await api.post(path, body, { key: b.key });
    expect([path, err(res).status, res.body.error.details?.[0]?.field]).toEqual([path, 400, field]);
  }
  expect(await dataSnapshot()).toEqual(before);
});
