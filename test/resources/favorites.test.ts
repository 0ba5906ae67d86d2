import { tags as tagRepo } from '../../shared/data/repositories';
import { apiClient, makeKey, useTestTable } from '../support/harness';
import { dataSnapshot, err, fields, HIGH_LIMITS, workspaceWithKey } from './support';

/** Favorites: a user's saved time-entry templates, addressed with the required userId. */
useTestTable();
const api = apiClient();

async function setup() {
  const { ws, key } = await workspaceWithKey('fav');
  const post = async (path: string, body: unknown) => {
    const res = await api.post(path, body, { key });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const client = await post('/v1/clients', { name: 'Acme' });
  const client2 = await post('/v1/clients', { name: 'Globex' });
  const project = await post('/v1/projects', { name: 'Site', clientId: client.id });
  const project2 = await post('/v1/projects', { name: 'App', clientId: client2.id });
  const loose = await post('/v1/projects', { name: 'Internal' });
  const task = await post('/v1/tasks', { projectId: project.id, name: 'Design' });
  const task2 = await post('/v1/tasks', { projectId: project2.id, name: 'Build' });
  const tag = await post('/v1/tags', { name: 'urgent' });
  const tag2 = await post('/v1/tags', { name: 'billing' });
  return { ws, key, post, client, client2, project, project2, loose, task, task2, tag, tag2 };
}
type Setup = Awaited<ReturnType<typeof setup>>;
/**
 * `n` tags named `${prefix}0`... in order, for the tests of many tags: written through the repository (the
 * API's own write; the tag routes are tested in their own files), one after another (creates of one list
 * wait for each other on its counter).
 */
async function manyTags(s: Setup, prefix: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await tagRepo.create(s.ws, { name: `${prefix}${i}` })).id);
  return ids;
}
const fav = (s: Setup, body: Record<string, unknown>) => api.post('/v1/favorites', { userId: 'u1', name: 'Fav', ...body }, { key: s.key });

describe('favorites: create', () => {
  test('with every field; the client is derived from the project', async () => {
    const s = await setup();
    const res = await fav(s, { name: 'Daily design', projectId: s.project.id, taskId: s.task.id, tagIds: [s.tag.id, s.tag2.id], billable: true, notes: 'n' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      userId: 'u1',
      name: 'Daily design',
      projectId: s.project.id,
      clientId: s.client.id,
      taskId: s.task.id,
      tagIds: [s.tag.id, s.tag2.id],
      billable: true,
      notes: 'n',
    });
    for (const k of Object.keys(res.body)) expect(k.startsWith('_') || ['PK', 'SK'].includes(k)).toBe(false);
  });

  test("a task alone sets its project and that project's client", async () => {
    const s = await setup();
    const res = await fav(s, { taskId: s.task2.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ taskId: s.task2.id, projectId: s.project2.id, clientId: s.client2.id });
  });

  test('minimal: only userId and name; a client without a project is fine', async () => {
    const s = await setup();
    expect((await fav(s, {})).body).toEqual({ id: expect.any(String), userId: 'u1', name: 'Fav', createdAt: expect.any(String), updatedAt: expect.any(String), etag: '"1"' });
    expect((await fav(s, { clientId: s.client.id, projectId: s.loose.id })).status).toBe(201);
  });

  test.each([
    ['missing userId', { userId: undefined }, 'userId'],
    ['missing name', { name: undefined }, 'name'],
    ['blank name', { name: '  ' }, 'name'],
    ['userId over 128', { userId: 'u'.repeat(129) }, 'userId'],
    ['duplicate tagIds', { tagIds: ['a', 'a'] }, 'tagIds'],
    ['more than 50 tagIds', { tagIds: Array.from({ length: 51 }, (_, i) => `t${i}`) }, 'tagIds'],
    ['tagIds not an array', { tagIds: 'x' }, 'tagIds'],
    ['notes over 10000', { notes: 'n'.repeat(10_001) }, 'notes'],
    ['billable string', { billable: 'true' }, 'billable'],
    ['unknown field', { startTime: '2026-01-01T00:00:00Z' }, 'startTime'],
  ])('%s: 400 naming the field', async (_l, body, field) => {
    const s = await setup();
    const res = await fav(s, body);
    expect(err(res)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(fields(res)).toContain(field);
  });

  test('references that do not exist, or disagree: 400 naming the field, nothing written', async () => {
    const s = await setup();
    const other = await setup();
    const before = await dataSnapshot();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ projectId: '01NOPE' }, 'projectId'],
      [{ projectId: other.project.id }, 'projectId'],
      [{ taskId: '01NOPE' }, 'taskId'],
      [{ clientId: '01NOPE' }, 'clientId'],
      [{ clientId: other.client.id }, 'clientId'],
      [{ tagIds: [s.tag.id, '01NOPE'] }, 'tagIds'],
      [{ tagIds: [other.tag.id] }, 'tagIds'],
      [{ projectId: s.project.id, clientId: s.client2.id }, 'clientId'],
      [{ projectId: s.project.id, taskId: s.task2.id }, 'taskId'],
    ];
    for (const [body, field] of cases) {
      const res = await fav(s, body);
      expect(err(res)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
      expect(fields(res)).toEqual([field]);
    }
    expect(await dataSnapshot()).toEqual(before);
  });

  test('50 tags are accepted; read-only fields ignored', async () => {
    const s = await setup();
    const tagIds = await manyTags(s, 't', 50);
    const res = await fav(s, { tagIds, id: 'mine', createdAt: '2000-01-01T00:00:00Z' });
    expect(res.status).toBe(201);
    expect(res.body.tagIds).toEqual(tagIds);
    expect(res.body.id).not.toBe('mine');
  });
});

describe('favorites: get, put, delete by id with userId', () => {
  test('get without userId: 400; another user: 404; the owner: 200', async () => {
    const s = await setup();
    const f = (await fav(s, { projectId: s.project.id })).body;
    const missing = await api.get(`/v1/favorites/${f.id}`, { key: s.key });
    expect(err(missing)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(fields(missing)).toEqual(['userId']);
    expect(err(await api.get(`/v1/favorites/${f.id}`, { key: s.key, query: { userId: 'u2' } }))).toEqual({ status: 404, code: 'NOT_FOUND', message: 'Favorite not found' });
    expect(err(await api.get(`/v1/favorites/${f.id}`, { key: s.key, query: { userId: '' } }))).toMatchObject({ status: 400 });
    expect(err(await api.get(`/v1/favorites/${f.id}`, { key: s.key, query: { userId: 'u1', extra: '1' } }))).toMatchObject({ status: 400 });
    const ok = await api.get(`/v1/favorites/${f.id}`, { key: s.key, query: { userId: 'u1' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual(f);
    expect(err(await api.get('/v1/favorites/01NOPE', { key: s.key, query: { userId: 'u1' } }))).toEqual({ status: 404, code: 'NOT_FOUND', message: 'Favorite not found' });
  });

  test("userIds that share a prefix or contain # never reach each other's favorites", async () => {
    const s = await setup();
    const a = (await fav(s, { userId: 'a', name: 'A' })).body;
    const ab = (await fav(s, { userId: 'a#b', name: 'AB' })).body;
    const a2 = (await fav(s, { userId: 'a2', name: 'A2' })).body;
    expect((await api.get(`/v1/favorites/${ab.id}`, { key: s.key, query: { userId: 'a' } })).status).toBe(404);
    expect((await api.get(`/v1/favorites/b%23${ab.id}`, { key: s.key, query: { userId: 'a' } })).status).toBe(404);
    expect((await api.get(`/v1/favorites/${ab.id}`, { key: s.key, query: { userId: 'a#b' } })).body).toEqual(ab);
    const list = async (userId: string) => (await api.get('/v1/favorites', { key: s.key, query: { userId } })).body.items.map((f: { id: string }) => f.id);
    expect(await list('a')).toEqual([a.id]);
    expect(await list('a#b')).toEqual([ab.id]);
    expect(await list('a2')).toEqual([a2.id]);
  });

  test('put merges, needs userId, cannot change userId, null clears optional fields', async () => {
    const s = await setup();
    const f = (await fav(s, { projectId: s.project.id, taskId: s.task.id, tagIds: [s.tag.id], notes: 'x', billable: false })).body;
    const q = { userId: 'u1' };
    const noUser = await api.put(`/v1/favorites/${f.id}`, { name: 'New' }, { key: s.key });
    expect(err(noUser)).toMatchObject({ status: 400 });
    expect(fields(noUser)).toEqual(['userId']);
    const before = await dataSnapshot();
    expect(err(await api.put(`/v1/favorites/${f.id}`, { name: 'New' }, { key: s.key, query: { userId: 'u2' } }))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
      message: 'Favorite not found',
    });
    const change = await api.put(`/v1/favorites/${f.id}`, { userId: 'u2' }, { key: s.key, query: q });
    expect(err(change)).toMatchObject({ status: 400 });
    expect(fields(change)).toEqual(['userId']);
    expect(err(await api.put(`/v1/favorites/${f.id}`, { userId: null }, { key: s.key, query: q }))).toMatchObject({ status: 400 });
    expect(err(await api.put(`/v1/favorites/${f.id}`, { name: null }, { key: s.key, query: q }))).toMatchObject({ status: 400 });
    expect(err(await api.put(`/v1/favorites/${f.id}`, { tagIds: ['01NOPE'] }, { key: s.key, query: q }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(await dataSnapshot()).toEqual(before);

    const renamed = await api.put(`/v1/favorites/${f.id}`, { name: 'New', userId: 'u1' }, { key: s.key, query: q });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...f, name: 'New', updatedAt: renamed.body.updatedAt, etag: '"2"' });

    const cleared = await api.put(`/v1/favorites/${f.id}`, { tagIds: null, notes: null, billable: null, taskId: null }, { key: s.key, query: q });
    expect(cleared.status).toBe(200);
    for (const k of ['tagIds', 'notes', 'billable', 'taskId']) expect(cleared.body).not.toHaveProperty(k);
    expect(cleared.body).toMatchObject({ projectId: s.project.id, clientId: s.client.id });
    // released references can be deleted now
    expect((await api.del(`/v1/tags/${s.tag.id}`, { key: s.key })).status).toBe(200);
    expect((await api.del(`/v1/tasks/${s.task.id}`, { key: s.key })).status).toBe(200);
    expect((await api.get(`/v1/favorites/${f.id}`, { key: s.key, query: q })).body).toEqual(cleared.body);
  });

  test("changing the project takes the new project's client; changing the task takes its project", async () => {
    const s = await setup();
    const q = { userId: 'u1' };
    const f = (await fav(s, { projectId: s.project.id })).body;
    expect(f.clientId).toBe(s.client.id);
    const moved = await api.put(`/v1/favorites/${f.id}`, { projectId: s.project2.id }, { key: s.key, query: q });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ projectId: s.project2.id, clientId: s.client2.id });
    const byTask = await api.put(`/v1/favorites/${f.id}`, { taskId: s.task.id }, { key: s.key, query: q });
    expect(byTask.status).toBe(200);
    expect(byTask.body).toMatchObject({ taskId: s.task.id, projectId: s.project.id, clientId: s.client.id });
    // a project change that leaves a task of the old project: 400 on taskId
    const stale = await api.put(`/v1/favorites/${f.id}`, { projectId: s.project2.id }, { key: s.key, query: q });
    expect(err(stale)).toMatchObject({ status: 400 });
    expect(fields(stale)).toEqual(['taskId']);
    // an explicit disagreeing client: 400, alone or sent with the project
    const mismatch = await api.put(`/v1/favorites/${f.id}`, { clientId: s.client2.id }, { key: s.key, query: q });
    expect(fields(mismatch)).toEqual(['clientId']);
    const both = await api.put(`/v1/favorites/${f.id}`, { projectId: s.project.id, clientId: s.client2.id }, { key: s.key, query: q });
    expect(fields(both)).toEqual(['clientId']);
    // a task sent with a project it does not belong to: 400 on taskId
    expect(fields(await api.put(`/v1/favorites/${f.id}`, { projectId: s.project.id, taskId: s.task2.id }, { key: s.key, query: q }))).toEqual(['taskId']);
    // clearing the project while keeping its task: 400 on projectId (not silently re-derived)
    expect(fields(await api.put(`/v1/favorites/${f.id}`, { projectId: null }, { key: s.key, query: q }))).toEqual(['projectId']);
    expect((await api.get(`/v1/favorites/${f.id}`, { key: s.key, query: q })).body).toEqual(byTask.body);
    // clearing both works and keeps the client
    const clearedBoth = await api.put(`/v1/favorites/${f.id}`, { projectId: null, taskId: null }, { key: s.key, query: q });
    expect(clearedBoth.status).toBe(200);
    expect(clearedBoth.body).toMatchObject({ clientId: s.client.id });
    expect(clearedBoth.body).not.toHaveProperty('projectId');
    // a project without a client keeps the favorite's client
    expect((await api.put(`/v1/favorites/${f.id}`, { projectId: s.loose.id }, { key: s.key, query: q })).body).toMatchObject({ projectId: s.loose.id, clientId: s.client.id });
    // usage followed the moves: project2/client2 are no longer used by the favorite
    expect((await api.del(`/v1/projects/${s.project2.id}`, { key: s.key })).status).toBe(409); // task2 still uses it
    await api.del(`/v1/tasks/${s.task2.id}`, { key: s.key });
    expect((await api.del(`/v1/projects/${s.project2.id}`, { key: s.key })).status).toBe(200);
    expect((await api.del(`/v1/clients/${s.client2.id}`, { key: s.key })).status).toBe(200);
  });

  test('replacing 50 tags by 50 others is one atomic write too many: 400 naming tagIds, nothing changes; 45 by 45 works', async () => {
    const s = await setup();
    const first = await manyTags(s, 'a', 50);
    const second = await manyTags(s, 'b', 50);
    const f = (await fav(s, { tagIds: first })).body;
    const q = { userId: 'u1' };
    const before = await dataSnapshot();
    const tooMany = await api.put(`/v1/favorites/${f.id}`, { tagIds: second }, { key: s.key, query: q });
    expect(err(tooMany)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', message: expect.stringMatching(/two requests/) });
    expect(fields(tooMany)).toEqual(['tagIds']);
    expect(await dataSnapshot()).toEqual(before);
    const res = await api.put(`/v1/favorites/${f.id}`, { tagIds: [...first.slice(45), ...second.slice(0, 45)] }, { key: s.key, query: q });
    expect(res.status).toBe(200);
    expect((await api.del(`/v1/tags/${first[0]}`, { key: s.key })).status).toBe(200);
    expect((await api.del(`/v1/tags/${first[49]}`, { key: s.key })).status).toBe(409);
    expect((await api.del(`/v1/tags/${second[0]}`, { key: s.key })).status).toBe(409);
    expect((await api.del(`/v1/tags/${second[49]}`, { key: s.key })).status).toBe(200);
  });

  test('the boundary: 99 counter moves + the record + its change event (101 actions) is refused; 98 moves (100 actions) is one write', async () => {
    const s = await setup();
    const a = await manyTags(s, 'x', 50);
    const b = await manyTags(s, 'y', 49);
    const f = (await fav(s, { tagIds: a })).body;
    const q = { userId: 'u1' };
    const before = await dataSnapshot();
    // 49 tags named, 50 released: 99 counter changes + the favorite + the event
    const over = await api.put(`/v1/favorites/${f.id}`, { tagIds: b }, { key: s.key, query: q });
    expect(err(over)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', message: expect.stringMatching(/two requests/) });
    expect(await dataSnapshot()).toEqual(before);
    // keeping one of the old tags: 98 counter changes + the favorite + the event = DynamoDB's 100
    const atLimit = await api.put(`/v1/favorites/${f.id}`, { tagIds: [a[0], ...b] }, { key: s.key, query: q });
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.tagIds).toHaveLength(50);
  });

  test('delete: another user 404 (nothing changes); the owner 200; then 404', async () => {
    const s = await setup();
    const f = (await fav(s, { taskId: s.task.id, tagIds: [s.tag.id] })).body;
    const before = await dataSnapshot();
    expect(err(await api.del(`/v1/favorites/${f.id}`, { key: s.key, query: { userId: 'u2' } }))).toEqual({ status: 404, code: 'NOT_FOUND', message: 'Favorite not found' });
    expect(err(await api.del(`/v1/favorites/${f.id}`, { key: s.key }))).toMatchObject({ status: 400 });
    expect(await dataSnapshot()).toEqual(before);
    expect(await api.del(`/v1/favorites/${f.id}`, { key: s.key, query: { userId: 'u1' } })).toMatchObject({ status: 200, body: { deleted: true, id: f.id } });
    expect((await api.get(`/v1/favorites/${f.id}`, { key: s.key, query: { userId: 'u1' } })).status).toBe(404);
    expect((await api.del(`/v1/favorites/${f.id}`, { key: s.key, query: { userId: 'u1' } })).status).toBe(404);
    // its references are released
    expect((await api.del(`/v1/tags/${s.tag.id}`, { key: s.key })).status).toBe(200);
    expect((await api.del(`/v1/tasks/${s.task.id}`, { key: s.key })).status).toBe(200);
  });
});

describe('favorites: list', () => {
  test('whole list sorted by name; optional userId filter; { items } without pagination', async () => {
    const s = await setup();
    const other = await setup();
    await fav(other, { name: 'not mine' });
    for (const [userId, name] of [
      ['u1', 'beta'],
      ['u2', 'Alpha'],
      ['u1', 'alpha2'],
      ['u3', 'Gamma'],
    ])
      await fav(s, { userId, name });
    const all = await api.get('/v1/favorites', { key: s.key });
    expect(all.status).toBe(200);
    expect(Object.keys(all.body)).toEqual(['items']);
    expect(all.body.items.map((f: { name: string }) => f.name)).toEqual(['Alpha', 'alpha2', 'beta', 'Gamma']);
    const u1 = await api.get('/v1/favorites', { key: s.key, query: { userId: 'u1' } });
    expect(u1.body.items.map((f: { name: string; userId: string }) => `${f.userId}:${f.name}`)).toEqual(['u1:alpha2', 'u1:beta']);
    expect((await api.get('/v1/favorites', { key: s.key, query: { userId: 'nobody' } })).body).toEqual({ items: [] });
    expect(err(await api.get('/v1/favorites', { key: s.key, query: { limit: '5' } }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(err(await api.get('/v1/favorites', { key: s.key, query: { userId: 'u'.repeat(129) } }))).toMatchObject({ status: 400 });
  });
});

describe('favorites keep what they name from being deleted', () => {
  test('deleting a tag, task, project or client a favorite uses: 409 naming the favorites; archiving works', async () => {
    const s = await setup();
    await fav(s, { taskId: s.task.id, tagIds: [s.tag.id] });
    await fav(s, { userId: 'u2', tagIds: [s.tag.id], clientId: s.client2.id });
    const before = await dataSnapshot();
    const tagDel = await api.del(`/v1/tags/${s.tag.id}`, { key: s.key });
    expect(err(tagDel)).toMatchObject({ status: 409, code: 'CONFLICT', message: expect.stringMatching(/2 favorite/) });
    expect(err(await api.del(`/v1/tasks/${s.task.id}`, { key: s.key }))).toMatchObject({ status: 409, message: expect.stringMatching(/1 favorite/) });
    const projDel = await api.del(`/v1/projects/${s.project.id}`, { key: s.key });
    expect(err(projDel)).toMatchObject({ status: 409, message: expect.stringMatching(/favorite/) });
    expect(projDel.body.error.message).toMatch(/task/);
    const clientDel = await api.del(`/v1/clients/${s.client2.id}`, { key: s.key });
    expect(err(clientDel)).toMatchObject({ status: 409, message: expect.stringMatching(/1 favorite/) });
    expect(await dataSnapshot()).toEqual(before);
    expect((await api.put(`/v1/tags/${s.tag.id}`, { archived: true }, { key: s.key })).body).toMatchObject({ name: 'urgent', archived: true });
    expect((await api.put(`/v1/tasks/${s.task.id}`, { status: 'done' }, { key: s.key })).body).toMatchObject({ name: 'Design', status: 'done' });
  });

  test('delete tag vs create favorite naming it: never a dangling tag id', async () => {
    const s = await setup();
    for (let round = 0; round < 12; round++) {
      const t = await s.post('/v1/tags', { name: `race${round}` });
      const [del, create] = await Promise.all([api.del(`/v1/tags/${t.id}`, { key: s.key }), fav(s, { name: `f${round}`, tagIds: [s.tag2.id, t.id] })]);
      if (create.status === 201) expect(del.status).toBe(409);
      else {
        expect(create.status).toBe(400);
        expect(fields(create)).toEqual(['tagIds']);
        expect(del.status).toBe(200);
      }
    }
    const tags = new Set(((await api.get('/v1/tags', { key: s.key })).body.items as Array<{ id: string }>).map((t) => t.id));
    for (const f of (await api.get('/v1/favorites', { key: s.key })).body.items as Array<{ tagIds?: string[] }>) {
      for (const id of f.tagIds ?? []) expect(tags.has(id)).toBe(true);
    }
  });

  test('delete task vs update favorite to name it: never a dangling task id', async () => {
    const s = await setup();
    const f = (await fav(s, { projectId: s.project.id })).body;
    for (let round = 0; round < 10; round++) {
      const t = await s.post('/v1/tasks', { projectId: s.project.id, name: `race${round}` });
      const [del, upd] = await Promise.all([
        api.del(`/v1/tasks/${t.id}`, { key: s.key }),
        api.put(`/v1/favorites/${f.id}`, { taskId: t.id }, { key: s.key, query: { userId: 'u1' } }),
      ]);
      const taskExists = (await api.get(`/v1/tasks/${t.id}`, { key: s.key })).status === 200;
      const current = (await api.get(`/v1/favorites/${f.id}`, { key: s.key, query: { userId: 'u1' } })).body;
      if (upd.status === 200) {
        expect(del.status).toBe(409);
        expect(taskExists).toBe(true);
        expect(current.taskId).toBe(t.id);
      } else {
        expect(upd.status).toBe(400);
        expect(fields(upd)).toEqual(['taskId']);
        expect(del.status).toBe(200);
        expect(taskExists).toBe(false);
        expect(current.taskId).not.toBe(t.id);
      }
    }
  });
});

describe('favorites: start needs favorites:read as well as time-entries:write (issue 22 item 8)', () => {
  test('a key without favorites:read learns nothing of the favorite: 403 naming it, exists or not, and nothing is written', async () => {
    const s = await setup();
    const favorite = (await fav(s, { name: 'Secret plan', notes: 'private notes' })).body;
    const writeOnly = await makeKey(s.ws, { scopes: ['time-entries:write'], ...HIGH_LIMITS });
    const readOnly = await makeKey(s.ws, { scopes: ['favorites:read'], ...HIGH_LIMITS });
    const both = await makeKey(s.ws, { scopes: ['favorites:read', 'time-entries:write'], ...HIGH_LIMITS });
    const before = await dataSnapshot();
    for (const id of [favorite.id, '01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
      const res = await api.post(`/v1/favorites/${id}/start`, undefined, { key: writeOnly, query: { userId: 'u1' } });
      expect({ id, ...err(res), details: res.body.error?.details }).toEqual({
        id,
        status: 403,
        code: 'FORBIDDEN',
        message: 'This API key lacks the required scope: favorites:read',
        details: [{ reason: 'MISSING_SCOPE', scope: 'favorites:read' }],
      });
      expect(res.text).not.toContain('Secret plan');
    }
    const noWrite = await api.post(`/v1/favorites/${favorite.id}/start`, undefined, { key: readOnly, query: { userId: 'u1' } });
    expect(noWrite.body.error.details).toEqual([{ reason: 'MISSING_SCOPE', scope: 'time-entries:write' }]);
    expect(await dataSnapshot()).toEqual(before);
    const started = await api.post(`/v1/favorites/${favorite.id}/start`, undefined, { key: both, query: { userId: 'u1' } });
    expect([started.status, started.body.name, started.body.notes]).toEqual([201, 'Secret plan', 'private notes']);
    expect((await api.post('/v1/favorites/01ARZ3NDEKTSV4RRFFQ69G5FAV/start', undefined, { key: both, query: { userId: 'u1' } })).status).toBe(404);
  });
});
