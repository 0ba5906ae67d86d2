import { seedWorkspace } from '../../shared/seed/seed';
import { DEMO_USERS, invoiceOldestWeek } from '../../shared/seed/seed-demo';
import { apiClient, makeKey, newWorkspace, useTestTable } from '../support/harness';

/**
 * npm start's demo workspace shows the product on the first call: projects, tasks, tags, a few weeks of
 * entries of three users (billable and not, two timers running), a summary report with totals and the
 * change feed with the events of every record seeded.
 */
useTestTable();
const api = apiClient();

test('the demo seed: catalog, three weeks of entries of three users, running timers, billable time, a report and a feed with something in them', async () => {
  const ws = newWorkspace('demo');
  const now = new Date();
  const seeded = await seedWorkspace(ws, { demo: { now } });
  expect(seeded).toMatchObject({ workspaceId: ws, clients: 5, running: 2, invoices: 0 });
  expect(Number(seeded.timeEntries)).toBeGreaterThanOrEqual(60);
  const key = await makeKey(ws);

  for (const [path, atLeast] of [
    ['/v1/projects', 5],
    ['/v1/tasks', 10],
    ['/v1/tags', 5],
  ] as const) {
    const list = await api.get(path, { key });
    expect({ path, status: list.status, enough: list.body.items.length >= atLeast }).toEqual({ path, status: 200, enough: true });
  }
  const running = await api.get('/v1/time-entries', { key, query: { running: 'true' } });
  expect(running.body.items.map((e: { userId: string }) => e.userId).sort()).toEqual(DEMO_USERS.slice(0, 2));

  const day = (d: Date) => d.toISOString().slice(0, 10);
  const report = await api.get('/v1/reports/summary', { key, query: { startDate: day(new Date(now.getTime() - 28 * 86_400_000)), endDate: day(now), groupBy: 'user' } });
  expect(report.status).toBe(200);
  expect(report.body.totals.entries).toBe(Number(seeded.timeEntries) - 2);
  expect(report.body.totals.billableMinutes).toBeGreaterThan(0);
  expect(report.body.totals.billableMinutes).toBeLessThan(report.body.totals.durationMinutes);
  expect(report.body.totals.amounts.length).toBeGreaterThan(0);
  expect(report.body.groups.map((g: { key: string }) => g.key).sort()).toEqual([...DEMO_USERS]);
  expect(report.body.runningEntries).toBe(2);

  // entries span about three weeks
  const all: Array<{ startTime: string }> = [];
  for (let cursor: string | undefined, more = true; more;) {
    const page = await api.get('/v1/time-entries', { key, query: { limit: '200', ...(cursor ? { cursor } : {}) } });
    all.push(...page.body.items);
    cursor = page.body.nextCursor;
    more = page.body.hasMore;
  }
  const spanDays = (Date.parse(all[0]!.startTime) - Date.parse(all.at(-1)!.startTime)) / 86_400_000;
  expect(spanDays).toBeGreaterThan(12);
  expect(spanDays).toBeLessThan(30);

  const feed = await api.get('/v1/changes', { key, query: { limit: '200', types: 'time-entry.created' } });
  expect(feed.status).toBe(200);
  expect(feed.body.items.length).toBe(Math.min(200, Number(seeded.timeEntries)));
}, 180_000);

test("npm start's invoicing hook: one invoice per client for the oldest week (the first sent), its entries invoiced, later billable time left to invoice", async () => {
  const ws = newWorkspace('demo-inv');
  const seeded = await seedWorkspace(ws, { demo: { invoice: invoiceOldestWeek } });
  expect(Number(seeded.invoices)).toBeGreaterThanOrEqual(1);
  const key = await makeKey(ws);
  const invoices = await api.get('/v1/invoices', { key });
  expect(invoices.body.items).toHaveLength(Number(seeded.invoices));
  expect(invoices.body.items.filter((i: { status: string }) => i.status === 'sent')).toHaveLength(1);
  const invoiced = await api.get('/v1/time-entries', { key, query: { invoiced: 'true', limit: '200' } });
  const open = await api.get('/v1/time-entries', { key, query: { invoiced: 'false', billable: 'true', limit: '200' } });
  expect(invoiced.body.items.length).toBeGreaterThan(0);
  expect(open.body.items.length).toBeGreaterThan(0);
  const ids = new Set(invoices.body.items.map((i: { id: string }) => i.id));
  expect(invoiced.body.items.every((e: { invoiceId: string }) => ids.has(e.invoiceId))).toBe(true);
}, 180_000);

test.each(['2026-11-26T00:10:00Z', '2026-11-26T08:20:00Z', '2026-11-26T13:05:00Z', '2026-11-26T23:55:00Z'])(
  'the demo seed starts both timers whatever the time of day (now = %s)',
  async (iso) => {
    const seeded = await seedWorkspace(newWorkspace('demo-at'), { demo: { now: new Date(iso) } });
    expect(seeded).toMatchObject({ running: 2 });
  },
  60_000,
);
