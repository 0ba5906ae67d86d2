import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/data/db';
import { keys } from '../../shared/data/keys';
import { apiClient, newWorkspace, useTestTable } from '../support/harness';
import { created, makeCatalog, snapshot, testKey, type Entry } from './helpers';

/**
 * Timers (issue 16, item 1) against DynamoDB Local: one running entry per user (a start stops the
 * running one in the same write, with its own event; 409 when that would end it before it began; 20
 * concurrent starts leave exactly one running), stop, start from a favorite, ?running=true, and the
 * billable default from the project.
 */
useTestTable();
const api = apiClient();
let ws: string;
let key: string;
let cat: Awaited<ReturnType<typeof makeCatalog>>;

beforeAll(async () => {
  ws = newWorkspace('timers');
  key = await testKey(ws);
  cat = await makeCatalog(api, key);
});

const path = (e: { id: string }) => `/v1/time-entries/${e.id}`;
const start = (body: Record<string, unknown>) => api.post('/v1/time-entries', body, { key });
const get = async (e: Entry) => (await api.get(path(e), { key, query: { sortKey: e.sortKey } })).body as Entry;
const running = async (userId?: string) => {
  const res = await api.get('/v1/time-entries', { key, query: { running: 'true', limit: '200', ...(userId ? { userId } : {}) } });
  expect(res.status).toBe(200);
  return res.body.items as Entry[];
};
const timerItem = async (userId: string) => (await db().send(new GetCommand({ TableName: tableName(), Key: keys.runningTimer(ws, userId), ConsistentRead: true }))).Item;

async function feedSince(cursor: string) {
  const res = await api.get('/v1/changes', { key, query: { cursor, limit: '200' } });
  expect(res.status).toBe(200);
  return res.body as { items: Array<{ type: string; resourceId: string; data: Entry }>; nextCursor: string };
}
async function feedCursor() {
  return (await api.get('/v1/changes', { key, query: { since: new Date().toISOString() } })).body.nextCursor as string;
}

describe('one running entry per user', () => {
  test('starting a timer stops the running one at the new startTime, in the same write, with both events', async () => {
    const first = await created<Entry>(start({ userId: 'ann', startTime: '2026-03-02T09:00:00Z', projectId: cat.p1.id }));
    expect(first.endTime).toBeUndefined();
    const cursor = await feedCursor();
    const second = await created<Entry>(start({ userId: 'ann', startTime: '2026-03-02T10:30:00Z' }));
    const stopped = await get(first);
    expect(stopped).toMatchObject({ endTime: '2026-03-02T10:30:00.000Z', durationMinutes: 90, etag: '"2"' });
    expect((await running('ann')).map((e) => e.id)).toEqual([second.id]);
    expect((await timerItem('ann'))?.sortKey).toBe(second.sortKey);
    const feed = await feedSince(cursor);
    expect(feed.items.map((e) => `${e.type} ${e.resourceId}`)).toEqual([`time-entry.updated ${first.id}`, `time-entry.created ${second.id}`]);
    expect(feed.items[0]!.data).toMatchObject({ endTime: '2026-03-02T10:30:00.000Z', durationMinutes: 90 });
  });

  test('409 CONFLICT when the running entry started after the new one, nothing changed', async () => {
    await created<Entry>(start({ userId: 'bea', startTime: '2026-03-03T12:00:00Z' }));
    const before = await snapshot();
    const res = await start({ userId: 'bea', startTime: '2026-03-03T11:00:00Z' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
    expect(res.body.error.message).toMatch(/before it began/);
    expect(await snapshot()).toEqual(before);
  });

  test('a bad reference is still a 400 (not the 409) when a later timer runs', async () => {
    const res = await start({ userId: 'bea', startTime: '2026-03-03T10:00:00Z', projectId: 'missing-project' });
    expect(res.status).toBe(400);
  });

  test('an entry created with an endTime does not touch the running one', async () => {
    const run = await created<Entry>(start({ userId: 'cid', startTime: '2026-03-04T09:00:00Z' }));
    await created<Entry>(start({ userId: 'cid', startTime: '2026-03-04T07:00:00Z', endTime: '2026-03-04T08:00:00Z' }));
    expect((await get(run)).endTime).toBeUndefined();
    expect((await running('cid')).map((e) => e.id)).toEqual([run.id]);
  });

  test('clearing endTime restarts an entry and stops the running one', async () => {
    const done = await created<Entry>(start({ userId: 'dan', startTime: '2026-03-05T11:00:00Z', endTime: '2026-03-05T11:30:00Z' }));
    const run = await created<Entry>(start({ userId: 'dan', startTime: '2026-03-05T09:00:00Z' }));
    const res = await api.put(path(done), { endTime: null }, { key, query: { sortKey: done.sortKey } });
    expect(res.status).toBe(200);
    expect(res.body.endTime).toBeUndefined();
    expect(await get(run)).toMatchObject({ endTime: '2026-03-05T11:00:00.000Z', durationMinutes: 120 });
    expect((await running('dan')).map((e) => e.id)).toEqual([done.id]);
  });

  test('moving or deleting the running entry keeps the timer item right', async () => {
    const run = await created<Entry>(start({ userId: 'eve', startTime: '2026-03-06T09:00:00Z' }));
    const moved = (await api.put(path(run), { startTime: '2026-03-06T08:00:00Z' }, { key, query: { sortKey: run.sortKey } })).body as Entry;
    expect((await timerItem('eve'))?.sortKey).toBe(moved.sortKey);
    const other = await api.put(path(run), { userId: 'eve2' }, { key, query: { sortKey: moved.sortKey } });
    expect(other.status).toBe(200);
    expect(await timerItem('eve')).toBeUndefined();
    expect((await timerItem('eve2'))?.sortKey).toBe(moved.sortKey);
    expect((await api.del(path(run), { key, query: { sortKey: moved.sortKey } })).status).toBe(200);
    expect(await timerItem('eve2')).toBeUndefined();
    expect(await running('eve2')).toEqual([]);
  });

  test('20 concurrent starts for one user leave exactly one running entry; every other started one is stopped', async () => {
    const base = Date.parse('2026-04-01T08:00:00Z');
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => start({ userId: 'race', startTime: new Date(base + i * 60_000).toISOString() })));
    for (const r of results) expect([201, 409]).toContain(r.status);
    const ok = results.filter((r) => r.status === 201).map((r) => r.body as Entry);
    expect(ok.length).toBeGreaterThan(0);
    const now = await running('race');
    expect(now).toHaveLength(1);
    expect((await timerItem('race'))?.sortKey).toBe(now[0]!.sortKey);
    // every acknowledged start other than the running one was stopped at another entry's startTime
    const startTimes = new Set(ok.map((e) => e.startTime));
    for (const e of ok.filter((x) => x.id !== now[0]!.id)) {
      const stored = await get(e);
      expect(stored.endTime).toBeDefined();
      expect(startTimes.has(String(stored.endTime))).toBe(true);
    }
  }, 120_000);
});

describe('POST /v1/time-entries/{id}/stop', () => {
  test('stops a running entry at the body endTime, or now by default; 409 when it is not running', async () => {
    const a = await created<Entry>(start({ userId: 'sto', startTime: '2026-03-10T09:00:00Z' }));
    const res = await api.post(`${path(a)}/stop`, { endTime: '2026-03-10T09:45:00+00:00' }, { key, query: { sortKey: a.sortKey } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: a.id, endTime: '2026-03-10T09:45:00.000Z', durationMinutes: 45 });
    expect(res.headers.ETag).toBe(res.body.etag);
    expect(await timerItem('sto')).toBeUndefined();
    const again = await api.post(`${path(a)}/stop`, {}, { key, query: { sortKey: a.sortKey } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');

    const b = await created<Entry>(start({ userId: 'sto', startTime: new Date(Date.now() - 30 * 60_000).toISOString() }));
    const noBody = await api.call('POST', `${path(b)}/stop`, { key, query: { sortKey: b.sortKey } });
    expect(noBody.status).toBe(200);
    expect(noBody.body.durationMinutes).toBeGreaterThanOrEqual(29);
    expect(await running('sto')).toEqual([]);
  });

  test('client mistakes: endTime before startTime 400, unknown field 400, bad sortKey 400, unknown entry 404, no scope 403', async () => {
    const a = await created<Entry>(start({ userId: 'stp', startTime: '2026-03-11T09:00:00Z' }));
    const ro = await testKey(ws, { scopes: ['time-entries:read'] });
    const before = await snapshot();
    const early = await api.post(`${path(a)}/stop`, { endTime: '2026-03-11T08:00:00Z' }, { key, query: { sortKey: a.sortKey } });
    expect(early.status).toBe(400);
    expect(early.body.error.details[0].field).toBe('endTime');
    expect((await api.post(`${path(a)}/stop`, { endTime: 'yesterday' }, { key, query: { sortKey: a.sortKey } })).status).toBe(400);
    expect((await api.post(`${path(a)}/stop`, { startTime: '2026-03-11T08:00:00Z' }, { key, query: { sortKey: a.sortKey } })).status).toBe(400);
    expect((await api.post(`${path(a)}/stop`, {}, { key, query: { sortKey: 'nope' } })).status).toBe(400);
    expect((await api.post(`${path(a)}/stop`, {}, { key })).status).toBe(400);
    expect((await api.call('POST', `${path(a)}/stop`, { key, query: { sortKey: a.sortKey }, rawBody: '{oops' })).status).toBe(400);
    const missing = await api.post(`/v1/time-entries/01JB2Z3Y4X5W6V7T8S9R0Q1P2N/stop`, {}, { key, query: { sortKey: '2026-03-11T09:00:00.000Z#01JB2Z3Y4X5W6V7T8S9R0Q1P2N' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('Time entry not found');
    expect((await api.post(`${path(a)}/stop`, {}, { key: ro, query: { sortKey: a.sortKey } })).status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });
});

describe('POST /v1/favorites/{id}/start', () => {
  test("201 and a running entry with the favorite's fields; the user's running entry is stopped", async () => {
    const fav = await created(
      api.post(
        '/v1/favorites',
        { userId: 'fay', name: 'Build it', projectId: cat.p1.id, taskId: cat.t1.id, tagIds: [cat.tag1.id], billable: false, notes: 'from a favorite' },
        { key },
      ),
    );
    const old = await created<Entry>(start({ userId: 'fay', startTime: '2026-03-12T08:00:00Z' }));
    const res = await api.post(`/v1/favorites/${fav.id}/start`, { startTime: '2026-03-12T09:00:00Z' }, { key, query: { userId: 'fay' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      userId: 'fay',
      name: 'Build it',
      projectId: cat.p1.id,
      clientId: cat.c1.id,
      taskId: cat.t1.id,
      tagIds: [cat.tag1.id],
      billable: false,
      notes: 'from a favorite',
      startTime: '2026-03-12T09:00:00.000Z',
    });
    expect(res.body.endTime).toBeUndefined();
    expect(res.headers.ETag).toBe('"1"');
    expect(await get(old)).toMatchObject({ endTime: '2026-03-12T09:00:00.000Z', durationMinutes: 60 });
    expect((await running('fay')).map((e) => e.id)).toEqual([res.body.id]);
    // without a body: now
    const now = await api.call('POST', `/v1/favorites/${fav.id}/start`, { key, query: { userId: 'fay' } });
    expect(now.status).toBe(201);
    expect(Math.abs(Date.parse(now.body.startTime) - Date.now())).toBeLessThan(60_000);
  });

  test('a favorite without billable: the entry takes its project billable', async () => {
    const fav = await created(api.post('/v1/favorites', { userId: 'fil', name: 'P1 work', projectId: cat.p1.id }, { key }));
    const res = await api.post(`/v1/favorites/${fav.id}/start`, {}, { key, query: { userId: 'fil' } });
    expect(res.status).toBe(201);
    expect(res.body.billable).toBe(true);
  });

  test('client mistakes: unknown favorite or another user 404, missing userId 400, bad startTime 400, no scope 403', async () => {
    const fav = await created(api.post('/v1/favorites', { userId: 'fox', name: 'Fox' }, { key }));
    const favOnly = await testKey(ws, { scopes: ['favorites:read', 'favorites:write'] });
    const before = await snapshot();
    const other = await api.post(`/v1/favorites/${fav.id}/start`, {}, { key, query: { userId: 'someone-else' } });
    expect(other.status).toBe(404);
    expect(other.body.error.message).toBe('Favorite not found');
    expect((await api.post(`/v1/favorites/nope/start`, {}, { key, query: { userId: 'fox' } })).status).toBe(404);
    expect((await api.post(`/v1/favorites/${fav.id}/start`, {}, { key })).status).toBe(400);
    expect((await api.post(`/v1/favorites/${fav.id}/start`, { startTime: 'soon' }, { key, query: { userId: 'fox' } })).status).toBe(400);
    expect((await api.post(`/v1/favorites/${fav.id}/start`, { endTime: '2026-01-01T00:00:00Z' }, { key, query: { userId: 'fox' } })).status).toBe(400);
    expect((await api.post(`/v1/favorites/${fav.id}/start`, {}, { key: favOnly, query: { userId: 'fox' } })).status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });
});

describe('GET /v1/time-entries?running=true and the billable default', () => {
  test('running entries of the workspace and of one user, read from the running-entries index', async () => {
    const all = await running();
    expect(all.length).toBeGreaterThan(3);
    expect(all.every((e) => e.endTime === undefined)).toBe(true);
    expect(new Set(all.map((e) => e.userId)).size).toBe(all.length);
    expect((await running('race')).length).toBe(1);
    const combined = await api.get('/v1/time-entries', { key, query: { running: 'true', userId: 'race', startDate: '2020-01-01', endDate: '2020-12-31' } });
    expect(combined.body.items).toEqual([]);
    expect((await api.get('/v1/time-entries', { key, query: { running: 'false' } })).status).toBe(400);
    expect((await api.get('/v1/time-entries', { key, query: { running: 'yes' } })).status).toBe(400);
  });

  test("billable defaults to the project's billable; sent values win; no project: false", async () => {
    const internal = await created(api.post('/v1/projects', { name: 'Unbilled', billable: false }, { key }));
    const mk = async (body: Record<string, unknown>) =>
      (await created<Entry>(start({ userId: 'bil', startTime: '2026-02-01T09:00:00Z', endTime: '2026-02-01T10:00:00Z', ...body }))).billable;
    expect(await mk({ projectId: cat.p1.id })).toBe(true);
    expect(await mk({ taskId: cat.t1.id })).toBe(true);
    expect(await mk({ projectId: internal.id })).toBe(false);
    expect(await mk({ projectId: cat.p1.id, billable: false })).toBe(false);
    expect(await mk({ projectId: internal.id, billable: true })).toBe(true);
    expect(await mk({})).toBe(false);
  });
});
