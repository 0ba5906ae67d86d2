import { apiClient, makeKey, newWorkspace, tableSnapshot, useTestTable } from '../support/harness';

useTestTable();
const api = apiClient();

describe('clients CRUD', () => {
  let ws: string;
  let key: string;
  beforeEach(async () => {
    ws = newWorkspace();
    key = await makeKey(ws);
  });

  test('create returns 201 with server-set fields; get returns the same object', async () => {
    const res = await api.post('/v1/clients', { name: '  Acme  ', email: 'a@acme.example', currency: 'EUR', id: 'ignored', createdAt: 'ignored' }, { key });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Acme', email: 'a@acme.example', currency: 'EUR', archived: false });
    expect(res.body.id).toMatch(/^[0-9A-Z]{26}$/);
    expect(res.body.createdAt).toBe(res.body.updatedAt);
    expect(Object.keys(res.body).filter((k) => /^(PK|SK|GSI|_|ttl)/.test(k))).toEqual([]);
    const got = await api.get(`/v1/clients/${res.body.id}`, { key });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  test('list is sorted by name, case-insensitively, and only has this workspace', async () => {
    for (const name of ['beta', 'Alpha', 'gamma']) expect((await api.post('/v1/clients', { name }, { key })).status).toBe(201);
    const other = await makeKey(newWorkspace());
    await api.post('/v1/clients', { name: 'Other workspace' }, { key: other });
    const list = await api.get('/v1/clients', { key });
    expect(list.body.items.map((c: { name: string }) => c.name)).toEqual(['Alpha', 'beta', 'gamma']);
  });

  test('update merges: unsent fields keep values, null clears optional fields, name stays required', async () => {
    const c = (await api.post('/v1/clients', { name: 'Acme', email: 'a@acme.example', notes: 'n' }, { key })).body;
    const upd = await api.put(`/v1/clients/${c.id}`, { notes: null, address: '1 Main St' }, { key });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ name: 'Acme', email: 'a@acme.example', address: '1 Main St' });
    expect(upd.body).not.toHaveProperty('notes');
    expect(upd.body.createdAt).toBe(c.createdAt);
    expect(upd.body.updatedAt >= c.updatedAt).toBe(true);
    const bad = await api.put(`/v1/clients/${c.id}`, { name: null }, { key });
    expect(bad.status).toBe(400);
    expect((await api.get(`/v1/clients/${c.id}`, { key })).body).toEqual(upd.body);
  });

  test('archiving keeps every field', async () => {
    const c = (await api.post('/v1/clients', { name: 'Acme', email: 'a@acme.example' }, { key })).body;
    const upd = await api.put(`/v1/clients/${c.id}`, { archived: true }, { key });
    expect(upd.body).toMatchObject({ name: 'Acme', email: 'a@acme.example', archived: true });
  });

  test('delete returns a confirmation, then the client is gone (404 naming the kind)', async () => {
    const c = (await api.post('/v1/clients', { name: 'Acme' }, { key })).body;
    const del = await api.del(`/v1/clients/${c.id}`, { key });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ deleted: true, id: c.id });
    const again = await api.get(`/v1/clients/${c.id}`, { key });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: { code: 'NOT_FOUND', message: 'Client not found' } });
    expect((await api.del(`/v1/clients/${c.id}`, { key })).status).toBe(404);
    expect((await api.put(`/v1/clients/${c.id}`, { name: 'x' }, { key })).status).toBe(404);
    // the name is free again
    expect((await api.post('/v1/clients', { name: 'ACME' }, { key })).status).toBe(201);
  });

  test('names are unique per workspace, case-insensitively, on create and rename', async () => {
    const a = (await api.post('/v1/clients', { name: 'Acme' }, { key })).body;
    const before = await tableSnapshot();
    const dup = await api.post('/v1/clients', { name: 'aCME' }, { key });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('CONFLICT');
    expect(dup.body.error.message).toContain('aCME');
    expect(await tableSnapshot()).toEqual(before);
    const b = (await api.post('/v1/clients', { name: 'Globex' }, { key })).body;
    const rename = await api.put(`/v1/clients/${b.id}`, { name: 'ACME' }, { key });
    expect(rename.status).toBe(409);
    expect((await api.get(`/v1/clients/${b.id}`, { key })).body.name).toBe('Globex');
    // renaming to a different case of its own name is fine, and frees nothing else
    expect((await api.put(`/v1/clients/${a.id}`, { name: 'ACME Corp' }, { key })).status).toBe(200);
    expect((await api.post('/v1/clients', { name: 'acme' }, { key })).status).toBe(201);
    // another workspace may use the same name
    expect((await api.post('/v1/clients', { name: 'Acme' }, { key: await makeKey(newWorkspace()) })).status).toBe(201);
  });

  test('concurrent creates of one name: exactly one wins', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => api.post('/v1/clients', { name: 'Race' }, { key })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    expect((await api.get('/v1/clients', { key })).body.items).toHaveLength(1);
  });

  test('concurrent updates of different fields: none is lost', async () => {
    const c = (await api.post('/v1/clients', { name: 'Acme' }, { key })).body;
    const patches = [{ email: 'x@acme.example' }, { address: 'Somewhere' }, { notes: 'hello' }, { currency: 'GBP' }];
    const res = await Promise.all(patches.map((p) => api.put(`/v1/clients/${c.id}`, p, { key })));
    expect(res.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await api.get(`/v1/clients/${c.id}`, { key })).body).toMatchObject(Object.assign({}, ...patches));
  });
});

describe('clients validation: 400 VALIDATION_ERROR and nothing changes', () => {
  let key: string;
  beforeAll(async () => {
    key = await makeKey(newWorkspace());
  });
  const cases: Array<[string, unknown, string]> = [
    ['missing name', {}, 'name'],
    ['empty name', { name: '   ' }, 'name'],
    ['name too long', { name: 'x'.repeat(256) }, 'name'],
    ['wrong type', { name: 42 }, 'name'],
    ['unknown field', { name: 'A', colour: 'red' }, 'colour'],
    ['bad email', { name: 'A', email: 'not-an-email' }, 'email'],
    ['bad currency', { name: 'A', currency: 'euro' }, 'currency'],
    ['notes too long', { name: 'A', notes: 'n'.repeat(10_001) }, 'notes'],
    ['archived not boolean', { name: 'A', archived: 'yes' }, 'archived'],
    ['array body', [{ name: 'A' }], 'body'],
    ['null body', null, 'body'],
  ];
  test.each(cases)('%s', async (_label, body, field) => {
    const before = await tableSnapshot();
    const res = await api.call('POST', '/v1/clients', { key, rawBody: JSON.stringify(body) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await tableSnapshot()).toEqual(before);
  });

  test('malformed JSON is a 400 naming the body', async () => {
    const res = await api.call('POST', '/v1/clients', { key, rawBody: '{"name": "A",' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'VALIDATION_ERROR', message: 'Request body must be valid JSON', details: [{ field: 'body', message: 'malformed JSON' }] } });
  });

  test('missing body on create and update is a 400', async () => {
    expect((await api.call('POST', '/v1/clients', { key })).status).toBe(400);
    expect((await api.call('PUT', '/v1/clients/01ABC', { key })).status).toBe(400);
  });

  test('unknown query parameters and over-long ids are 400', async () => {
    const q = await api.get('/v1/clients?foo=1', { key });
    expect(q.status).toBe(400);
    expect(q.body.error.details[0].field).toBe('foo');
    const long = await api.get(`/v1/clients/${'x'.repeat(129)}`, { key });
    expect(long.status).toBe(400);
  });
});

describe('workspace isolation', () => {
  test('another workspace cannot read, change or delete a client', async () => {
    const owner = await makeKey(newWorkspace());
    const intruder = await makeKey(newWorkspace());
    const c = (await api.post('/v1/clients', { name: 'Secret' }, { key: owner })).body;
    const before = await tableSnapshot();
    for (const res of [
      await api.get(`/v1/clients/${c.id}`, { key: intruder }),
      await api.put(`/v1/clients/${c.id}`, { name: 'Pwned' }, { key: intruder }),
      await api.del(`/v1/clients/${c.id}`, { key: intruder }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect((await api.get('/v1/clients', { key: intruder })).body.items).toEqual([]);
    expect(await tableSnapshot()).toEqual(before);
    expect((await api.get(`/v1/clients/${c.id}`, { key: owner })).body).toEqual(c);
  });
});
