import { db } from '../../shared/data/db';
import { queryPage } from '../../shared/data/paging';
import { planQuery } from '../../shared/data/query-plan';
import { timeEntries } from '../../shared/data/repositories';
import { sortKeyRange, timeEntries as timeEntryEntity, type TimeEntryFilters } from '../../shared/domain/entities/time-entries';
import { ensureSeedCatalog, seedTimeEntries, SEED_USERS, type SeedCatalog } from '../../shared/seed/seed-time-entries';
import { apiClient, newWorkspace, useTestTable } from '../support/harness';
import { created, newestFirst, pageAll, testKey, type Entry } from './helpers';

useTestTable();
const api = apiClient();

let ws: string;
let key: string;
let all: Entry[];
let cat: SeedCatalog;
let outsider: Entry;

/** 560 seeded entries + 40 created through the API (client-less project with explicit clients, ties). */
beforeAll(async () => {
  ws = newWorkspace('filters');
  // an entry of another workspace with the same user and dates: never listed here (seeded meanwhile)
  const other = newWorkspace('filters-other');
  const outsiderSeeded = (async () => {
    await seedTimeEntries(other, 30, { months: 3, seed: 7, now: new Date('2026-03-31T18:00:00Z') });
    return (await api.get('/v1/time-entries', { key: await testKey(other), query: { limit: '1' } })).body.items[0] as Entry;
  })();
  key = await testKey(ws);
  const seeded = (await seedTimeEntries(ws, 560, { months: 3, seed: 7, now: new Date('2026-03-31T18:00:00Z') })) as unknown as Entry[];
  cat = await ensureSeedCatalog(ws);
  const internal = cat.projects.find((p) => !p.project.clientId)!.project;
  const extra: Entry[] = [];
  for (let i = 0; i < 40; i++) {
    const body: Record<string, unknown> = {
      userId: SEED_USERS[i % 2]!,
      startTime: `2026-02-${String(10 + (i % 5)).padStart(2, '0')}T12:00:00+01:00`,
      endTime: '2026-02-20T00:00:00Z',
      projectId: internal.id,
    };
    if (i % 4 !== 3) body.clientId = cat.clients[i % 3]!.id;
    extra.push(await created<Entry>(api.post('/v1/time-entries', body, { key })));
  }
  outsider = await outsiderSeeded;
  all = [...seeded, ...extra].sort(newestFirst);
}, 180_000);

const matches = (e: Entry, f: TimeEntryFilters & { lo?: string; hi?: string }) =>
  (!f.userId || e.userId === f.userId) &&
  (!f.projectId || e.projectId === f.projectId) &&
  (!f.clientId || e.clientId === f.clientId) &&
  (!f.lo || e.startTime >= f.lo) &&
  (!f.hi || e.startTime <= f.hi);

test('the data set is big and varied enough to mean something', () => {
  expect(all.length).toBe(600);
  expect(new Set(all.map((e) => e.userId)).size).toBe(5);
  expect(all.some((e) => !e.projectId && e.clientId)).toBe(true);
  expect(all.some((e) => !e.projectId && !e.clientId)).toBe(true);
  expect(all.some((e) => !e.endTime)).toBe(true);
  expect(new Set(all.map((e) => e.startTime)).size).toBeLessThan(600); // ties exist
  expect(outsider.userId).toBeDefined();
});

test('every combination of filters and date range, at several page sizes, returns exactly the matching entries, each once, newest first', async () => {
  const [p0, p1] = cat.projects.map((p) => p.project);
  const internal = cat.projects.find((p) => !p.project.clientId)!.project;
  const [c0, c1, c2] = cat.clients;
  const u = SEED_USERS;
  const filterSets: TimeEntryFilters[] = [
    {},
    { userId: u[0] },
    { userId: u[4] },
    { userId: 'nobody' },
    { userId: outsider.userId },
    { projectId: p0!.id },
    { projectId: internal.id },
    { clientId: c0!.id },
    { clientId: c2!.id },
    { userId: u[0], projectId: p0!.id },
    { userId: u[1], projectId: internal.id },
    { userId: u[0], clientId: c0!.id },
    { userId: u[3], clientId: c1!.id },
    { projectId: p0!.id, clientId: c0!.id },
    { projectId: p0!.id, clientId: c1!.id },
    { projectId: internal.id, clientId: c1!.id },
    { projectId: p1!.id, clientId: c0!.id },
    { userId: u[0], projectId: p0!.id, clientId: c0!.id },
    { userId: u[0], projectId: internal.id, clientId: c2!.id },
    { userId: u[2], projectId: p0!.id, clientId: c1!.id },
  ];
  const ranges: Array<{ q: Record<string, string>; lo?: string; hi?: string }> = [
    { q: {} },
    { q: { startDate: '2026-02-11' }, lo: '2026-02-11T00:00:00.000Z' },
    { q: { endDate: '2026-02-11' }, hi: '2026-02-11T23:59:59.999Z' },
    { q: { startDate: '2026-01-20T09:30:00-05:00', endDate: '2026-02-13' }, lo: '2026-01-20T14:30:00.000Z', hi: '2026-02-13T23:59:59.999Z' },
  ];
  const limits = ['7', '50', '200', '13', '1'];
  let combos = 0;
  let nonEmpty = 0;
  for (const [fi, f] of filterSets.entries()) {
    for (const [ri, r] of ranges.entries()) {
      const expected = all.filter((e) => matches(e, { ...f, ...(r.lo ? { lo: r.lo } : {}), ...(r.hi ? { hi: r.hi } : {}) }));
      // limit 1 only where it stays cheap
      let limit = limits[(fi + ri) % limits.length]!;
      if (limit === '1' && expected.length > 60) limit = '31';
      const { items, sizes, hasMore } = await pageAll(api, key, { ...(f as Record<string, string>), ...r.q, limit });
      const label = JSON.stringify({ f, r: r.q, limit });
      expect({ label, ids: items.map((i) => i.id) }).toEqual({ label, ids: expected.map((e) => e.id) });
      // every page full but the last; hasMore true exactly when another page has items
      const n = Number(limit);
      expect(sizes.slice(0, -1).every((s) => s === n)).toBe(true);
      expect(hasMore.slice(0, -1).every(Boolean)).toBe(true);
      expect(hasMore[hasMore.length - 1]).toBe(false);
      if (expected.length > 0) expect(sizes[sizes.length - 1]).toBeGreaterThan(0);
      expect(sizes.length).toBe(Math.max(1, Math.ceil(expected.length / n)));
      combos++;
      if (expected.length > 0) nonEmpty++;
    }
  }
  expect(combos).toBe(80);
  expect(nonEmpty).toBeGreaterThan(50);
}, 300_000);

test('each combination is one Query per page on the planned index: never a Scan, and a filter only for client with project', async () => {
  const seen: Array<{ command: string; input: Record<string, unknown> }> = [];
  const spy = 'time-entries-command-spy';
  db().middlewareStack.add(
    (next, context) => async (args) => {
      seen.push({ command: String(context.commandName), input: args.input as Record<string, unknown> });
      return next(args);
    },
    { step: 'initialize', name: spy },
  );
  try {
    const p0 = cat.projects[0]!.project;
    const c0 = cat.clients[0]!;
    const cases: Array<[Record<string, string>, string | undefined, boolean]> = [
      [{}, undefined, false],
      [{ userId: 'alice' }, 'GSI1', false],
      [{ projectId: p0.id }, 'GSI2', false],
      [{ clientId: c0.id }, 'GSI3', false],
      [{ userId: 'alice', projectId: p0.id }, 'GSI4', false],
      [{ userId: 'alice', clientId: c0.id }, 'GSI5', false],
      [{ projectId: p0.id, clientId: c0.id }, 'GSI2', true],
      [{ userId: 'alice', projectId: p0.id, clientId: c0.id }, 'GSI4', true],
    ];
    for (const [q, index, filtered] of cases) {
      seen.length = 0;
      const res = await api.get('/v1/time-entries', { key, query: { ...q, startDate: '2026-01-01', limit: '20' } });
      expect(res.status).toBe(200);
      const queries = seen.filter((s) => s.command === 'QueryCommand');
      expect(seen.some((s) => s.command === 'ScanCommand')).toBe(false);
      expect(queries.length).toBe(1);
      expect(queries[0]!.input.IndexName).toBe(index);
      expect(queries[0]!.input.ScanIndexForward).toBe(false);
      expect(String(queries[0]!.input.KeyConditionExpression)).toContain('BETWEEN');
      expect(queries[0]!.input.FilterExpression !== undefined).toBe(filtered);
      expect(queries[0]!.input.Limit).toBe(21);
    }
  } finally {
    db().middlewareStack.remove(spy);
  }
});

test('a selective filter with a tiny call budget: partial pages, but nothing skipped or repeated, and it ends', async () => {
  const internal = cat.projects.find((p) => !p.project.clientId)!.project;
  const c1 = cat.clients[1]!;
  const f = { projectId: internal.id, clientId: c1.id };
  const expected = all.filter((e) => matches(e, f));
  expect(expected.length).toBeGreaterThan(3);
  const plan = planQuery(timeEntryEntity, ws, { projectId: f.projectId, clientId: f.clientId }, sortKeyRange());
  const got: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  let exhausted = 0;
  do {
    const page = await queryPage({
      workspaceId: ws,
      ...(plan.index ? { index: plan.index } : {}),
      keyCondition: plan.keyCondition,
      ...(plan.filter ? { filter: plan.filter } : {}),
      limit: 5,
      maxCalls: 1,
      ...(cursor ? { cursor } : {}),
    });
    got.push(...page.items.map((i) => timeEntries.present(i).id));
    if (page.stats.budgetExhausted) exhausted++;
    expect(page.items.length).toBeLessThanOrEqual(5);
    cursor = page.nextCursor;
    expect(page.hasMore).toBe(cursor !== undefined);
    pages++;
  } while (cursor && pages < 500);
  expect(got).toEqual(expected.map((e) => e.id));
  expect(exhausted).toBeGreaterThan(0);
});

describe('taskId, tagId, billable and running (issue 16), combined with the other filters', () => {
  const has = (e: Entry, f: Record<string, string | undefined>) =>
    matches(e, f) &&
    (!f.taskId || e.taskId === f.taskId) &&
    (!f.tagId || (e.tagIds ?? []).includes(f.tagId)) &&
    (!f.billable || String(e.billable === true) === f.billable) &&
    (!f.running || e.endTime === undefined);

  test('every combination returns exactly the matching entries, each once, newest first (brute force)', async () => {
    const p0 = cat.projects[0]!;
    const p1 = cat.projects[1]!;
    const [t0, t1] = p0.tasks;
    const [g0, g1] = cat.tags;
    const u = SEED_USERS;
    const sets: Array<Record<string, string>> = [
      { taskId: t0!.id },
      { taskId: t1!.id, userId: u[0]! },
      { taskId: t0!.id, projectId: p0.project.id },
      { taskId: t0!.id, projectId: p1.project.id }, // contradicts the task's project: nothing
      { taskId: t0!.id, clientId: p0.project.clientId! },
      { taskId: 'no-such-task' },
      { tagId: g0!.id },
      { tagId: g1!.id, userId: u[1]! },
      { tagId: g0!.id, projectId: p0.project.id, billable: 'true' },
      { tagId: g1!.id, taskId: t1!.id },
      { billable: 'true' },
      { billable: 'false' },
      { billable: 'false', userId: u[2]! },
      { billable: 'true', clientId: cat.clients[0]!.id, userId: u[0]! },
      { running: 'true' },
      { running: 'true', userId: u[0]! },
      { running: 'true', projectId: p0.project.id, billable: 'true' },
    ];
    const ranges: Array<{ q: Record<string, string>; lo?: string; hi?: string }> = [
      { q: {} },
      { q: { startDate: '2026-02-01', endDate: '2026-03-15' }, lo: '2026-02-01T00:00:00.000Z', hi: '2026-03-15T23:59:59.999Z' },
    ];
    let nonEmpty = 0;
    for (const f of sets) {
      for (const r of ranges) {
        const expected = all.filter((e) => has(e, { ...f, ...(r.lo ? { lo: r.lo } : {}), ...(r.hi ? { hi: r.hi } : {}) }));
        const { items } = await pageAll(api, key, { ...f, ...r.q, limit: '37' });
        const label = JSON.stringify({ f, r: r.q });
        expect({ label, ids: items.map((i) => i.id) }).toEqual({ label, ids: expected.map((e) => e.id) });
        if (expected.length) nonEmpty++;
      }
    }
    expect(nonEmpty).toBeGreaterThan(20);
    expect(all.filter((e) => e.endTime === undefined).length).toBeGreaterThan(0);
  }, 300_000);

  test('the Query each one runs: taskId reads the task project (GSI2/GSI4), running the running-entries index (GSI6), tagId and billable filter it', async () => {
    const seen: Array<{ command: string; input: Record<string, unknown> }> = [];
    const spy = 'time-entries-new-filter-spy';
    db().middlewareStack.add(
      (next, context) => async (args) => {
        seen.push({ command: String(context.commandName), input: args.input as Record<string, unknown> });
        return next(args);
      },
      { step: 'initialize', name: spy },
    );
    try {
      const p0 = cat.projects[0]!;
      const cases: Array<[Record<string, string>, string | undefined, string | undefined]> = [
        [{ taskId: p0.tasks[0]!.id }, 'GSI2', '#task = :task'],
        [{ taskId: p0.tasks[0]!.id, userId: 'alice' }, 'GSI4', '#task = :task'],
        [{ tagId: cat.tags[0]!.id }, undefined, 'contains(#tag, :tag)'],
        [{ tagId: cat.tags[0]!.id, userId: 'alice' }, 'GSI1', 'contains(#tag, :tag)'],
        [{ billable: 'true', projectId: p0.project.id }, 'GSI2', '#billable = :billable'],
        [{ running: 'true' }, 'GSI6', undefined],
        [{ running: 'true', userId: 'alice' }, 'GSI6', '#user = :user'],
      ];
      for (const [q, index, filter] of cases) {
        seen.length = 0;
        const res = await api.get('/v1/time-entries', { key, query: { ...q, limit: '20' } });
        expect(res.status).toBe(200);
        const queries = seen.filter((s) => s.command === 'QueryCommand');
        expect(seen.some((s) => s.command === 'ScanCommand')).toBe(false);
        expect({ q, index: queries[0]!.input.IndexName, filter: queries[0]!.input.FilterExpression }).toEqual({ q, index, filter });
        // the task's project is one consistent read of the task
        expect({ q, gets: seen.filter((s) => s.command === 'GetItemCommand').length }).toEqual({ q, gets: q.taskId ? 1 : 0 });
      }
    } finally {
      db().middlewareStack.remove(spy);
    }
  });
});
