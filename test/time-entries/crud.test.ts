import { apiClient, newWorkspace, useTestTable } from '../support/harness';
import { created, makeCatalog, pageAll, snapshot, testKey, type Entry } from './helpers';

useTestTable();
const api = apiClient();

let ws: string;
let key: string;
let cat: Awaited<ReturnType<typeof makeCatalog>>;

beforeAll(async () => {
  ws = newWorkspace('crud');
  key = await testKey(ws);
  cat = await makeCatalog(api, key);
});

const entryPath = (e: { id: string }) => `/v1/time-entries/${e.id}`;
const create = (body: Record<string, unknown>) => api.post('/v1/time-entries', body, { key });

describe('create', () => {
  test('a running entry (no endTime) is accepted: 201, no durationMinutes, sortKey = UTC start # id', async () => {
    const res = await create({ userId: 'u1', startTime: '2026-01-31T09:00:00Z' });
    expect(res.status).toBe(201);
    const e = res.body as Entry;
    expect(e.endTime).toBeUndefined();
    expect(e.durationMinutes).toBeUndefined();
    expect(e.billable).toBe(false);
    expect(e.startTime).toBe('2026-01-31T09:00:00.000Z');
    expect(e.sortKey).toBe(`2026-01-31T09:00:00.000Z#${e.id}`);
    expect(e.createdAt).toEqual(e.updatedAt);
    expect(Object.keys(e).some((k) => k.startsWith('_') || k.startsWith('GSI') || k === 'PK' || k === 'SK')).toBe(false);
  });

  test('durationMinutes is computed: 45 for a 45-minute entry; offsets are normalized to UTC', async () => {
    const e = await created<Entry>(create({ userId: 'u1', startTime: '2026-01-31T10:00:00+02:00', endTime: '2026-01-31T08:45:00Z' }));
    expect(e.durationMinutes).toBe(45);
    expect(e.startTime).toBe('2026-01-31T08:00:00.000Z');
    expect(e.endTime).toBe('2026-01-31T08:45:00.000Z');
    expect(e.sortKey.startsWith('2026-01-31T08:00:00.000Z#')).toBe(true);
    // a zero-length entry is allowed (endTime equal to startTime)
    const z = await created<Entry>(create({ userId: 'u1', startTime: '2026-01-31T08:00:00Z', endTime: '2026-01-31T08:00:00Z' }));
    expect(z.durationMinutes).toBe(0);
  });

  test('durationMinutes and sortKey sent by the client are ignored (server-computed)', async () => {
    const e = await created<Entry>(create({ userId: 'u1', startTime: '2026-02-01T09:00:00Z', endTime: '2026-02-01T10:30:00Z', durationMinutes: 5, sortKey: 'x' }));
    expect(e.durationMinutes).toBe(90);
    expect(e.sortKey).toBe(`2026-02-01T09:00:00.000Z#${e.id}`);
  });

  test('clientId is derived from the project; taskId alone derives project and client', async () => {
    const e = await created<Entry>(create({ userId: 'u1', startTime: '2026-02-02T09:00:00Z', projectId: cat.p1.id }));
    expect(e.clientId).toBe(cat.c1.id);
    const t = await created<Entry>(create({ userId: 'u1', startTime: '2026-02-02T10:00:00Z', taskId: cat.t2.id }));
    expect(t.projectId).toBe(cat.p2.id);
    expect(t.clientId).toBe(cat.c2.id);
    const agree = await created<Entry>(
      create({ userId: 'u1', startTime: '2026-02-02T11:00:00Z', projectId: cat.p1.id, clientId: cat.c1.id, taskId: cat.t1.id, tagIds: [cat.tag1.id, cat.tag2.id] }),
    );
    expect(agree).toMatchObject({ projectId: cat.p1.id, clientId: cat.c1.id, taskId: cat.t1.id, tagIds: [cat.tag1.id, cat.tag2.id] });
    // a project without a client accepts any existing client
    const internal = await created<Entry>(create({ userId: 'u1', startTime: '2026-02-02T12:00:00Z', projectId: cat.p3.id, clientId: cat.c2.id }));
    expect(internal.clientId).toBe(cat.c2.id);
  });

  test.each([
    ['userId missing', { startTime: '2026-01-31T09:00:00Z' }, 'userId'],
    ['startTime missing', { userId: 'u1' }, 'startTime'],
    ['startTime not ISO 8601', { userId: 'u1', startTime: '31/01/2026 09:00' }, 'startTime'],
    ['startTime without offset', { userId: 'u1', startTime: '2026-01-31T09:00:00' }, 'startTime'],
    ['startTime on a day that does not exist', { userId: 'u1', startTime: '2026-02-30T09:00:00Z' }, 'startTime'],
    ['endTime not ISO 8601', { userId: 'u1', startTime: '2026-01-31T09:00:00Z', endTime: 'soon' }, 'endTime'],
    ['endTime before startTime', { userId: 'u1', startTime: '2026-01-31T09:00:00Z', endTime: '2026-01-31T08:59:59Z' }, 'endTime'],
    ['endTime before startTime once offsets are applied', { userId: 'u1', startTime: '2026-01-31T09:00:00Z', endTime: '2026-01-31T10:00:00+02:00' }, 'endTime'],
    ['unknown field', { userId: 'u1', startTime: '2026-01-31T09:00:00Z', colour: 'red' }, 'colour'],
    ['userId too long', { userId: 'u'.repeat(129), startTime: '2026-01-31T09:00:00Z' }, 'userId'],
    ['duplicate tagIds', { userId: 'u1', startTime: '2026-01-31T09:00:00Z', tagIds: ['a', 'a'] }, 'tagIds'],
    ['too many tagIds', { userId: 'u1', startTime: '2026-01-31T09:00:00Z', tagIds: Array.from({ length: 51 }, (_, i) => `t${i}`) }, 'tagIds'],
    ['billable not boolean', { userId: 'u1', startTime: '2026-01-31T09:00:00Z', billable: 'yes' }, 'billable'],
    ['unknown projectId', { userId: 'u1', startTime: '2026-01-31T09:00:00Z', projectId: 'nope' }, 'projectId'],
    ['unknown clientId', { userId: 'u1', startTime: '2026-01-31T09:00:00Z', clientId: 'nope' }, 'clientId'],
    ['unknown taskId', { userId: 'u1', startTime: '2026-01-31T09:00:00Z', taskId: 'nope' }, 'taskId'],
    ['unknown tag', { userId: 'u1', startTime: '2026-01-31T09:00:00Z', tagIds: ['nope'] }, 'tagIds'],
  ])('400 VALIDATION_ERROR naming the field, nothing written: %s', async (_name, body, field) => {
    const before = await snapshot();
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await snapshot()).toEqual(before);
  });

  test('references must agree: client vs project, task vs project (400 naming the field)', async () => {
    const before = await snapshot();
    const wrongClient = await create({ userId: 'u1', startTime: '2026-01-31T09:00:00Z', projectId: cat.p1.id, clientId: cat.c2.id });
    expect(wrongClient.status).toBe(400);
    expect(wrongClient.body.error.details[0].field).toBe('clientId');
    const wrongTask = await create({ userId: 'u1', startTime: '2026-01-31T09:00:00Z', projectId: cat.p1.id, taskId: cat.t2.id });
    expect(wrongTask.status).toBe(400);
    expect(wrongTask.body.error.details[0].field).toBe('taskId');
    // another kind's id is not a project
    const notAProject = await create({ userId: 'u1', startTime: '2026-01-31T09:00:00Z', projectId: cat.c1.id });
    expect(notAProject.status).toBe(400);
    expect(notAProject.body.error.details[0].field).toBe('projectId');
    expect(await snapshot()).toEqual(before);
  });

  test('a body that is not a JSON object is a 400', async () => {
    const res = await api.call('POST', '/v1/time-entries', { key, rawBody: '[1,2]' });
    expect(res.status).toBe(400);
    const bad = await api.call('POST', '/v1/time-entries', { key, rawBody: '{"userId":' });
    expect(bad.status).toBe(400);
  });
});

describe('get', () => {
  let e: Entry;
  let other: Entry;
  beforeAll(async () => {
    e = await created<Entry>(create({ userId: 'u2', startTime: '2026-03-01T09:00:00Z', endTime: '2026-03-01T10:00:00Z', projectId: cat.p1.id }));
    other = await created<Entry>(create({ userId: 'u2', startTime: '2026-03-02T09:00:00Z' }));
  });

  test('with its sortKey: 200, the whole entry', async () => {
    const res = await api.get(entryPath(e), { key, query: { sortKey: e.sortKey } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(e);
  });

  test('without sortKey: 400 naming sortKey', async () => {
    const res = await api.get(entryPath(e), { key });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details[0].field).toBe('sortKey');
  });

  test('a malformed sortKey (e.g. # not URL-encoded, so cut short) is a 400 with a hint', async () => {
    const res = await api.get(entryPath(e), { key, query: { sortKey: e.sortKey.split('#')[0]! } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe('sortKey');
    expect(res.body.error.message).toContain('%23');
  });

  test("with another entry's sortKey: 404 Time entry not found", async () => {
    const res = await api.get(entryPath(e), { key, query: { sortKey: other.sortKey } });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ code: 'NOT_FOUND', message: 'Time entry not found' });
    // right time, wrong id; right id, wrong time
    const wrongId = await api.get(entryPath(e), { key, query: { sortKey: `${e.startTime}#${other.id}` } });
    expect(wrongId.status).toBe(404);
    const wrongTime = await api.get(entryPath(e), { key, query: { sortKey: `2026-03-01T09:00:00.001Z#${e.id}` } });
    expect(wrongTime.status).toBe(404);
    const unknownId = await api.get('/v1/time-entries/UNKNOWN', { key, query: { sortKey: `${e.startTime}#UNKNOWN` } });
    expect(unknownId.status).toBe(404);
  });

  test('a sortKey of another kind of item (client key) is refused', async () => {
    const res = await api.get(`/v1/time-entries/${cat.c1.id}`, { key, query: { sortKey: `CLIENT#${cat.c1.id}` } });
    expect(res.status).toBe(400);
  });

  test('unknown query parameters are a 400', async () => {
    const res = await api.get(entryPath(e), { key, query: { sortKey: e.sortKey, extra: '1' } });
    expect(res.status).toBe(400);
  });
});

describe('update (merge)', () => {
  test('fields not sent keep their value; null clears an optional field; sortKey unchanged without a startTime change', async () => {
    const e = await created<Entry>(
      create({ userId: 'u3', startTime: '2026-04-01T09:00:00Z', endTime: '2026-04-01T09:45:00Z', notes: 'a', projectId: cat.p1.id, tagIds: [cat.tag1.id] }),
    );
    const upd = await api.put(entryPath(e), { notes: 'b' }, { key, query: { sortKey: e.sortKey } });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ ...e, notes: 'b', updatedAt: expect.any(String), etag: expect.any(String) });
    expect(upd.body.sortKey).toBe(e.sortKey);
    const cleared = await api.put(entryPath(e), { endTime: null, tagIds: null }, { key, query: { sortKey: e.sortKey } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.endTime).toBeUndefined();
    expect(cleared.body.durationMinutes).toBeUndefined();
    expect(cleared.body.tagIds).toBeUndefined();
    expect(cleared.body.notes).toBe('b');
    const stopped = await api.put(entryPath(e), { endTime: '2026-04-01T11:00:00+01:00' }, { key, query: { sortKey: e.sortKey } });
    expect(stopped.body.durationMinutes).toBe(60);
    const got = await api.get(entryPath(e), { key, query: { sortKey: e.sortKey } });
    expect(got.body).toEqual(stopped.body);
  });

  test('required fields cannot be cleared; endTime before startTime is refused; nothing changes', async () => {
    const e = await created<Entry>(create({ userId: 'u3', startTime: '2026-04-02T09:00:00Z', endTime: '2026-04-02T10:00:00Z' }));
    const before = await snapshot();
    for (const body of [{ userId: null }, { startTime: null }, { startTime: '2026-04-02T10:00:01Z' }, { endTime: '2026-04-02T08:00:00Z' }, { projectId: 'nope' }, { unknown: 1 }]) {
      const res = await api.put(entryPath(e), body, { key, query: { sortKey: e.sortKey } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect(await snapshot()).toEqual(before);
  });

  test('changing startTime moves the entry: new sortKey returned, old sortKey 404, new one works, listed once', async () => {
    const user = 'mover';
    const e = await created<Entry>(create({ userId: user, startTime: '2026-05-01T09:00:00Z', endTime: '2026-05-01T10:00:00Z', projectId: cat.p1.id }));
    const keep = await created<Entry>(create({ userId: user, startTime: '2026-05-02T09:00:00Z', projectId: cat.p1.id }));
    const moved = await api.put(entryPath(e), { startTime: '2026-04-30T09:00:00Z' }, { key, query: { sortKey: e.sortKey } });
    expect(moved.status).toBe(200);
    expect(moved.body.sortKey).toBe(`2026-04-30T09:00:00.000Z#${e.id}`);
    expect(moved.body.durationMinutes).toBe(25 * 60);
    expect((await api.get(entryPath(e), { key, query: { sortKey: e.sortKey } })).status).toBe(404);
    const got = await api.get(entryPath(e), { key, query: { sortKey: moved.body.sortKey } });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(moved.body);
    // the old position is gone from the table and every index; the new one is everywhere
    for (const q of [{ userId: user }, { userId: user, projectId: cat.p1.id }, { userId: user, clientId: cat.c1.id }, {}]) {
      const { items } = await pageAll(api, key, { ...q, startDate: '2026-04-01', endDate: '2026-05-31', limit: '1' });
      const mine = items.filter((i) => i.id === e.id);
      expect(mine.map((i) => i.sortKey)).toEqual([moved.body.sortKey]);
      expect(items.filter((i) => i.id === keep.id)).toHaveLength(1);
    }
    // an update with the old sortKey is a 404 and writes nothing
    const before = await snapshot();
    expect((await api.put(entryPath(e), { notes: 'x' }, { key, query: { sortKey: e.sortKey } })).status).toBe(404);
    expect((await api.del(entryPath(e), { key, query: { sortKey: e.sortKey } })).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  test('moving to another project: an unchanged client follows the new project; indexes follow', async () => {
    const e = await created<Entry>(create({ userId: 'proj-mover', startTime: '2026-06-01T09:00:00Z', projectId: cat.p1.id }));
    expect(e.clientId).toBe(cat.c1.id);
    const upd = await api.put(entryPath(e), { projectId: cat.p2.id }, { key, query: { sortKey: e.sortKey } });
    expect(upd.status).toBe(200);
    expect(upd.body.clientId).toBe(cat.c2.id);
    const byOld = await pageAll(api, key, { clientId: cat.c1.id, userId: 'proj-mover' });
    expect(byOld.items).toHaveLength(0);
    const byNew = await pageAll(api, key, { projectId: cat.p2.id, userId: 'proj-mover' });
    expect(byNew.items.map((i) => i.id)).toEqual([e.id]);
    // an explicit, disagreeing client is still refused
    const bad = await api.put(entryPath(e), { projectId: cat.p1.id, clientId: cat.c2.id }, { key, query: { sortKey: e.sortKey } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('clientId');
  });

  test('PUT with a sortKey of another entry: 404, nothing changed', async () => {
    const a = await created<Entry>(create({ userId: 'u4', startTime: '2026-06-02T09:00:00Z' }));
    const b = await created<Entry>(create({ userId: 'u4', startTime: '2026-06-03T09:00:00Z' }));
    const before = await snapshot();
    const res = await api.put(entryPath(a), { notes: 'x' }, { key, query: { sortKey: b.sortKey } });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe('Time entry not found');
    expect((await api.put(entryPath(a), { notes: 'x' }, { key })).status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });
});

describe('delete and references', () => {
  test('delete returns a confirmation; then get/put/delete give 404 Time entry not found', async () => {
    const e = await created<Entry>(create({ userId: 'u5', startTime: '2026-07-01T09:00:00Z' }));
    const res = await api.del(entryPath(e), { key, query: { sortKey: e.sortKey } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, id: e.id });
    for (const r of [
      await api.get(entryPath(e), { key, query: { sortKey: e.sortKey } }),
      await api.put(entryPath(e), { notes: 'x' }, { key, query: { sortKey: e.sortKey } }),
      await api.del(entryPath(e), { key, query: { sortKey: e.sortKey } }),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.error).toEqual({ code: 'NOT_FOUND', message: 'Time entry not found' });
    }
    expect((await api.del(entryPath(e), { key })).status).toBe(400);
  });

  test('referenced project/client/task/tag cannot be deleted (409) until the entries are gone', async () => {
    const c = await created(api.post('/v1/clients', { name: 'Ref client' }, { key }));
    const p = await created(api.post('/v1/projects', { name: 'Ref project', clientId: c.id }, { key }));
    const t = await created(api.post('/v1/tasks', { projectId: p.id, name: 'Ref task' }, { key }));
    const tag = await created(api.post('/v1/tags', { name: 'ref-tag' }, { key }));
    const e = await created<Entry>(create({ userId: 'u6', startTime: '2026-07-02T09:00:00Z', taskId: t.id, tagIds: [tag.id] }));
    expect(e).toMatchObject({ projectId: p.id, clientId: c.id });
    const tag2 = await created(api.post('/v1/tags', { name: 'ref-tag-2' }, { key }));
    // moving the tag reference releases the old tag
    const upd = await api.put(entryPath(e), { tagIds: [tag2.id] }, { key, query: { sortKey: e.sortKey } });
    expect(upd.status).toBe(200);
    expect((await api.del(`/v1/tags/${tag.id}`, { key })).status).toBe(200);
    for (const path of [`/v1/tasks/${t.id}`, `/v1/tags/${tag2.id}`]) {
      const r = await api.del(path, { key });
      expect(r.status).toBe(409);
      expect(r.body.error.message).toContain('time entr');
    }
    expect((await api.del(entryPath(e), { key, query: { sortKey: e.sortKey } })).status).toBe(200);
    expect((await api.del(`/v1/tags/${tag2.id}`, { key })).status).toBe(200);
    expect((await api.del(`/v1/tasks/${t.id}`, { key })).status).toBe(200);
    expect((await api.del(`/v1/projects/${p.id}`, { key })).status).toBe(200);
    expect((await api.del(`/v1/clients/${c.id}`, { key })).status).toBe(200);
  });

  test('50 tags on create; an update changing more tags than one transaction can hold is a 400, a large valid one works', async () => {
    const tagIds: string[] = [];
    for (let i = 0; i < 100; i++) tagIds.push((await created(api.post('/v1/tags', { name: `bulk-${i}` }, { key }))).id);
    const e = await created<Entry>(create({ userId: 'u7', startTime: '2026-07-03T09:00:00Z', projectId: cat.p1.id, tagIds: tagIds.slice(0, 50) }));
    expect(e.tagIds).toHaveLength(50);
    const before = await snapshot();
    // 50 removed + 50 added: 101 writes, more than one transaction may hold
    const tooMany = await api.put(entryPath(e), { tagIds: tagIds.slice(50, 100) }, { key, query: { sortKey: e.sortKey } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details[0].field).toBe('tagIds');
    expect(await snapshot()).toEqual(before);
    // 45 removed + 45 added + move (2) + project, client and task changes (6) + its event + the running
    // timer's item (the entry runs: the move re-points it): 100 writes in one transaction
    const big = await api.put(
      entryPath(e),
      { startTime: '2026-07-03T08:00:00Z', projectId: cat.p2.id, taskId: cat.t2.id, tagIds: [...tagIds.slice(45, 50), ...tagIds.slice(50, 95)] },
      { key, query: { sortKey: e.sortKey } },
    );
    expect(big.status).toBe(200);
    expect(big.body).toMatchObject({ projectId: cat.p2.id, clientId: cat.c2.id, taskId: cat.t2.id });
    expect(big.body.tagIds).toHaveLength(50);
    expect((await api.del(`/v1/tags/${tagIds[0]}`, { key })).status).toBe(200);
    expect((await api.del(`/v1/tags/${tagIds[94]}`, { key })).status).toBe(409);
  });
});

describe('scopes', () => {
  test('a key with only time-entries:read can list and get but not create, update or delete (403)', async () => {
    const e = await created<Entry>(create({ userId: 'u8', startTime: '2026-08-01T09:00:00Z' }));
    const ro = await testKey(ws, { scopes: ['time-entries:read'] });
    const wo = await testKey(ws, { scopes: ['time-entries:write'] });
    const before = await snapshot();
    const post = await api.post('/v1/time-entries', { userId: 'u8', startTime: '2026-08-01T09:00:00Z' }, { key: ro });
    expect(post.status).toBe(403);
    expect(post.body.error.code).toBe('FORBIDDEN');
    expect(post.body.error.message).toContain('time-entries:write');
    expect((await api.put(entryPath(e), { notes: 'x' }, { key: ro, query: { sortKey: e.sortKey } })).status).toBe(403);
    expect((await api.del(entryPath(e), { key: ro, query: { sortKey: e.sortKey } })).status).toBe(403);
    expect((await api.get(entryPath(e), { key: ro, query: { sortKey: e.sortKey } })).status).toBe(200);
    expect((await api.get('/v1/time-entries', { key: ro })).status).toBe(200);
    expect((await api.get('/v1/time-entries', { key: wo })).status).toBe(403);
    expect((await api.get(entryPath(e), { key: wo, query: { sortKey: e.sortKey } })).status).toBe(403);
    expect((await api.get('/v1/time-entries')).status).toBe(401);
    expect(await snapshot()).toEqual(before);
  });
});
