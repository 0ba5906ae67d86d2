import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { changesNow, setChangesClock } from '../../shared/data/changes';
import { db, tableName } from '../../shared/data/db';
import { keys } from '../../shared/data/keys';
import { CHANGE_TYPES } from '../../shared/domain/changes';
import { withFaultClient } from '../faults/inject';
import { err, fields, HIGH_LIMITS, workspaceWithKey } from '../resources/support';
import { apiClient, makeKey, useTestTable } from '../support/harness';
import { drain, type FeedEvent } from './support';

/**
 * GET /v1/changes against DynamoDB Local: one event per committed create, update (a move included) and
 * delete of every resource, none for refused or failed writes, exactly one for a write whose answer was
 * lost; scopes, types, since, retention (injected clock), cursors bound to the workspace, isolation, and
 * the gap rules (a position taken by a writer that died is waited for, then voided; a writer whose
 * position was voided writes again at a new one).
 */
useTestTable();
const api = apiClient();
afterEach(() => setChangesClock());

const summary = (e: FeedEvent) => [e.type, e.resourceId, e.data.etag];
const DAY = 86_400_000;

async function catalog(key: string) {
  const client = (await api.post('/v1/clients', { name: 'Acme', currency: 'EUR' }, { key })).body;
  const project = (await api.post('/v1/projects', { name: 'Site', clientId: client.id, billable: true }, { key })).body;
  const task = (await api.post('/v1/tasks', { projectId: project.id, name: 'Build' }, { key })).body;
  const tag = (await api.post('/v1/tags', { name: 'red' }, { key })).body;
  return { client, project, task, tag };
}

describe('events of every write', () => {
  test('each resource: created, updated, deleted, with the record as its routes return it', async () => {
    const { key } = await workspaceWithKey('feed');
    const { client, project, task, tag } = await catalog(key);
    const entry = (
      await api.post('/v1/time-entries', { userId: 'u1', startTime: '2026-03-02T09:00:00Z', endTime: '2026-03-02T10:00:00Z', projectId: project.id, tagIds: [tag.id] }, { key })
    ).body;
    const fav = (await api.post('/v1/favorites', { userId: 'u1', name: 'Quick', projectId: project.id }, { key })).body;
    const clientV2 = (await api.put(`/v1/clients/${client.id}`, { notes: 'VIP' }, { key })).body;
    const entryV2 = (
      await api.put(
        `/v1/time-entries/${entry.id}`,
        { notes: 'moved', startTime: '2026-03-03T09:00:00Z', endTime: '2026-03-03T10:00:00Z' },
        { key, query: { sortKey: entry.sortKey } },
      )
    ).body;
    expect(entryV2.sortKey).not.toBe(entry.sortKey);
    expect((await api.del(`/v1/time-entries/${entry.id}`, { key, query: { sortKey: entryV2.sortKey } })).status).toBe(200);
    expect((await api.del(`/v1/favorites/${fav.id}`, { key, query: { userId: 'u1' } })).status).toBe(200);
    expect((await api.del(`/v1/tasks/${task.id}`, { key })).status).toBe(200);
    expect((await api.del(`/v1/tags/${tag.id}`, { key })).status).toBe(200);

    const { events } = await drain(api, key);
    expect(events.map((e) => [e.type, e.resourceId])).toEqual([
      ['client.created', client.id],
      ['project.created', project.id],
      ['task.created', task.id],
      ['tag.created', tag.id],
      ['time-entry.created', entry.id],
      ['favorite.created', fav.id],
      ['client.updated', client.id],
      ['time-entry.updated', entry.id],
      ['time-entry.deleted', entry.id],
      ['favorite.deleted', fav.id],
      ['task.deleted', task.id],
      ['tag.deleted', tag.id],
    ]);
    const byKey = (type: string, id: string) => events.find((e) => e.type === type && e.resourceId === id)!;
    expect(byKey('client.created', client.id).data).toEqual(client);
    expect(byKey('client.updated', client.id).data).toEqual(clientV2);
    expect(byKey('time-entry.created', entry.id).data).toEqual(entry);
    // A move is one updated event: data has the new sortKey, previousSortKey the old one.
    const moved = byKey('time-entry.updated', entry.id);
    expect(moved.data).toEqual(entryV2);
    expect(moved.previousSortKey).toBe(entry.sortKey);
    expect(byKey('client.updated', client.id).previousSortKey).toBeUndefined();
    // A deleted event carries the record's last state.
    expect(byKey('time-entry.deleted', entry.id).data).toEqual(entryV2);
    expect(byKey('tag.deleted', tag.id).data).toEqual(tag);
    for (const e of events) {
      expect(e.id).toMatch(/^evt_[0-9A-Z]{26}$/);
      expect(e.resource).toBe(e.type.split('.')[0]);
      expect(Date.parse(e.occurredAt)).not.toBeNaN();
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    // Written one after another, so occurredAt never decreases along the feed (writers in parallel may stamp out of order).
    expect(events.map((e) => e.occurredAt)).toEqual([...events.map((e) => e.occurredAt)].sort());
  });

  test('refused writes leave no event, and the feed goes on at once after them (their positions are voided)', async () => {
    const { key } = await workspaceWithKey('feed-refused');
    const { client, project } = await catalog(key);
    const { cursor } = await drain(api, key);
    const refused = [
      await api.post('/v1/clients', { name: 'ACME', currency: 'EUR' }, { key }), // 409 unique name
      await api.del(`/v1/clients/${client.id}`, { key }), // 409 still used by the project
      await api.put(`/v1/clients/${client.id}`, { notes: 'x' }, { key, headers: { 'If-Match': '"99"' } }), // 412
      await api.put('/v1/clients/01JB2Z3Y4X5W6V7T8S9R0Q1P2N', { notes: 'x' }, { key }), // 404
      await api.post('/v1/time-entries', { userId: 'u1', startTime: '2026-03-02T09:00:00Z', projectId: '01JB2Z3Y4X5W6V7T8S9R0Q1P2N' }, { key }), // 400 missing reference
      await api.post('/v1/tasks', { name: 'no project' }, { key }), // 400 validation
    ];
    expect(refused.map((r) => r.status)).toEqual([409, 409, 412, 404, 400, 400]);
    const after = (await api.put(`/v1/projects/${project.id}`, { notes: 'after' }, { key })).body;
    // With the gap timeout at an hour, a gap left by any of them would hold the next event back.
    process.env.CHANGES_GAP_TIMEOUT_MS = String(3_600_000);
    try {
      const { events } = await drain(api, key, { cursor });
      expect(events.map(summary)).toEqual([['project.updated', project.id, after.etag]]);
    } finally {
      delete process.env.CHANGES_GAP_TIMEOUT_MS;
    }
  });
});

describe('paging', () => {
  test('limit, hasMore, and nextCursor on every page, the last one too', async () => {
    const { key } = await workspaceWithKey('feed-pages');
    for (let i = 0; i < 7; i++) await api.post('/v1/tags', { name: `t${i}` }, { key });
    const pages: number[] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await api.get('/v1/changes', { key, query: { limit: '3', ...(cursor ? { cursor } : {}) } });
      expect(res.status).toBe(200);
      expect(typeof res.body.nextCursor).toBe('string');
      pages.push(res.body.items.length);
      cursor = res.body.nextCursor;
      if (!res.body.hasMore) break;
    }
    expect(pages.reduce((a, b) => a + b, 0)).toBe(7);
    expect(pages.slice(0, 2)).toEqual([3, 3]);
    // The last cursor resumes exactly there: nothing now, the next change later.
    const idle = await api.get('/v1/changes', { key, query: { cursor: cursor! } });
    expect(idle.body).toMatchObject({ items: [], hasMore: false });
    const tag = (await api.post('/v1/tags', { name: 'late' }, { key })).body;
    const next = await drain(api, key, { cursor: idle.body.nextCursor });
    expect(next.events.map((e) => e.resourceId)).toEqual([tag.id]);
  });

  test('limit out of range, a malformed since and cursor with since are 400', async () => {
    const { key } = await workspaceWithKey('feed-400');
    for (const query of [{ limit: '0' }, { limit: '201' }, { limit: 'x' }, { since: 'yesterday' }]) {
      const res = await api.get('/v1/changes', { key, query });
      expect(err(res)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    }
    const { cursor } = await drain(api, key);
    const both = await api.get('/v1/changes', { key, query: { cursor, since: new Date().toISOString() } });
    expect(err(both)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(fields(both)).toEqual(['since']);
  });
});

describe('filters', () => {
  test('a key sees only events of resources it can read; the others are passed over, not refused', async () => {
    const { ws, key } = await workspaceWithKey('feed-scopes');
    const { client, project } = await catalog(key);
    const clientsOnly = await makeKey(ws, { scopes: ['clients:read'], ...HIGH_LIMITS });
    const writeOnly = await makeKey(ws, { scopes: ['clients:write', 'projects:write'], ...HIGH_LIMITS });
    expect((await drain(api, clientsOnly)).events.map((e) => [e.type, e.resourceId])).toEqual([['client.created', client.id]]);
    expect((await drain(api, writeOnly)).events).toEqual([]);
    const all = (await drain(api, key)).events;
    expect(all.map((e) => e.resourceId)).toEqual(expect.arrayContaining([client.id, project.id]));
  });

  test('types: exact types, <resource>.*, *, and an unknown type is 400', async () => {
    const { key } = await workspaceWithKey('feed-types');
    const { client, project } = await catalog(key);
    await api.put(`/v1/clients/${client.id}`, { notes: 'x' }, { key });
    const only = async (types: string) => (await drain(api, key, { query: { types } })).events.map((e) => e.type);
    expect(await only('client.updated')).toEqual(['client.updated']);
    expect(await only('client.*')).toEqual(['client.created', 'client.updated']);
    expect(await only('project.created, client.updated')).toEqual(['project.created', 'client.updated']);
    expect((await only('*')).length).toBe(5);
    for (const bad of ['client.renamed', 'clients.*', 'x']) {
      const res = await api.get('/v1/changes', { key, query: { types: bad } });
      expect(err(res)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
      expect(fields(res)).toEqual(['types']);
    }
    expect(CHANGE_TYPES).toContain('time-entry.deleted');
    void project;
  });

  test('since starts at the first event at or after it', async () => {
    const { key } = await workspaceWithKey('feed-since');
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) {
      ids.push((await api.post('/v1/tags', { name: `s${i}` }, { key })).body.id);
      await new Promise((r) => setTimeout(r, 5));
    }
    const all = (await drain(api, key)).events;
    for (const i of [0, 1, 4, 8]) {
      const from = await drain(api, key, { query: { since: all[i]!.occurredAt } });
      expect(from.events.map((e) => e.resourceId)).toEqual(ids.slice(i));
    }
    expect((await drain(api, key, { query: { since: new Date(Date.now() + 60_000).toISOString() } })).events).toEqual([]);
  });

  test('since = now while a write taken before is still in flight: the start moves back, its event is not missed', async () => {
    const { ws, key } = await workspaceWithKey('feed-since-open');
    const before = (await api.post('/v1/tags', { name: 'before' }, { key })).body;
    const [open] = await takePositions(ws, 1); // a write in flight: its position taken, not yet committed
    const after = (await api.post('/v1/tags', { name: 'after' }, { key })).body;
    const start = await api.get('/v1/changes', { key, query: { since: new Date(Date.now() + 10).toISOString() } });
    expect(start.body).toMatchObject({ items: [], hasMore: false });
    // The in-flight write commits now, after the caller took its cursor.
    const late = {
      id: 'evt_01JB2Z3Y4X5W6V7T8S9R0Q1P2N',
      type: 'tag.created',
      resource: 'tag',
      resourceId: '01JB2Z3Y4X5W6V7T8S9R0Q1P2N',
      occurredAt: new Date().toISOString(),
      data: { ...before, id: '01JB2Z3Y4X5W6V7T8S9R0Q1P2N', name: 'late' },
    };
    await db().send(
      new PutCommand({ TableName: tableName(), Item: { ...keys.change(ws, open!), _type: 'CHANGE', position: open, at: Date.now(), prevAt: Date.now(), event: late } }),
    );
    const { events } = await drain(api, key, { cursor: start.body.nextCursor });
    expect(events.map((e) => e.data.name)).toEqual(['late', 'after']);
    void after;
  });
});

describe('retention (injected clock)', () => {
  test('a cursor or since older than 30 days is 410 CURSOR_EXPIRED; a cursor used within 30 days keeps working', async () => {
    const { key } = await workspaceWithKey('feed-retention');
    await api.post('/v1/tags', { name: 'old' }, { key });
    const { cursor } = await drain(api, key);
    const now = Date.now();
    setChangesClock(() => now + 29 * DAY);
    const fresh = await api.get('/v1/changes', { key, query: { cursor } });
    expect(fresh.status).toBe(200);
    setChangesClock(() => now + 31 * DAY);
    const stale = await api.get('/v1/changes', { key, query: { cursor } });
    expect(err(stale)).toMatchObject({ status: 410, code: 'CURSOR_EXPIRED' });
    expect(err(stale).message).toContain('resynchronise from the lists');
    // The cursor renewed on day 29 is 2 days old on day 31.
    expect((await api.get('/v1/changes', { key, query: { cursor: fresh.body.nextCursor } })).status).toBe(200);
    const since = await api.get('/v1/changes', { key, query: { since: new Date(now).toISOString() } });
    expect(err(since)).toMatchObject({ status: 410, code: 'CURSOR_EXPIRED' });
  });

  test('a poller whose next events expired unseen gets 410, not a silent skip', async () => {
    const { ws, key } = await workspaceWithKey('feed-expired-gap');
    const { cursor } = await drain(api, key); // position 0, before anything
    await api.post('/v1/tags', { name: 'first' }, { key });
    const { cursor: afterFirst } = await drain(api, key, { cursor });
    // Positions 2 and 3 were taken 40 days ago and their events are gone (as TTL removes them): then a new event.
    const now = Date.now();
    await takePositions(ws, 2);
    setChangesClock(() => now + 40 * DAY);
    await api.post('/v1/tags', { name: 'later' }, { key });
    setChangesClock(() => now + 40 * DAY + 1000);
    expect(err(await api.get('/v1/changes', { key, query: { cursor: afterFirst } }))).toMatchObject({ status: 410, code: 'CURSOR_EXPIRED' });
  });
});

describe('retention: a poller far behind', () => {
  test('a cursor renewed recently but resting on a position older than the retention, then a gap: 410, not a silent step-over', async () => {
    const { ws, key } = await workspaceWithKey('feed-old-position');
    const now = Date.now();
    await api.post('/v1/tags', { name: 'old' }, { key });
    const { cursor } = await drain(api, key);
    // day 29: the poller polls (nothing new), so its cursor is renewed but still rests on the old position
    setChangesClock(() => now + 29 * DAY);
    const renewed = (await api.get('/v1/changes', { key, query: { cursor } })).body.nextCursor as string;
    // day 31: a write in flight (position taken, not committed) and a committed one after it
    setChangesClock(() => now + 31 * DAY);
    await takePositions(ws, 1);
    await api.post('/v1/tags', { name: 'new' }, { key });
    expect(err(await api.get('/v1/changes', { key, query: { cursor: renewed } }))).toMatchObject({ status: 410, code: 'CURSOR_EXPIRED' });
  });
});

describe('since and out-of-order stamps', () => {
  test('a position stamped after since but stored before one stamped earlier is still returned', async () => {
    const { key } = await workspaceWithKey('feed-since-skew');
    const t = Date.now();
    setChangesClock(() => t);
    await api.post('/v1/tags', { name: 'early' }, { key });
    // two writers whose clocks disagree: the first to take a position stamps it later than the next
    setChangesClock(() => t + 100);
    const late = (await api.post('/v1/tags', { name: 'stamped-late' }, { key })).body;
    setChangesClock(() => t + 50);
    const early = (await api.post('/v1/tags', { name: 'stamped-early' }, { key })).body;
    setChangesClock(() => t + 200);
    const { events } = await drain(api, key, { query: { since: new Date(t + 60).toISOString() } });
    expect(events.map((e) => e.resourceId)).toEqual([late.id, early.id]);
  });
});

describe('cursors', () => {
  test("another workspace's cursor, an altered or a made-up one is 400 on cursor", async () => {
    const a = await workspaceWithKey('feed-cur-a');
    const b = await workspaceWithKey('feed-cur-b');
    await api.post('/v1/tags', { name: 'a' }, { key: a.key });
    const { cursor } = await drain(api, a.key);
    const flipped = cursor.slice(0, 10) + (cursor[10] === 'A' ? 'B' : 'A') + cursor.slice(11);
    for (const c of [cursor, flipped, 'abc.def', 'x']) {
      const res = await api.get('/v1/changes', { key: c === cursor ? b.key : a.key, query: { cursor: c } });
      expect(err(res)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
      expect(fields(res)).toEqual(['cursor']);
    }
  });

  test('a time-entry page cursor is not a feed cursor', async () => {
    const { key } = await workspaceWithKey('feed-cur-te');
    for (let i = 0; i < 2; i++) await api.post('/v1/time-entries', { userId: 'u1', startTime: `2026-03-0${i + 1}T09:00:00Z` }, { key });
    const page = await api.get('/v1/time-entries', { key, query: { limit: '1' } });
    const res = await api.get('/v1/changes', { key, query: { cursor: page.body.nextCursor } });
    expect(err(res)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  });

  test('no event of another workspace ever appears', async () => {
    const a = await workspaceWithKey('feed-iso-a');
    const b = await workspaceWithKey('feed-iso-b');
    const ta = (await api.post('/v1/tags', { name: 'a' }, { key: a.key })).body;
    const tb = (await api.post('/v1/tags', { name: 'b' }, { key: b.key })).body;
    expect((await drain(api, a.key)).events.map((e) => e.resourceId)).toEqual([ta.id]);
    expect((await drain(api, b.key)).events.map((e) => e.resourceId)).toEqual([tb.id]);
  });
});

/** Takes `count` positions of the workspace's feed without writing them (writers in flight, or dead); returns them. */
async function takePositions(ws: string, count: number): Promise<number[]> {
  const taken: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.changeSequence(ws),
        UpdateExpression: 'SET #prev = if_not_exists(#at, :zero), #at = :at ADD #n :one',
        ExpressionAttributeNames: { '#prev': 'prevAt', '#at': 'at', '#n': 'n' },
        ExpressionAttributeValues: { ':zero': 0, ':at': changesNow(), ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    taken.push(Number(res.Attributes!.n));
  }
  return taken;
}

describe('gaps', () => {
  afterEach(() => delete process.env.CHANGES_GAP_TIMEOUT_MS);

  test('a position taken by a writer that died holds later events back for the gap timeout, then is voided', async () => {
    const { ws, key } = await workspaceWithKey('feed-gap');
    const first = (await api.post('/v1/tags', { name: 'first' }, { key })).body;
    const { cursor } = await drain(api, key);
    await takePositions(ws, 1);
    const second = (await api.post('/v1/tags', { name: 'second' }, { key })).body;
    process.env.CHANGES_GAP_TIMEOUT_MS = String(3_600_000);
    const held = await api.get('/v1/changes', { key, query: { cursor } });
    expect(held.body).toMatchObject({ items: [], hasMore: false });
    // The held-back page's cursor resumes at the same place.
    process.env.CHANGES_GAP_TIMEOUT_MS = '0';
    const { events } = await drain(api, key, { cursor: held.body.nextCursor });
    expect(events.map((e) => e.resourceId)).toEqual([second.id]);
    void first;
  });

  test('a writer whose position a reader voided writes its event at a new position: exactly one event', async () => {
    const { ws, key } = await workspaceWithKey('feed-voided');
    const { cursor } = await drain(api, key);
    await takePositions(ws, 1);
    process.env.CHANGES_GAP_TIMEOUT_MS = '0';
    await api.post('/v1/tags', { name: 'after-gap' }, { key }); // position 2: the reader voids 1 when it meets the gap
    await drain(api, key, { cursor });
    // Now position 3 is voided ahead of its writer, as a reader would do to a slow writer's position.
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...keys.change(ws, 3), _type: 'CHANGEVOID', position: 3, at: Date.now(), prevAt: Date.now() } }));
    const tag = (await api.post('/v1/tags', { name: 'voided-first' }, { key })).body;
    const { events } = await drain(api, key, { cursor });
    expect(events.map((e) => e.data.name)).toEqual(['after-gap', 'voided-first']);
    expect(events[1]!.resourceId).toBe(tag.id);
  });
});

describe('faults', () => {
  test('a reader that cannot void a gap (throttled) answers 503 and does not step over it', async () => {
    const { ws, key } = await workspaceWithKey('feed-fault-void');
    const { cursor } = await drain(api, key);
    const [open] = await takePositions(ws, 1);
    const after = (await api.post('/v1/tags', { name: 'after' }, { key })).body;
    process.env.CHANGES_GAP_TIMEOUT_MS = '0';
    try {
      // call 1 = the feed Query, call 2 = the void of the gap
      const { res } = await withFaultClient({ call: 2, kind: 'throttle', times: 'always' }, () => api.get('/v1/changes', { key, query: { cursor } }));
      expect(err(res)).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      // the write in flight commits after all: the feed still has it, before the later one
      const late = {
        id: 'evt_01JB2Z3Y4X5W6V7T8S9R0Q1P2M',
        type: 'tag.created',
        resource: 'tag',
        resourceId: after.id,
        occurredAt: new Date().toISOString(),
        data: { ...after, name: 'late' },
      };
      await db().send(
        new PutCommand({ TableName: tableName(), Item: { ...keys.change(ws, open!), _type: 'CHANGE', position: open, at: Date.now(), prevAt: Date.now(), event: late } }),
      );
      expect((await drain(api, key, { cursor })).events.map((e) => e.data.name)).toEqual(['late', 'after']);
    } finally {
      delete process.env.CHANGES_GAP_TIMEOUT_MS;
    }
  });

  test('a position taken twice (the counter UpdateItem applied, its answer lost, sent again): one event, the orphan position voided', async () => {
    const { key } = await workspaceWithKey('feed-fault-counter');
    const { cursor } = await drain(api, key);
    const { res } = await withFaultClient({ call: 1, kind: 'timeout-after-apply', times: 'once' }, () => api.post('/v1/tags', { name: 'twice' }, { key }));
    expect(res.status).toBe(201);
    const next = (await api.post('/v1/tags', { name: 'next' }, { key })).body;
    process.env.CHANGES_GAP_TIMEOUT_MS = '0';
    try {
      expect((await drain(api, key, { cursor })).events.map((e) => e.resourceId)).toEqual([res.body.id, next.id]);
    } finally {
      delete process.env.CHANGES_GAP_TIMEOUT_MS;
    }
  });

  test('a throttled transaction leaves no event; its position is voided, so the feed does not wait', async () => {
    const { key } = await workspaceWithKey('feed-fault-throttle');
    const { cursor } = await drain(api, key);
    // call 1 = the position, call 2 = the transaction
    const { res } = await withFaultClient({ call: 2, kind: 'transaction-throttled', times: 'always' }, () => api.post('/v1/tags', { name: 'lost' }, { key }));
    expect(res.status).toBe(503);
    const ok = (await api.post('/v1/tags', { name: 'kept' }, { key })).body;
    process.env.CHANGES_GAP_TIMEOUT_MS = String(3_600_000);
    try {
      expect((await drain(api, key, { cursor })).events.map((e) => e.resourceId)).toEqual([ok.id]);
      expect((await api.get('/v1/tags', { key })).body.items.map((t: { name: string }) => t.name)).toEqual(['kept']);
    } finally {
      delete process.env.CHANGES_GAP_TIMEOUT_MS;
    }
  });

  test('a write applied whose answer was lost: exactly one event whether the retry succeeded or the caller got an error', async () => {
    const { key } = await workspaceWithKey('feed-fault-lost');
    const { cursor } = await drain(api, key);
    const once = await withFaultClient({ call: 2, kind: 'timeout-after-apply', times: 'once' }, () => api.post('/v1/tags', { name: 'retried' }, { key }));
    expect(once.res.status).toBe(201);
    const always = await withFaultClient({ call: 2, kind: 'timeout-after-apply', times: 'always' }, () => api.post('/v1/tags', { name: 'unanswered' }, { key }));
    expect(always.res.status).toBe(503);
    const update = await withFaultClient({ call: 3, kind: 'timeout-after-apply', times: 'always' }, () => api.put(`/v1/tags/${once.res.body.id}`, { name: 'renamed' }, { key }));
    expect(update.res.status).toBe(503);
    const { events } = await drain(api, key, { cursor });
    const tags = (await api.get('/v1/tags', { key })).body.items;
    expect(tags.map((t: { name: string }) => t.name).sort()).toEqual(['renamed', 'unanswered']);
    expect(events.map((e) => [e.type, e.data.name])).toEqual([
      ['tag.created', 'retried'],
      ['tag.created', 'unanswered'],
      ['tag.updated', 'renamed'],
    ]);
  });
});
