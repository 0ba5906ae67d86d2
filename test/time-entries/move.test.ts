import { apiClient, newWorkspace, useTestTable } from '../support/harness';
import { created, newestFirst, pageAll, testKey, type Entry } from './helpers';

useTestTable();
const api = apiClient();

/**
 * Entries moving (startTime changed) or disappearing while a client pages. The cursor is a position
 * (the key of the last item returned), not an item, so it stays valid when that item moves or is
 * deleted; an entry is listed where it is when its page is read.
 */
let key: string;

const hour = (h: number) => new Date(Date.UTC(2026, 4, 1) + h * 3600_000).toISOString();

async function makeEntries(userId: string, n: number): Promise<Entry[]> {
  const out: Entry[] = [];
  for (let i = 0; i < n; i++) out.push(await created<Entry>(api.post('/v1/time-entries', { userId, startTime: hour(i * 2), endTime: hour(i * 2 + 1) }, { key })));
  return out.sort(newestFirst);
}

const move = async (e: Entry, startTime: string) => {
  // the entry keeps its hour (finished entries: a running one per user would stop the others)
  const endTime = new Date(Date.parse(startTime) + 3600_000).toISOString();
  const res = await api.put(`/v1/time-entries/${e.id}`, { startTime, endTime }, { key, query: { sortKey: e.sortKey } });
  expect(res.status).toBe(200);
  return res.body as Entry;
};

const next = async (query: Record<string, string>, cursor?: string) => {
  const res = await api.get('/v1/time-entries', { key, query: { ...query, ...(cursor ? { cursor } : {}) } });
  expect(res.status).toBe(200);
  return res.body as { items: Entry[]; nextCursor?: string; hasMore: boolean };
};

// a workspace per test, so the unfiltered listing holds only that test's entries
beforeEach(async () => {
  key = await testKey(newWorkspace('move'));
});

test.each([[{}], [{ userId: 'mover-1' }]])('the entry the cursor points at moves out of the date range: paging continues, nothing skipped or repeated (%j)', async (filter) => {
  const entries = await makeEntries('mover-1', 30);
  const q = { ...filter, limit: '10', startDate: hour(0) };
  const p1 = await next(q);
  expect(p1.items.map((i) => i.id)).toEqual(entries.slice(0, 10).map((e) => e.id));
  const last = p1.items[9]!;
  const moved = await move(last, hour(-1)); // before startDate now
  expect(moved.sortKey).not.toBe(last.sortKey);
  let cursor = p1.nextCursor;
  const seen = [...p1.items];
  while (cursor) {
    const p = await next(q, cursor);
    seen.push(...p.items);
    cursor = p.nextCursor;
  }
  // listed once (on page 1, before it moved), every other entry once, in order
  expect(seen.map((i) => i.id)).toEqual(entries.map((e) => e.id));
});

test('an unread entry moved to another unread place is listed exactly once, with its new sortKey', async () => {
  const user = 'mover-2';
  const entries = await makeEntries(user, 30);
  const q = { userId: user, limit: '10' };
  const p1 = await next(q);
  const target = entries[20]!;
  const moved = await move(target, new Date(Date.parse(entries[12]!.startTime) - 60_000).toISOString());
  const seen = [...p1.items];
  let cursor = p1.nextCursor;
  while (cursor) {
    const p = await next(q, cursor);
    seen.push(...p.items);
    cursor = p.nextCursor;
  }
  expect(seen.filter((i) => i.id === target.id).map((i) => i.sortKey)).toEqual([moved.sortKey]);
  expect(seen.map((i) => i.id).sort()).toEqual(entries.map((e) => e.id).sort());
  expect(seen.length).toBe(30);
});

test('the cursor item moves into the unread part: it is listed again at its new place, every other entry once; a fresh listing has each once', async () => {
  const user = 'mover-3';
  const entries = await makeEntries(user, 30);
  const q = { userId: user, limit: '10' };
  const p1 = await next(q);
  const last = p1.items[9]!;
  const moved = await move(last, new Date(Date.parse(entries[25]!.startTime) - 60_000).toISOString());
  const seen = [...p1.items];
  let cursor = p1.nextCursor;
  while (cursor) {
    const p = await next(q, cursor);
    seen.push(...p.items);
    cursor = p.nextCursor;
  }
  const others = entries.filter((e) => e.id !== last.id).map((e) => e.id);
  expect(seen.filter((i) => i.id !== last.id).map((i) => i.id)).toEqual(others);
  expect(seen.filter((i) => i.id === last.id).map((i) => i.sortKey)).toEqual([last.sortKey, moved.sortKey]);
  const fresh = await pageAll(api, key, { userId: user, limit: '7' });
  expect(fresh.items.map((i) => i.id).sort()).toEqual(entries.map((e) => e.id).sort());
  expect(fresh.items.find((i) => i.id === last.id)!.sortKey).toBe(moved.sortKey);
});

test('an unread entry moved into the read part is not listed again; the cursor item deleted: paging continues', async () => {
  const user = 'mover-4';
  const entries = await makeEntries(user, 30);
  const q = { userId: user, limit: '10' };
  const p1 = await next(q);
  const target = entries[25]!;
  await move(target, new Date(Date.parse(entries[0]!.startTime) + 60_000).toISOString());
  const last = p1.items[9]!;
  expect((await api.del(`/v1/time-entries/${last.id}`, { key, query: { sortKey: last.sortKey } })).status).toBe(200);
  const seen = [...p1.items];
  let cursor = p1.nextCursor;
  while (cursor) {
    const p = await next(q, cursor);
    seen.push(...p.items);
    cursor = p.nextCursor;
  }
  expect(seen.map((i) => i.id)).toEqual(entries.filter((e) => e.id !== target.id).map((e) => e.id));
  const fresh = await pageAll(api, key, { userId: user, limit: '50' });
  expect(fresh.items.map((i) => i.id)).toEqual([target.id, ...entries.filter((e) => e.id !== target.id && e.id !== last.id).map((e) => e.id)]);
});
