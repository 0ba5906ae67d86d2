import { apiClient, useTestTable } from '../support/harness';
import { err, workspaceWithKey } from './support';

/**
 * Bounded whole lists (docs/capacity.md, "Bounded whole lists"): clients, projects, tasks, tags and
 * favorites (per user) are returned whole, so a workspace may hold at most so many of them (MAX_CLIENTS,
 * ..., MAX_FAVORITES_PER_USER) weighing at most MAX_LIST_BYTES of JSON together. The counter is updated in
 * the record's transaction, so the bound is exact under concurrency. Limits are lowered here through the
 * same environment variables an operator sets.
 */
useTestTable();
const api = apiClient();
afterEach(() => {
  for (const v of ['MAX_TAGS', 'MAX_FAVORITES_PER_USER', 'MAX_LIST_BYTES', 'MAX_CLIENTS']) delete process.env[v];
});

test('20 concurrent creates at the boundary: never one record over; the refusals are 409 naming the limit', async () => {
  process.env.MAX_TAGS = '5';
  const { key } = await workspaceWithKey('bound-race');
  for (let i = 0; i < 3; i++) expect((await api.post('/v1/tags', { name: `t${i}` }, { key })).status).toBe(201);
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => api.post('/v1/tags', { name: `race${i}` }, { key })));
  const statuses = results.map((r) => r.status);
  // 503: a transaction that kept conflicting with the others on the counter (retryable; nothing written)
  expect(statuses.every((s) => s === 201 || s === 409 || s === 503)).toBe(true);
  expect(statuses.filter((s) => s === 201).length).toBeLessThanOrEqual(2);
  const refused = results.find((r) => r.status === 409)!;
  expect(err(refused)).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('at most 5 tags (MAX_TAGS)') });
  const listed = (await api.get('/v1/tags', { key })).body.items;
  expect(listed).toHaveLength(3 + statuses.filter((s) => s === 201).length);
  // fill to exactly the limit, then one more is refused; a delete frees a place
  while ((await api.get('/v1/tags', { key })).body.items.length < 5) await api.post('/v1/tags', { name: `fill${Date.now()}` }, { key });
  expect((await api.post('/v1/tags', { name: 'sixth' }, { key })).status).toBe(409);
  const one = (await api.get('/v1/tags', { key })).body.items[0];
  expect((await api.del(`/v1/tags/${one.id}`, { key })).status).toBe(200);
  expect((await api.post('/v1/tags', { name: 'sixth' }, { key })).status).toBe(201);
  expect((await api.get('/v1/tags', { key })).body.items).toHaveLength(5);
});

test('favorites are bounded per user: one user at the limit does not stop another', async () => {
  process.env.MAX_FAVORITES_PER_USER = '2';
  const { key } = await workspaceWithKey('bound-fav');
  for (const name of ['a', 'b']) expect((await api.post('/v1/favorites', { userId: 'u1', name }, { key })).status).toBe(201);
  const third = await api.post('/v1/favorites', { userId: 'u1', name: 'c' }, { key });
  expect(err(third)).toMatchObject({ status: 409, code: 'CONFLICT', message: expect.stringContaining('one user may hold at most 2 favorites (MAX_FAVORITES_PER_USER)') });
  expect((await api.post('/v1/favorites', { userId: 'u2', name: 'c' }, { key })).status).toBe(201);
});

test('the byte bound: a create or an update that would make the list too heavy is 409; shrinking is always allowed', async () => {
  process.env.MAX_LIST_BYTES = '3000';
  const { key } = await workspaceWithKey('bound-bytes');
  const a = (await api.post('/v1/clients', { name: 'A', notes: 'x'.repeat(1000) }, { key })).body;
  expect((await api.post('/v1/clients', { name: 'B', notes: 'x'.repeat(1000) }, { key })).status).toBe(201);
  const heavy = await api.post('/v1/clients', { name: 'C', notes: 'x'.repeat(1000) }, { key });
  expect(err(heavy)).toMatchObject({ status: 409, code: 'CONFLICT', message: expect.stringContaining('MAX_LIST_BYTES') });
  const grow = await api.put(`/v1/clients/${a.id}`, { notes: 'x'.repeat(2000) }, { key });
  expect(grow.status).toBe(409);
  expect((await api.put(`/v1/clients/${a.id}`, { notes: 'short' }, { key })).status).toBe(200);
  expect((await api.post('/v1/clients', { name: 'C', notes: 'x'.repeat(500) }, { key })).status).toBe(201);
  // the whole list stays under the bound
  const list = await api.get('/v1/clients', { key });
  expect(Buffer.byteLength(JSON.stringify(list.body.items))).toBeLessThanOrEqual(3000 + 10);
});
