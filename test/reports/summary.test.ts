import { parse } from 'csv-parse/sync';
import { repository } from '../../shared/data/repository';
import { clients, projects, tags, tasks, timeEntries } from '../../shared/data/repositories';
import { timeEntries as timeEntryEntity } from '../../shared/domain/entities/time-entries';
import { apiClient, newWorkspace, useTestTable } from '../support/harness';
import { pageAll, testKey, type Entry } from '../time-entries/helpers';
import { bruteForceReport, normalized, type BruteEntry, type Catalog, type ReportParams } from './support';

/**
 * GET /v1/reports/summary against brute force over random data (issue 16, items 3-5): 600 entries
 * across 8 users, 6 projects (rates in EUR, USD, a client's currency, none), tasks, tags and six months,
 * written through the repository (so with their rollups), then updated, moved and deleted at random;
 * every report must equal the one computed from the entries the list returns: every groupBy, every
 * pair, every filter, time zones, ranges whose edges cut days and months; CSV parsed by csv-parse.
 */
useTestTable();
const api = apiClient();
let ws: string;
let key: string;
let cat: Catalog;
let ids: { users: string[]; projects: string[]; clients: string[]; tasks: string[]; tags: string[] };
let all: BruteEntry[];

/** A seeded PRNG (mulberry32): the run is reproducible. */
function prng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = prng(16);
/**
 * How many entries, and how many of them are then updated, moved or deleted. Every property below holds
 * per entry (a report equals brute force over whatever entries there are), so the size only has to fill
 * each group of each grouping and pair several times over: 600 entries over 6 months x 8 users x 6
 * projects x 4 tags do (1,500 did too, at 2.5 times the seed and the report time: test/reports was the
 * slowest file of CI).
 */
const ENTRIES = 600;
const MUTATED = 160;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

async function inParallel<T>(items: readonly T[], n: number, fn: (t: T) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/** A random instant in Jan-Jun 2026 (hours spread over the whole day, so time zones move entries across days). */
const randomStart = () => new Date(Date.UTC(2026, Math.floor(rand() * 6), 1 + Math.floor(rand() * 28), Math.floor(rand() * 24), Math.floor(rand() * 12) * 5)).toISOString();

function randomFields(): Record<string, unknown> {
  const r = rand();
  const out: Record<string, unknown> = {};
  if (r < 0.8) {
    const p = pick(ids.projects);
    out.projectId = p;
    if (rand() < 0.6) out.taskId = ids.tasks.find((t) => t.startsWith(`${p}:`))?.split(':')[1];
  } else if (r < 0.9) out.clientId = pick(ids.clients);
  if (rand() < 0.3) out.billable = rand() < 0.5;
  const nTags = Math.floor(rand() * 3);
  if (nTags) out.tagIds = [...new Set(Array.from({ length: nTags }, () => pick(ids.tags)))];
  return out;
}

beforeAll(async () => {
  ws = newWorkspace('reports');
  key = await testKey(ws);
  const c1 = await clients.create(ws, { name: 'Euro client', currency: 'EUR' });
  const c2 = await clients.create(ws, { name: 'Dollar client', currency: 'USD' });
  const c3 = await clients.create(ws, { name: 'No currency client' });
  const ps = [
    await projects.create(ws, { name: 'Alpha', clientId: c1.id, hourlyRate: 90, currency: 'EUR' }),
    await projects.create(ws, { name: 'Beta', clientId: c2.id, hourlyRate: 120.5 }),
    await projects.create(ws, { name: 'Gamma', clientId: c1.id, hourlyRate: 75, currency: 'USD' }),
    await projects.create(ws, { name: 'Delta', clientId: c3.id, hourlyRate: 60 }),
    await projects.create(ws, { name: 'Epsilon', billable: false }),
    await projects.create(ws, { name: 'Zeta', clientId: c2.id }),
  ];
  const ts = [];
  for (const p of ps) for (const name of ['Build', 'Meet']) ts.push(await tasks.create(ws, { projectId: p.id, name }));
  const tg = [];
  for (const name of ['red', 'green', 'blue', 'gold']) tg.push(await tags.create(ws, { name }));
  ids = {
    users: ['u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7', 'u#8'],
    projects: ps.map((p) => p.id),
    clients: [c1.id, c2.id, c3.id],
    tasks: ts.map((t) => `${t.projectId}:${t.id}`),
    tags: tg.map((t) => t.id),
  };
  cat = {
    projects: new Map(ps.map((p) => [p.id, p as never])),
    clients: new Map([c1, c2, c3].map((c) => [c.id, c as never])),
    tasks: new Map(ts.map((t) => [t.id, t as never])),
    tags: new Map(tg.map((t) => [t.id, t as never])),
  };

  // ENTRIES finished entries through the repository (each with its rollups), 8 at a time
  const created: Entry[] = [];
  await inParallel(
    Array.from({ length: ENTRIES }, () => null),
    8,
    async () => {
      const startTime = randomStart();
      const minutes = 5 + Math.floor(rand() * 300);
      const e = await timeEntries.create(ws, { userId: pick(ids.users), startTime, endTime: new Date(Date.parse(startTime) + minutes * 60_000).toISOString(), ...randomFields() });
      created.push(e as Entry);
    },
  );
  // updates (duration, billable, project, tags), moves (other day, other month), deletes, and one running timer per user
  const repo = repository(timeEntryEntity);
  await inParallel(created.slice(0, MUTATED), 8, async (e) => {
    const r = rand();
    const loc = { id: e.id, sortKey: e.sortKey };
    if (r < 0.25) await repo.delete(ws, loc);
    else if (r < 0.5) {
      const startTime = randomStart();
      await repo.update(ws, loc, { startTime, endTime: new Date(Date.parse(startTime) + (10 + Math.floor(rand() * 200)) * 60_000).toISOString() });
    } else if (r < 0.75) await repo.update(ws, loc, { billable: rand() < 0.5, endTime: new Date(Date.parse(e.startTime) + (1 + Math.floor(rand() * 500)) * 60_000).toISOString() });
    else await repo.update(ws, loc, { projectId: null, taskId: null, clientId: null, ...randomFields() });
  });
  for (const userId of ids.users) await timeEntries.create(ws, { userId, startTime: randomStart(), ...randomFields() });
  all = (await pageAll(api, key, { limit: '200' })).items as BruteEntry[];
  // at most a quarter of the mutated ones deleted, one running entry per user added
  expect(all.length).toBeGreaterThan(ENTRIES - MUTATED / 2);
}, 600_000);

async function report(p: ReportParams) {
  const res = await api.get('/v1/reports/summary', { key, query: { ...p } });
  if (res.status !== 200) throw new Error(`${JSON.stringify(p)}: ${res.status} ${res.text}`);
  return res.body;
}
async function expectExact(p: ReportParams) {
  const got = await report(p);
  expect({ p, report: normalized(got) }).toEqual({ p, report: normalized(bruteForceReport(all, p, cat)) });
  return got;
}

const GROUPINGS = ['user', 'project', 'client', 'task', 'tag', 'day', 'week', 'month'];
const RANGES: Array<[string, string]> = [
  ['2026-01-01', '2026-06-30'], // whole months: month rollups
  ['2026-01-15T13:20:00Z', '2026-04-03T08:00:00Z'], // edges cut days and months: entries + day + month rollups
  ['2026-03-10', '2026-03-16'], // one week: day rollups
  ['2026-02-07T10:00:00Z', '2026-02-07T18:00:00Z'], // inside one day: entries only
];

describe('every groupBy, every range', () => {
  test.each(GROUPINGS)('groupBy=%s equals brute force over every range', async (groupBy) => {
    for (const [startDate, endDate] of RANGES) await expectExact({ startDate, endDate, groupBy });
  });
  test('no groupBy: totals only', async () => {
    const r = await expectExact({ startDate: '2026-01-01', endDate: '2026-12-31' });
    expect(r.groups).toEqual([]);
    expect(r.totals.entries).toBeGreaterThan(ENTRIES - MUTATED);
    expect(r.runningEntries).toBe(ids.users.length);
  });
});

describe('every pair of groupBys', () => {
  test.each(GROUPINGS)('%s with each other grouping', async (first) => {
    for (const second of GROUPINGS.filter((g) => g !== first)) await expectExact({ startDate: '2026-01-15T13:20:00Z', endDate: '2026-05-31', groupBy: `${first},${second}` });
  });
});

describe('filters and time zones', () => {
  test('each filter, alone and combined, with groupings that use and do not use rollups', async () => {
    const [p0, p1] = ids.projects as [string, string];
    const task = ids.tasks.find((t) => t.startsWith(`${p0}:`))!.split(':')[1]!;
    const filters: Array<Partial<ReportParams>> = [
      { userId: 'u1' },
      { userId: 'u#8' },
      { projectId: p1 },
      { clientId: ids.clients[0]! },
      { taskId: task },
      { tagId: ids.tags[0]! },
      { billable: 'true' },
      { billable: 'false' },
      { userId: 'u2', projectId: p0 },
      { userId: 'u3', billable: 'true', clientId: ids.clients[1]! },
      { projectId: p0, taskId: task, tagId: ids.tags[1]! },
      { taskId: 'no-such-task' },
    ];
    for (const f of filters) {
      for (const groupBy of [undefined, 'project', 'user,month', 'client,task', 'tag']) {
        await expectExact({ startDate: '2026-01-10T06:00:00Z', endDate: '2026-06-30', ...(groupBy ? { groupBy } : {}), ...f });
      }
    }
  });

  test.each(['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'UTC'])('timeZone %s: dates and day/week/month groups in that zone', async (timeZone) => {
    for (const groupBy of ['day', 'week', 'month', 'project', 'month,user', 'week,month', 'project,week']) {
      await expectExact({ startDate: '2026-02-01', endDate: '2026-04-30', groupBy, timeZone });
    }
  });
});

describe('the answer', () => {
  test('shape: names, null keys, ordering (time ascending, others by name, null last), amounts per currency', async () => {
    const r = await report({ startDate: '2026-01-01', endDate: '2026-06-30', groupBy: 'project,month' });
    const names = r.groups.map((g: { name: string | null }) => g.name);
    expect(names).toEqual(['Alpha', 'Beta', 'Delta', 'Epsilon', 'Gamma', 'Zeta', null]);
    const alpha = r.groups[0];
    expect(alpha.groups.map((g: { key: string }) => g.key)).toEqual(['2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06']);
    expect(alpha.amounts.map((a: { currency: string }) => a.currency)).toEqual(['EUR']);
    const delta = r.groups.find((g: { name: string }) => g.name === 'Delta');
    expect(delta.amounts.map((a: { currency: string }) => a.currency)).toEqual(['XXX']); // neither project nor client has a currency
    const beta = r.groups.find((g: { name: string }) => g.name === 'Beta');
    expect(beta.amounts.map((a: { currency: string }) => a.currency)).toEqual(['USD']); // the client's
    expect(r.totals.amounts.map((a: { currency: string }) => a.currency)).toEqual(['EUR', 'USD', 'XXX']);
    const week = await report({ startDate: '2026-03-02', endDate: '2026-03-08', groupBy: 'week' });
    expect(week.groups).toHaveLength(1);
    expect(week.groups[0]).toMatchObject({ key: '2026-03-02', name: '2026-W10' });
  });

  test('changes show at once: a new entry, a stop, a move and a delete', async () => {
    const p = { startDate: '2026-06-01', endDate: '2026-06-30', groupBy: 'project,user' } as const;
    const before = await report(p);
    const e = await timeEntries.create(ws, { userId: 'late', startTime: '2026-06-10T10:00:00Z', projectId: ids.projects[0]! });
    expect((await report(p)).runningEntries).toBe(before.runningEntries + 1);
    const stopped = await api.post(`/v1/time-entries/${e.id}/stop`, { endTime: '2026-06-10T11:30:00Z' }, { key, query: { sortKey: e.sortKey } });
    expect(stopped.status).toBe(200);
    const after = await report(p);
    expect(after.totals.entries).toBe(before.totals.entries + 1);
    expect(after.totals.durationMinutes).toBe(before.totals.durationMinutes + 90);
    const moved = await api.put(
      `/v1/time-entries/${e.id}`,
      { startTime: '2026-07-01T10:00:00Z', endTime: '2026-07-01T10:30:00Z' },
      { key, query: { sortKey: stopped.body.sortKey } },
    );
    expect(moved.status).toBe(200);
    expect((await report(p)).totals).toEqual(before.totals);
    const july = await report({ startDate: '2026-07-01', endDate: '2026-07-31' });
    expect(july.totals).toMatchObject({ entries: 1, durationMinutes: 30 });
    expect((await api.del(`/v1/time-entries/${e.id}`, { key, query: { sortKey: moved.body.sortKey } })).status).toBe(200);
    expect((await report({ startDate: '2026-07-01', endDate: '2026-07-31' })).totals).toMatchObject({ entries: 0, durationMinutes: 0 });
  });

  test('client mistakes are 400s naming the parameter; scope time-entries:read', async () => {
    const bad: Array<[Record<string, string>, string]> = [
      [{ endDate: '2026-01-31' }, 'startDate'],
      [{ startDate: '2026-01-01' }, 'endDate'],
      [{ startDate: '2026-02-01', endDate: '2026-01-01' }, 'endDate'],
      [{ startDate: '2026-13-01', endDate: '2026-12-31' }, 'startDate'],
      [{ startDate: '2026-01-01', endDate: '2026-01-31', groupBy: 'planet' }, 'groupBy'],
      [{ startDate: '2026-01-01', endDate: '2026-01-31', groupBy: 'user,project,day' }, 'groupBy'],
      [{ startDate: '2026-01-01', endDate: '2026-01-31', groupBy: 'user,user' }, 'groupBy'],
      [{ startDate: '2026-01-01', endDate: '2026-01-31', groupBy: '' }, 'groupBy'],
      [{ startDate: '2026-01-01', endDate: '2026-01-31', timeZone: 'Mars/Olympus' }, 'timeZone'],
      [{ startDate: '2026-01-01', endDate: '2026-01-31', billable: 'yes' }, 'billable'],
      [{ startDate: '2026-01-01', endDate: '2026-01-31', sort: 'name' }, 'sort'],
      [{ startDate: '0001-01-01', endDate: '9999-12-31', groupBy: 'week', timeZone: 'Europe/Berlin' }, 'endDate'],
      [{ startDate: '2024-01-01', endDate: '2027-01-01' }, 'endDate'], // 1,097 days: one more than three years
    ];
    for (const [query, field] of bad) {
      const res = await api.get('/v1/reports/summary', { key, query });
      expect({ query, status: res.status, code: res.body.error?.code }).toEqual({ query, status: 400, code: 'VALIDATION_ERROR' });
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const other = await testKey(ws, { scopes: ['projects:read', 'time-entries:write'] });
    expect((await api.get('/v1/reports/summary', { key: other, query: { startDate: '2026-01-01', endDate: '2026-01-31' } })).status).toBe(403);
    const reader = await testKey(ws, { scopes: ['time-entries:read'] });
    expect((await api.get('/v1/reports/summary', { key: reader, query: { startDate: '2026-01-01', endDate: '2026-01-31' } })).status).toBe(200);
  });
});

describe('CSV (Accept: text/csv), parsed with csv-parse', () => {
  const csv = (path: string, query: Record<string, string>) => api.get(path, { key, query, headers: { Accept: 'text/csv' } });

  test('the summary as CSV equals its JSON: a total row, a row per group and per sub-group', async () => {
    const query = { startDate: '2026-01-15T13:20:00Z', endDate: '2026-05-31', groupBy: 'client,tag' };
    const json = await report(query);
    const res = await csv('/v1/reports/summary', query);
    expect(res.status).toBe(200);
    expect(res.headers['Content-Type']).toBe('text/csv; charset=utf-8');
    expect(res.text.endsWith('\r\n')).toBe(true);
    const rows = parse(res.text, { columns: true }) as Array<Record<string, string>>;
    const currencies = json.totals.amounts.map((a: { currency: string }) => a.currency);
    const header = Object.keys(rows[0]!);
    expect(header).toEqual(['level', 'client', 'clientName', 'tag', 'tagName', 'entries', 'durationMinutes', 'billableMinutes', ...currencies.map((c: string) => `amount_${c}`)]);
    type T = { entries: number; durationMinutes: number; billableMinutes: number; amounts: Array<{ currency: string; amount: number }> };
    const asRow = (level: string, keys: Array<string | null>, t: T) => ({
      level,
      client: keys[0] ?? '',
      clientName: keys[1] ?? '',
      tag: keys[2] ?? '',
      tagName: keys[3] ?? '',
      entries: String(t.entries),
      durationMinutes: String(t.durationMinutes),
      billableMinutes: String(t.billableMinutes),
      ...Object.fromEntries(currencies.map((c: string) => [`amount_${c}`, String(t.amounts.find((a) => a.currency === c)?.amount ?? 0)])),
    });
    const expected = [asRow('total', [], json.totals)];
    for (const g of json.groups) {
      expected.push(asRow('group', [g.key, g.name], g));
      for (const s of g.groups) expected.push(asRow('subgroup', [g.key, g.name, s.key, s.name], s));
    }
    expect(rows).toEqual(expected);
  });

  test('the time-entry list as CSV, page by page with Next-Cursor, equals the JSON pages; quoting survives commas, quotes and newlines', async () => {
    const tricky = await timeEntries.create(ws, {
      userId: 'csv',
      startTime: '2026-06-20T08:00:00Z',
      endTime: '2026-06-20T09:00:00Z',
      name: 'a, "quoted" name',
      notes: 'line one\r\nline two, with "quotes"',
      tagIds: ids.tags.slice(0, 2),
    });
    const query = { userId: 'u1', limit: '40' };
    const fromJson = await pageAll(api, key, query);
    const fromCsv: Array<Record<string, string>> = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await csv('/v1/time-entries', { ...query, ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      fromCsv.push(...(parse(res.text, { columns: true }) as Array<Record<string, string>>));
      cursor = res.headers['Next-Cursor'];
      if (!cursor) break;
    }
    const asCsv = (e: Entry) =>
      Object.fromEntries(
        [
          'id',
          'sortKey',
          'userId',
          'name',
          'projectId',
          'clientId',
          'taskId',
          'startTime',
          'endTime',
          'durationMinutes',
          'billable',
          'tagIds',
          'notes',
          'createdAt',
          'updatedAt',
          'etag',
        ].map((c) => {
          const v = e[c];
          return [c, v === undefined ? '' : Array.isArray(v) ? v.join(';') : String(v)];
        }),
      );
    expect(fromCsv).toEqual(fromJson.items.map(asCsv));
    const one = await csv('/v1/time-entries', { userId: 'csv' });
    const [row] = parse(one.text, { columns: true }) as Array<Record<string, string>>;
    expect(row).toMatchObject({ id: tricky.id, name: 'a, "quoted" name', notes: 'line one\r\nline two, with "quotes"', tagIds: ids.tags.slice(0, 2).join(';') });
    expect(one.headers['Next-Cursor']).toBeUndefined();
    // JSON stays the default, and errors stay JSON
    expect((await api.get('/v1/time-entries', { key, query: { userId: 'csv' } })).headers['Content-Type']).toMatch(/application\/json/);
    const err = await csv('/v1/time-entries', { limit: '0' });
    expect(err.status).toBe(400);
    expect(err.body.error.code).toBe('VALIDATION_ERROR');
  });
});
