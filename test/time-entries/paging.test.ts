import { apiClient, newWorkspace, useTestTable } from '../support/harness';
import { created, newestFirst, pageAll, snapshot, testKey, type Entry } from './helpers';

useTestTable();
const api = apiClient();

let ws: string;
let key: string;
let all: Entry[];

/** 230 entries through the API: 10 concurrent creates at a time; some share a startTime (ties). */
beforeAll(async () => {
  ws = newWorkspace('paging');
  key = await testKey(ws);
  const bodies = Array.from({ length: 230 }, (_, i) => {
    // every 10th entry shares its startTime with the previous one; offsets vary
    const minute = i - (i % 10 === 9 ? 1 : 0);
    const start = new Date(Date.UTC(2026, 0, 1, 8) + minute * 47 * 60_000);
    return { userId: `user-${i % 3}`, startTime: start.toISOString().replace('.000Z', '+00:00'), endTime: new Date(start.getTime() + 30 * 60_000).toISOString() };
  });
  all = [];
  for (let i = 0; i < bodies.length; i += 10) {
    all.push(...(await Promise.all(bodies.slice(i, i + 10).map((b) => created<Entry>(api.post('/v1/time-entries', b, { key }))))));
  }
  all.sort(newestFirst);
}, 120_000);

test('230 entries at limit 50: pages 50,50,50,50,30, each entry once, newest startTime first', async () => {
  const { items, sizes, hasMore } = await pageAll(api, key, { limit: '50' });
  expect(sizes).toEqual([50, 50, 50, 50, 30]);
  expect(hasMore).toEqual([true, true, true, true, false]);
  expect(items.map((i) => i.id)).toEqual(all.map((i) => i.id));
  expect(new Set(items.map((i) => i.id)).size).toBe(230);
  for (let i = 1; i < items.length; i++) {
    expect(items[i - 1]!.startTime >= items[i]!.startTime).toBe(true);
    expect(items[i - 1]!.sortKey > items[i]!.sortKey).toBe(true);
  }
});

test('items in a page are the whole entries (same as GET)', async () => {
  const res = await api.get('/v1/time-entries', { key, query: { limit: '3' } });
  for (const item of res.body.items as Entry[]) {
    const got = await api.get(`/v1/time-entries/${item.id}`, { key, query: { sortKey: item.sortKey } });
    expect(got.body).toEqual(item);
  }
});

test('default limit is 50; limit=200 works; hasMore is exact at the boundary', async () => {
  const first = await api.get('/v1/time-entries', { key });
  expect(first.status).toBe(200);
  expect(first.body.items).toHaveLength(50);
  expect(first.body.hasMore).toBe(true);
  expect((await pageAll(api, key, { limit: '200' })).sizes).toEqual([200, 30]);
  // 230 = 2 x 115: the second page is the last one, and says so
  const exact = await pageAll(api, key, { limit: '115' });
  expect(exact.sizes).toEqual([115, 115]);
  expect(exact.hasMore).toEqual([true, false]);
  // 230 = 230 x 1 at the other end
  const one = await pageAll(api, key, { limit: '1', startDate: all[4]!.startTime });
  expect(one.items.map((i) => i.id)).toEqual(all.slice(0, 5).map((i) => i.id));
  expect(one.hasMore).toEqual([true, true, true, true, false]);
});

test('a page size may change between pages (the cursor is not bound to the limit)', async () => {
  const p1 = await api.get('/v1/time-entries', { key, query: { limit: '20' } });
  const p2 = await api.get('/v1/time-entries', { key, query: { limit: '200', cursor: p1.body.nextCursor } });
  expect(p2.body.items).toHaveLength(200);
  const p3 = await api.get('/v1/time-entries', { key, query: { limit: '7', cursor: p2.body.nextCursor } });
  expect(p3.body.items).toHaveLength(7);
  expect(p3.body.hasMore).toBe(true);
  expect([...p1.body.items, ...p2.body.items, ...p3.body.items].map((i: Entry) => i.id)).toEqual(all.slice(0, 227).map((i) => i.id));
});

test.each(['0', '-1', '201', '1.5', 'abc', '', ' 5', '1e2', '0x10', '50abc', '99999999999999999999'])('limit=%j: 400 VALIDATION_ERROR naming limit, no items', async (limit) => {
  const res = await api.get('/v1/time-entries', { key, query: { limit } });
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect([...new Set(res.body.error.details.map((d: { field: string }) => d.field))]).toEqual(['limit']);
  expect(res.body.items).toBeUndefined();
});

test.each([
  ['startDate', 'yesterday'],
  ['endDate', '2026-13-01'],
  ['startDate', '2026-02-30'],
  ['endDate', '2026-01-01T10:00:00'],
  ['userId', ''],
  ['projectId', 'x'.repeat(129)],
  ['cursor', ''],
  ['unknown', '1'],
])('%s=%j: 400 naming the parameter', async (name, value) => {
  const res = await api.get('/v1/time-entries', { key, query: { [name]: value } });
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(name);
});

test('endDate before startDate: 400 naming endDate', async () => {
  const res = await api.get('/v1/time-entries', { key, query: { startDate: '2026-02-02', endDate: '2026-02-01' } });
  expect(res.status).toBe(400);
  expect(res.body.error.details[0].field).toBe('endDate');
});

test('date range: startDate inclusive, date-only endDate covers its whole day (UTC), date-times with offsets', async () => {
  const day = all[100]!.startTime.slice(0, 10);
  const expected = all.filter((e) => e.startTime.slice(0, 10) === day);
  expect(expected.length).toBeGreaterThan(5);
  const sameDay = await pageAll(api, key, { startDate: day, endDate: day, limit: '4' });
  expect(sameDay.items.map((i) => i.id)).toEqual(expected.map((i) => i.id));
  // exact instants are inclusive at both ends, whatever the offset they are written with
  const a = all[120]!;
  const b = all[100]!;
  const plus2 = (iso: string) => new Date(Date.parse(iso) + 2 * 3600_000).toISOString().replace('.000Z', '+02:00');
  const range = await pageAll(api, key, { startDate: plus2(a.startTime), endDate: plus2(b.startTime), limit: '6' });
  const want = all.filter((e) => e.startTime >= a.startTime && e.startTime <= b.startTime);
  expect(range.items.map((i) => i.id)).toEqual(want.map((i) => i.id));
  expect(range.items[0]!.startTime).toBe(b.startTime);
  expect(range.items[range.items.length - 1]!.startTime).toBe(a.startTime);
  // nothing in range: an empty last page
  const none = await api.get('/v1/time-entries', { key, query: { startDate: '2030-01-01' } });
  expect(none.body).toEqual({ items: [], hasMore: false });
});

test('listing changes nothing in the table', async () => {
  const before = await snapshot();
  await pageAll(api, key, { limit: '100' });
  expect(await snapshot()).toEqual(before);
});
