import { apiClient, useTestTable } from '../support/harness';
import { dataSnapshot, err, fields, workspaceWithKey } from './support';

/** Projects, tasks and tags (and the client rules they depend on), against DynamoDB Local. */
useTestTable();
const api = apiClient();

const INTERNAL = ['PK', 'SK', '_v', '_type', 'GSI1PK', 'GSI1SK'];
const expectNoInternals = (rec: Record<string, unknown>) => {
  for (const k of Object.keys(rec)) expect(k.startsWith('_') || INTERNAL.includes(k)).toBe(false);
};

async function setup() {
  const { ws, key } = await workspaceWithKey('catalog');
  const post = async (path: string, body: unknown) => api.post(path, body, { key });
  const client = (await post('/v1/clients', { name: `Client ${ws}` })).body;
  return { ws, key, post, client };
}

describe('projects', () => {
  test('create: defaults, server fields, no storage attributes', async () => {
    const { key } = await setup();
    const res = await api.post('/v1/projects', { name: '  Website  ' }, { key });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Website', billable: true, archived: false });
    expect(res.body.id).toMatch(/^[0-9A-Z]{26}$/);
    expect(Date.parse(res.body.createdAt)).not.toBeNaN();
    expect(res.body.updatedAt).toBe(res.body.createdAt);
    expectNoInternals(res.body);
    const got = await api.get(`/v1/projects/${res.body.id}`, { key });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  test('create with every field', async () => {
    const { key, client } = await setup();
    const body = { name: 'Full', clientId: client.id, color: '#1A2b3C', billable: false, hourlyRate: 0, currency: 'EUR', archived: true, notes: 'n'.repeat(10_000) };
    const res = await api.post('/v1/projects', body, { key });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject(body);
  });

  test.each([
    ['empty name', { name: '' }, 'name'],
    ['blank name', { name: '   ' }, 'name'],
    ['name over 255', { name: 'x'.repeat(256) }, 'name'],
    ['missing name', { color: '#000000' }, 'name'],
    ['bad color', { name: 'P', color: 'red' }, 'color'],
    ['short color', { name: 'P', color: '#FFF' }, 'color'],
    ['negative hourlyRate', { name: 'P', hourlyRate: -0.01 }, 'hourlyRate'],
    ['hourlyRate as string', { name: 'P', hourlyRate: '10' }, 'hourlyRate'],
    ['lower-case currency', { name: 'P', currency: 'usd' }, 'currency'],
    ['notes over 10000', { name: 'P', notes: 'n'.repeat(10_001) }, 'notes'],
    ['clientId over 128', { name: 'P', clientId: 'c'.repeat(129) }, 'clientId'],
    ['billable not boolean', { name: 'P', billable: 'yes' }, 'billable'],
    ['archived null on create', { name: 'P', archived: null }, 'archived'],
  ])('create rejects %s with 400 naming the field, writing nothing', async (_label, body, field) => {
    const { key } = await setup();
    const before = await dataSnapshot();
    const res = await api.post('/v1/projects', body, { key });
    expect(err(res)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(fields(res)).toContain(field);
    expect(await dataSnapshot()).toEqual(before);
  });

  test('a 255-character name (multi-byte) is accepted', async () => {
    const { key } = await setup();
    const name = 'é'.repeat(200) + 'あ'.repeat(55);
    const res = await api.post('/v1/projects', { name }, { key });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe(name);
  });

  test('unknown fields: 400 naming each; read-only fields are ignored', async () => {
    const { key } = await setup();
    const bad = await api.post('/v1/projects', { name: 'P', colour: '#000000', budget: 3 }, { key });
    expect(err(bad)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(bad.body.error.message).toMatch(/colour/);
    expect(bad.body.error.message).toMatch(/budget/);
    const ok = await api.post('/v1/projects', { name: 'P', id: 'mine', createdAt: '2000-01-01T00:00:00Z', updatedAt: 'x' }, { key });
    expect(ok.status).toBe(201);
    expect(ok.body.id).not.toBe('mine');
    expect(ok.body.createdAt).not.toBe('2000-01-01T00:00:00Z');
    const upd = await api.put(`/v1/projects/${ok.body.id}`, { id: 'other', createdAt: '2000-01-01T00:00:00Z', notes: 'x' }, { key });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ id: ok.body.id, createdAt: ok.body.createdAt, notes: 'x' });
  });

  test('malformed, missing and non-object bodies: 400', async () => {
    const { key } = await setup();
    for (const opts of [{ rawBody: '{"name":' }, { rawBody: '[1,2]' }, { rawBody: '"text"' }, {}]) {
      const res = await api.call('POST', '/v1/projects', { key, ...opts });
      expect(err(res)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    }
  });

  test('an unknown clientId (or one of another workspace): 400 naming clientId, nothing written', async () => {
    const { key } = await setup();
    const other = await setup();
    const before = await dataSnapshot();
    for (const clientId of ['01NOPE0000000000000000000', other.client.id]) {
      const res = await api.post('/v1/projects', { name: 'P', clientId }, { key });
      expect(err(res)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
      expect(fields(res)).toEqual(['clientId']);
    }
    expect(await dataSnapshot()).toEqual(before);
  });

  test('deleting a client its project uses: 409 naming the projects; archiving the project keeps its fields', async () => {
    const { key, client } = await setup();
    const project = (await api.post('/v1/projects', { name: 'Site', clientId: client.id, color: '#112233', hourlyRate: 120, currency: 'USD', notes: 'keep' }, { key })).body;
    const before = await dataSnapshot();
    const del = await api.del(`/v1/clients/${client.id}`, { key });
    expect(err(del)).toMatchObject({ status: 409, code: 'CONFLICT' });
    expect(del.body.error.message).toMatch(/1 project/);
    expect(await dataSnapshot()).toEqual(before);

    const archived = await api.put(`/v1/projects/${project.id}`, { archived: true }, { key });
    expect(archived.status).toBe(200);
    expect(archived.body).toEqual({ ...project, archived: true, updatedAt: archived.body.updatedAt, etag: archived.body.etag });
    // archiving does not release the client: the project still names it
    expect((await api.del(`/v1/clients/${client.id}`, { key })).status).toBe(409);
    // unarchiving works too
    expect((await api.put(`/v1/projects/${project.id}`, { archived: false }, { key })).body.archived).toBe(false);

    // the client can be archived while used
    const archivedClient = await api.put(`/v1/clients/${client.id}`, { archived: true }, { key });
    expect(archivedClient.status).toBe(200);
    expect(archivedClient.body).toMatchObject({ name: client.name, archived: true });

    // clearing the reference (null) releases the client
    const cleared = await api.put(`/v1/projects/${project.id}`, { clientId: null }, { key });
    expect(cleared.status).toBe(200);
    expect(cleared.body.clientId).toBeUndefined();
    expect(await api.del(`/v1/clients/${client.id}`, { key })).toMatchObject({ status: 200, body: { deleted: true, id: client.id } });
  });

  test('moving a project to another client moves the usage', async () => {
    const { key, client, post } = await setup();
    const c2 = (await post('/v1/clients', { name: 'Second' })).body;
    const p = (await post('/v1/projects', { name: 'P', clientId: client.id })).body;
    expect((await api.put(`/v1/projects/${p.id}`, { clientId: c2.id }, { key })).status).toBe(200);
    expect((await api.del(`/v1/clients/${c2.id}`, { key })).status).toBe(409);
    expect((await api.del(`/v1/clients/${client.id}`, { key })).status).toBe(200);
    const bad = await api.put(`/v1/projects/${p.id}`, { clientId: client.id }, { key });
    expect(err(bad)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(fields(bad)).toEqual(['clientId']);
    expect((await api.get(`/v1/projects/${p.id}`, { key })).body.clientId).toBe(c2.id);
  });

  test('update merges: unsent fields keep their value, null clears optional fields, required/defaulted cannot be null', async () => {
    const { key } = await setup();
    const p = (await api.post('/v1/projects', { name: 'Merge', color: '#000000', hourlyRate: 50, currency: 'USD', notes: 'a', billable: false }, { key })).body;
    const upd = await api.put(`/v1/projects/${p.id}`, { notes: 'b' }, { key });
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ ...p, notes: 'b', updatedAt: upd.body.updatedAt, etag: upd.body.etag });
    expect(upd.body.updatedAt >= p.updatedAt).toBe(true);
    const cleared = await api.put(`/v1/projects/${p.id}`, { color: null, hourlyRate: null, currency: null, notes: null }, { key });
    expect(cleared.status).toBe(200);
    for (const f of ['color', 'hourlyRate', 'currency', 'notes']) expect(cleared.body).not.toHaveProperty(f);
    expect(cleared.body).toMatchObject({ name: 'Merge', billable: false, archived: false });
    for (const body of [{ name: null }, { billable: null }, { archived: null }]) {
      const res = await api.put(`/v1/projects/${p.id}`, body, { key });
      expect(err(res)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
      expect(fields(res)).toEqual(Object.keys(body));
    }
    const unknown = await api.put(`/v1/projects/${p.id}`, { nam: 'x' }, { key });
    expect(err(unknown)).toMatchObject({ status: 400 });
    expect(unknown.body.error.message).toMatch(/nam/);
    expect((await api.get(`/v1/projects/${p.id}`, { key })).body).toEqual(cleared.body);
  });

  test('project names are not unique (product.md): two clients may each have a "Website"', async () => {
    const { key } = await setup();
    expect((await api.post('/v1/projects', { name: 'Website' }, { key })).status).toBe(201);
    expect((await api.post('/v1/projects', { name: 'website' }, { key })).status).toBe(201);
  });

  test('get, update, delete of a missing project: 404 "Project not found"', async () => {
    const { key } = await setup();
    for (const res of [
      await api.get('/v1/projects/01MISSING00000000000000000', { key }),
      await api.put('/v1/projects/01MISSING00000000000000000', { name: 'x' }, { key }),
      await api.del('/v1/projects/01MISSING00000000000000000', { key }),
    ]) {
      expect(err(res)).toEqual({ status: 404, code: 'NOT_FOUND', message: 'Project not found' });
    }
  });

  test('list: whole list sorted by name (case-insensitive), only this workspace, no query parameters', async () => {
    const { key } = await setup();
    const other = await setup();
    await api.post('/v1/projects', { name: 'elsewhere' }, { key: other.key });
    for (const name of ['beta', 'Alpha', 'gamma', 'Beta2', 'alpha2']) await api.post('/v1/projects', { name }, { key });
    const res = await api.get('/v1/projects', { key });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['items']);
    expect(res.body.items.map((p: { name: string }) => p.name)).toEqual(['Alpha', 'alpha2', 'beta', 'Beta2', 'gamma']);
    res.body.items.forEach(expectNoInternals);
    expect(err(await api.get('/v1/projects?limit=5', { key }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  });

  test('deleting a project its tasks use: 409 naming the tasks; after the task goes it deletes', async () => {
    const { key } = await setup();
    const p = (await api.post('/v1/projects', { name: 'P' }, { key })).body;
    const t1 = (await api.post('/v1/tasks', { projectId: p.id, name: 'T1' }, { key })).body;
    const t2 = (await api.post('/v1/tasks', { projectId: p.id, name: 'T2' }, { key })).body;
    const del = await api.del(`/v1/projects/${p.id}`, { key });
    expect(err(del)).toMatchObject({ status: 409, code: 'CONFLICT' });
    expect(del.body.error.message).toMatch(/2 task/);
    await api.del(`/v1/tasks/${t1.id}`, { key });
    expect(err(await api.del(`/v1/projects/${p.id}`, { key }))).toMatchObject({ status: 409, message: expect.stringMatching(/1 task/) });
    await api.del(`/v1/tasks/${t2.id}`, { key });
    expect(await api.del(`/v1/projects/${p.id}`, { key })).toMatchObject({ status: 200, body: { deleted: true, id: p.id } });
    expect((await api.get(`/v1/projects/${p.id}`, { key })).status).toBe(404);
  });
});

describe('tasks', () => {
  async function withProject() {
    const s = await setup();
    const project = (await s.post('/v1/projects', { name: 'Proj' })).body;
    return { ...s, project };
  }

  test('create: defaults and every field', async () => {
    const { key, project } = await withProject();
    const min = await api.post('/v1/tasks', { projectId: project.id, name: 'Design' }, { key });
    expect(min.status).toBe(201);
    expect(min.body).toMatchObject({ projectId: project.id, name: 'Design', status: 'active' });
    expect(min.body).not.toHaveProperty('billable');
    expectNoInternals(min.body);
    const full = await api.post('/v1/tasks', { projectId: project.id, name: 'Build', status: 'done', estimateMinutes: 0, billable: false }, { key });
    expect(full.body).toMatchObject({ status: 'done', estimateMinutes: 0, billable: false });
  });

  test('a task without projectId: 400 naming projectId; an unknown projectId: 400; nothing written', async () => {
    const { key } = await withProject();
    const before = await dataSnapshot();
    const missing = await api.post('/v1/tasks', { name: 'Orphan' }, { key });
    expect(err(missing)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(fields(missing)).toEqual(['projectId']);
    const unknown = await api.post('/v1/tasks', { name: 'Orphan', projectId: '01UNKNOWN0000000000000000' }, { key });
    expect(err(unknown)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(fields(unknown)).toEqual(['projectId']);
    expect(await dataSnapshot()).toEqual(before);
  });

  test.each([
    ['bad status', { status: 'open' }, 'status'],
    ['fractional estimate', { estimateMinutes: 1.5 }, 'estimateMinutes'],
    ['negative estimate', { estimateMinutes: -1 }, 'estimateMinutes'],
    ['empty name', { name: '' }, 'name'],
    ['billable string', { billable: 'no' }, 'billable'],
  ])('create rejects %s', async (_l, patch, field) => {
    const { key, project } = await withProject();
    const res = await api.post('/v1/tasks', { projectId: project.id, name: 'T', ...patch }, { key });
    expect(err(res)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(fields(res)).toContain(field);
  });

  test('a duplicate name within a project (any case, trimmed): 409; the same name in another project: 201', async () => {
    const { key, project, post } = await withProject();
    const other = (await post('/v1/projects', { name: 'Other' })).body;
    expect((await api.post('/v1/tasks', { projectId: project.id, name: 'Review' }, { key })).status).toBe(201);
    const before = await dataSnapshot();
    for (const name of ['Review', 'REVIEW', '  review ']) {
      const dup = await api.post('/v1/tasks', { projectId: project.id, name }, { key });
      expect(err(dup)).toMatchObject({ status: 409, code: 'CONFLICT', message: expect.stringMatching(/already exists in this project/) });
    }
    expect(await dataSnapshot()).toEqual(before);
    expect((await api.post('/v1/tasks', { projectId: other.id, name: 'review' }, { key })).status).toBe(201);
  });

  test('rename: to a taken name 409 (nothing changes); a case change of its own name is fine; the old name is freed', async () => {
    const { key, project } = await withProject();
    const a = (await api.post('/v1/tasks', { projectId: project.id, name: 'A' }, { key })).body;
    await api.post('/v1/tasks', { projectId: project.id, name: 'B' }, { key });
    const before = await dataSnapshot();
    expect(err(await api.put(`/v1/tasks/${a.id}`, { name: 'b' }, { key }))).toMatchObject({ status: 409, code: 'CONFLICT' });
    expect(await dataSnapshot()).toEqual(before);
    expect((await api.put(`/v1/tasks/${a.id}`, { name: 'a' }, { key })).body.name).toBe('a');
    expect((await api.put(`/v1/tasks/${a.id}`, { name: 'C' }, { key })).body.name).toBe('C');
    expect((await api.post('/v1/tasks', { projectId: project.id, name: 'A' }, { key })).status).toBe(201);
  });

  test('projectId cannot be cleared or changed; same value is accepted', async () => {
    const { key, project, post } = await withProject();
    const other = (await post('/v1/projects', { name: 'Other' })).body;
    const t = (await api.post('/v1/tasks', { projectId: project.id, name: 'T' }, { key })).body;
    const nul = await api.put(`/v1/tasks/${t.id}`, { projectId: null }, { key });
    expect(err(nul)).toMatchObject({ status: 400 });
    expect(fields(nul)).toEqual(['projectId']);
    const move = await api.put(`/v1/tasks/${t.id}`, { projectId: other.id }, { key });
    expect(err(move)).toMatchObject({ status: 400 });
    expect(fields(move)).toEqual(['projectId']);
    const same = await api.put(`/v1/tasks/${t.id}`, { projectId: project.id, status: 'done', estimateMinutes: 30 }, { key });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ projectId: project.id, status: 'done', estimateMinutes: 30 });
    const cleared = await api.put(`/v1/tasks/${t.id}`, { estimateMinutes: null }, { key });
    expect(cleared.body).not.toHaveProperty('estimateMinutes');
    expect(err(await api.put(`/v1/tasks/${t.id}`, { status: null }, { key }))).toMatchObject({ status: 400 });
  });

  test('list: sorted by name, optional projectId filter', async () => {
    const { key, project, post } = await withProject();
    const other = (await post('/v1/projects', { name: 'Other' })).body;
    for (const name of ['zeta', 'Alpha', 'mid']) await api.post('/v1/tasks', { projectId: project.id, name }, { key });
    await api.post('/v1/tasks', { projectId: other.id, name: 'beta' }, { key });
    const all = await api.get('/v1/tasks', { key });
    expect(all.body.items.map((t: { name: string }) => t.name)).toEqual(['Alpha', 'beta', 'mid', 'zeta']);
    const one = await api.get(`/v1/tasks?projectId=${project.id}`, { key });
    expect(one.body.items.map((t: { name: string }) => t.name)).toEqual(['Alpha', 'mid', 'zeta']);
    expect((await api.get('/v1/tasks?projectId=01NONE', { key })).body).toEqual({ items: [] });
    expect(err(await api.get('/v1/tasks?project=1', { key }))).toMatchObject({ status: 400 });
  });

  test('missing task: 404 "Task not found"', async () => {
    const { key } = await withProject();
    expect(err(await api.get('/v1/tasks/nope', { key }))).toEqual({ status: 404, code: 'NOT_FOUND', message: 'Task not found' });
    expect(err(await api.del('/v1/tasks/nope', { key }))).toEqual({ status: 404, code: 'NOT_FOUND', message: 'Task not found' });
  });
});

describe('tags', () => {
  test('create, get, list sorted, archive keeps the name, delete', async () => {
    const { key } = await setup();
    const urgent = await api.post('/v1/tags', { name: 'urgent' }, { key });
    expect(urgent.status).toBe(201);
    expect(urgent.body).toMatchObject({ name: 'urgent', archived: false });
    await api.post('/v1/tags', { name: 'Billing' }, { key });
    expect((await api.get('/v1/tags', { key })).body.items.map((t: { name: string }) => t.name)).toEqual(['Billing', 'urgent']);
    const archived = await api.put(`/v1/tags/${urgent.body.id}`, { archived: true }, { key });
    expect(archived.body).toEqual({ ...urgent.body, archived: true, updatedAt: archived.body.updatedAt, etag: archived.body.etag });
    expect(await api.del(`/v1/tags/${urgent.body.id}`, { key })).toMatchObject({ status: 200, body: { deleted: true, id: urgent.body.id } });
    expect(err(await api.get(`/v1/tags/${urgent.body.id}`, { key }))).toEqual({ status: 404, code: 'NOT_FOUND', message: 'Tag not found' });
  });

  test('a duplicate tag name in any case: 409 and nothing written; a deleted tag frees its name', async () => {
    const { key } = await setup();
    const t = (await api.post('/v1/tags', { name: 'Urgent' }, { key })).body;
    const before = await dataSnapshot();
    for (const name of ['urgent', 'URGENT', ' Urgent ']) {
      expect(err(await api.post('/v1/tags', { name }, { key }))).toMatchObject({ status: 409, code: 'CONFLICT', message: expect.stringMatching(/already exists/) });
    }
    expect(await dataSnapshot()).toEqual(before);
    const other = (await api.post('/v1/tags', { name: 'Other' }, { key })).body;
    expect(err(await api.put(`/v1/tags/${other.id}`, { name: 'uRGENT' }, { key }))).toMatchObject({ status: 409 });
    expect((await api.get(`/v1/tags/${other.id}`, { key })).body.name).toBe('Other');
    await api.del(`/v1/tags/${t.id}`, { key });
    expect((await api.put(`/v1/tags/${other.id}`, { name: 'urgent' }, { key })).status).toBe(200);
    expect((await api.post('/v1/tags', { name: 'Other' }, { key })).status).toBe(201);
  });

  test('tag names are unique per workspace only', async () => {
    const a = await setup();
    const b = await setup();
    expect((await api.post('/v1/tags', { name: 'Shared' }, { key: a.key })).status).toBe(201);
    expect((await api.post('/v1/tags', { name: 'shared' }, { key: b.key })).status).toBe(201);
  });

  test('bad bodies: 400', async () => {
    const { key } = await setup();
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(256) }, { name: 'a', color: 'red' }, { name: 5 }, { name: 'a', archived: 'yes' }]) {
      expect(err(await api.post('/v1/tags', body, { key }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    }
  });
});

describe('records time entries use', () => {
  test('deleting the tag, task, project or client of a time entry: 409 naming the time entries; archiving works; deleting the entry releases them', async () => {
    const { key, client } = await setup();
    const project = (await api.post('/v1/projects', { name: 'P', clientId: client.id }, { key })).body;
    const task = (await api.post('/v1/tasks', { projectId: project.id, name: 'T' }, { key })).body;
    const tag = (await api.post('/v1/tags', { name: 'billable-work' }, { key })).body;
    const entry = await api.post(
      '/v1/time-entries',
      { userId: 'u1', startTime: '2026-03-02T09:00:00Z', endTime: '2026-03-02T10:00:00Z', taskId: task.id, tagIds: [tag.id] },
      { key },
    );
    expect(entry.status).toBe(201);
    expect(entry.body).toMatchObject({ projectId: project.id, clientId: client.id });
    const before = await dataSnapshot();
    for (const path of [`/v1/tags/${tag.id}`, `/v1/tasks/${task.id}`, `/v1/projects/${project.id}`, `/v1/clients/${client.id}`]) {
      const res = await api.del(path, { key });
      expect([path, err(res).status, err(res).code]).toEqual([path, 409, 'CONFLICT']);
      expect(res.body.error.message).toMatch(/1 time entr/);
    }
    expect(await dataSnapshot()).toEqual(before);
    expect((await api.put(`/v1/tags/${tag.id}`, { archived: true }, { key })).body).toMatchObject({ name: 'billable-work', archived: true });
    expect((await api.put(`/v1/projects/${project.id}`, { archived: true }, { key })).body).toMatchObject({ name: 'P', clientId: client.id, archived: true });
    expect((await api.del(`/v1/time-entries/${entry.body.id}`, { key, query: { sortKey: entry.body.sortKey } })).status).toBe(200);
    expect((await api.del(`/v1/tags/${tag.id}`, { key })).status).toBe(200);
    expect((await api.del(`/v1/tasks/${task.id}`, { key })).status).toBe(200);
    expect((await api.del(`/v1/projects/${project.id}`, { key })).status).toBe(200);
    expect((await api.del(`/v1/clients/${client.id}`, { key })).status).toBe(200);
  });

  test('delete tag vs create time entry naming it: never a dangling tag id', async () => {
    const { key } = await setup();
    for (let round = 0; round < 10; round++) {
      const tag = (await api.post('/v1/tags', { name: `race${round}` }, { key })).body;
      const [del, create] = await Promise.all([
        api.del(`/v1/tags/${tag.id}`, { key }),
        api.post('/v1/time-entries', { userId: 'u1', startTime: `2026-03-02T09:${String(round).padStart(2, '0')}:00Z`, tagIds: [tag.id] }, { key }),
      ]);
      expect([del.status, create.status]).toEqual(create.status === 201 ? [409, 201] : [200, 400]);
    }
    const tagIds = new Set(((await api.get('/v1/tags', { key })).body.items as Array<{ id: string }>).map((t) => t.id));
    for (const e of (await api.get('/v1/time-entries', { key, query: { limit: '200' } })).body.items as Array<{ tagIds?: string[] }>) {
      for (const id of e.tagIds ?? []) expect(tagIds.has(id)).toBe(true);
    }
  });
});

describe('concurrency', () => {
  test('concurrent duplicate creates: exactly one 201, the rest 409 (tags, tasks, clients)', async () => {
    const { key, post } = await setup();
    const project = (await post('/v1/projects', { name: 'P' })).body;
    const cases: Array<[string, (i: number) => unknown]> = [
      ['/v1/tags', (i) => ({ name: i % 2 ? 'Race' : 'RACE' })],
      ['/v1/tasks', (i) => ({ projectId: project.id, name: i % 2 ? 'Race' : 'race' })],
      ['/v1/clients', (i) => ({ name: i % 2 ? 'Race Co' : 'race co' })],
    ];
    for (const [path, body] of cases) {
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => api.post(path, body(i), { key })));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(11);
      const list = (await api.get(path, { key })).body.items.filter((x: { name: string }) => x.name.toLowerCase().startsWith('race'));
      expect(list).toHaveLength(1);
    }
  });

  test('delete client vs create project naming it: never a project with a deleted client', async () => {
    const { key } = await setup();
    let deletedWins = 0;
    let referenceWins = 0;
    for (let round = 0; round < 12; round++) {
      const c = (await api.post('/v1/clients', { name: `C${round}` }, { key })).body;
      const [del, create] = await Promise.all([api.del(`/v1/clients/${c.id}`, { key }), api.post('/v1/projects', { name: `P${round}`, clientId: c.id }, { key })]);
      const clientExists = (await api.get(`/v1/clients/${c.id}`, { key })).status === 200;
      if (create.status === 201) {
        expect(del.status).toBe(409);
        expect(clientExists).toBe(true);
        referenceWins++;
      } else {
        expect(create.status).toBe(400);
        expect(fields(create)).toEqual(['clientId']);
        expect(del.status).toBe(200);
        expect(clientExists).toBe(false);
        deletedWins++;
      }
    }
    expect(deletedWins + referenceWins).toBe(12);
    // every surviving project names an existing client
    const projects = (await api.get('/v1/projects', { key })).body.items as Array<{ clientId?: string }>;
    for (const p of projects.filter((x) => x.clientId)) expect((await api.get(`/v1/clients/${p.clientId}`, { key })).status).toBe(200);
  });

  test('delete project vs create task in it: never a task without its project', async () => {
    const { key } = await setup();
    for (let round = 0; round < 10; round++) {
      const p = (await api.post('/v1/projects', { name: `P${round}` }, { key })).body;
      const [del, create] = await Promise.all([api.del(`/v1/projects/${p.id}`, { key }), api.post('/v1/tasks', { projectId: p.id, name: 'T' }, { key })]);
      expect([del.status, create.status].sort()).toEqual(create.status === 201 ? [201, 409] : [200, 400]);
    }
    const tasks = (await api.get('/v1/tasks', { key })).body.items as Array<{ projectId: string }>;
    for (const t of tasks) expect((await api.get(`/v1/projects/${t.projectId}`, { key })).status).toBe(200);
  });

  test('concurrent updates of different fields of one project: no update is lost', async () => {
    const { key } = await setup();
    const p = (await api.post('/v1/projects', { name: 'P' }, { key })).body;
    const patches = [{ color: '#111111' }, { hourlyRate: 10 }, { currency: 'EUR' }, { notes: 'n' }, { billable: false }, { archived: true }];
    const results = await Promise.all(patches.map((patch) => api.put(`/v1/projects/${p.id}`, patch, { key })));
    expect(results.map((r) => r.status)).toEqual(patches.map(() => 200));
    const final = (await api.get(`/v1/projects/${p.id}`, { key })).body;
    expect(final).toMatchObject(Object.assign({}, ...patches));
  });
});
