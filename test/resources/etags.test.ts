import { apiClient, useTestTable } from '../support/harness';
import { assertWorkspaceInvariants } from '../faults/invariants';
import { err, workspaceWithKey } from './support';

/**
 * Versions and conditional requests (RFC 9110): every single-resource answer carries a strong ETag (also
 * the record's `etag` field, in list items too); If-Match on PUT and DELETE is part of the conditional
 * write itself (412 PRECONDITION_FAILED, nothing changed); If-None-Match on GET answers 304. Against
 * DynamoDB Local, through the local gateway.
 */
useTestTable();
const api = apiClient();

async function setup(label: string) {
  const { ws, key } = await workspaceWithKey(label);
  const client = await api.post('/v1/clients', { name: 'Acme', notes: 'a' }, { key });
  return { ws, key, client };
}

test('POST, GET and PUT carry the ETag header, equal to the body etag and to the list item etag; it changes with every update', async () => {
  const { key, client } = await setup('etag');
  expect(client.status).toBe(201);
  expect(client.headers.ETag).toBe('"1"');
  expect(client.body.etag).toBe('"1"');
  const got = await api.get(`/v1/clients/${client.body.id}`, { key });
  expect([got.headers.ETag, got.body.etag]).toEqual(['"1"', '"1"']);
  const upd = await api.put(`/v1/clients/${client.body.id}`, { notes: 'b' }, { key });
  expect([upd.headers.ETag, upd.body.etag]).toEqual(['"2"', '"2"']);
  const renamed = await api.put(`/v1/clients/${client.body.id}`, { name: 'Acme 2' }, { key });
  expect(renamed.headers.ETag).toBe('"3"');
  expect((await api.get('/v1/clients', { key })).body.items).toEqual([renamed.body]);
  // A usage counter on the record (a project naming the client) is not a change of the record: same ETag.
  await api.post('/v1/projects', { name: 'Site', clientId: client.body.id }, { key });
  expect((await api.get(`/v1/clients/${client.body.id}`, { key })).headers.ETag).toBe('"3"');
});

test('If-None-Match: the current ETag (or *, or its weak form) is 304 without a body, and still counts toward the rate limit', async () => {
  const { key, client } = await setup('inm');
  const path = `/v1/clients/${client.body.id}`;
  const before = await api.get(path, { key });
  const remaining = (h: Record<string, string>) => Number(/"minute";r=(\d+)/.exec(h.RateLimit ?? '')?.[1]);
  for (const tag of ['"1"', '*', 'W/"1"', '"9", "1"']) {
    const res = await api.get(path, { key, headers: { 'If-None-Match': tag } });
    expect({ tag, status: res.status, text: res.text, etag: res.headers.ETag }).toEqual({ tag, status: 304, text: '', etag: '"1"' });
  }
  const after = await api.get(path, { key, headers: { 'If-None-Match': '"2"' } });
  expect(after.status).toBe(200);
  expect(after.body).toEqual(before.body);
  expect(remaining(before.headers) - remaining(after.headers)).toBe(5); // four 304s and this 200 were counted
  expect(err(await api.get('/v1/clients/01NOPE', { key, headers: { 'If-None-Match': '*' } }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
});

test('If-Match on PUT: a stale or weak ETag is 412 and changes nothing; the current one or * updates; an unknown id is 404', async () => {
  const { key, client } = await setup('im-put');
  const path = `/v1/clients/${client.body.id}`;
  await api.put(path, { notes: 'b' }, { key }); // now "2"
  for (const [tag, body] of [
    ['"1"', { notes: 'stale' }],
    ['W/"2"', { notes: 'weak' }],
    ['garbage', { notes: 'garbage' }],
    ['"1"', { name: 'Renamed' }], // a coupled field: the read-merge-write path
  ] as const) {
    const res = await api.put(path, body, { key, headers: { 'If-Match': tag } });
    expect({ tag, ...err(res) }).toMatchObject({ tag, status: 412, code: 'PRECONDITION_FAILED' });
  }
  const unchanged = await api.get(path, { key });
  expect(unchanged.body).toMatchObject({ name: 'Acme', notes: 'b', etag: '"2"' });
  const ok = await api.put(path, { notes: 'c' }, { key, headers: { 'If-Match': '"9", "2"' } });
  expect([ok.status, ok.headers.ETag]).toEqual([200, '"3"']);
  const any = await api.put(path, { name: 'Renamed' }, { key, headers: { 'If-Match': '*' } });
  expect([any.status, any.body.name, any.headers.ETag]).toEqual([200, 'Renamed', '"4"']);
  expect(err(await api.put('/v1/clients/01NOPE', { notes: 'x' }, { key, headers: { 'If-Match': '*' } }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  expect(err(await api.put('/v1/clients/01NOPE', { name: 'x' }, { key, headers: { 'If-Match': '"1"' } }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
});

test('If-Match on DELETE: stale is 412 and the record stays (one-call and transactional deletes); current deletes', async () => {
  const { key, client } = await setup('im-del');
  const project = (await api.post('/v1/projects', { name: 'Solo' }, { key })).body; // deleted by one conditional Delete
  const entry = (await api.post('/v1/time-entries', { userId: 'u1', startTime: '2026-03-02T09:00:00Z' }, { key })).body;
  const targets = [
    { path: `/v1/clients/${client.body.id}`, query: {} }, // unique lock: read + transaction
    { path: `/v1/projects/${project.id}`, query: {} },
    { path: `/v1/time-entries/${entry.id}`, query: { sortKey: entry.sortKey } },
  ];
  for (const t of targets) {
    const res = await api.del(t.path, { key, query: t.query, headers: { 'If-Match': '"7"' } });
    expect({ path: t.path, ...err(res) }).toMatchObject({ path: t.path, status: 412, code: 'PRECONDITION_FAILED' });
    expect((await api.get(t.path, { key, query: t.query })).status).toBe(200);
    const ok = await api.del(t.path, { key, query: t.query, headers: { 'If-Match': '"1"' } });
    expect(ok.status).toBe(200);
    expect((await api.get(t.path, { key, query: t.query })).status).toBe(404);
  }
});

test.each([
  ['a plain field (one UpdateItem)', { notes: 'mine' }],
  ['a unique name (read, then a versioned transaction)', { name: 'Mine' }],
])('20 concurrent PUTs of %s with the same If-Match: exactly one 200, nineteen 412', async (_label, body) => {
  const { ws, key, client } = await setup('im-race');
  const path = `/v1/clients/${client.body.id}`;
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) => api.put(path, 'name' in body ? { name: `${body.name} ${i}` } : { notes: `${body.notes} ${i}` }, { key, headers: { 'If-Match': '"1"' } })),
  );
  const statuses = results.map((r) => r.status).sort();
  expect(statuses).toEqual([200, ...Array.from({ length: 19 }, () => 412)]);
  const winner = results.find((r) => r.status === 200)!;
  expect(await api.get(path, { key })).toMatchObject({ status: 200, body: { ...winner.body, etag: '"2"' } });
  await assertWorkspaceInvariants(ws); // one lock, for the winner's name
});
