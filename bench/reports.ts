/**
 * Section 7: report cost. Does a year's summary cost about what a week's does, and what do the rollups
 * add to each time-entry write?
 *
 *   npx tsx bench/reports-only.ts [--users 50] [--entries 60000] [--runs 9]
 *
 * One workspace of `users` users and `entries` entries over a year (2025), seeded with the time-entry
 * seeder (BatchWriteItem, rollups written in bulk as the repository would have), projects with hourly
 * rates. Each summary is requested through the local gateway (same handler as deployed, authorizer cache
 * warm), counted by the DynamoDB counter (calls, items read, read capacity computed from item sizes);
 * latency = the whole request, median of `runs` interleaved runs. Then single writes through the gateway:
 * their calls and write capacity, and the part of it that is rollup items.
 */
import { summarize, type DynamoCounter } from './lib/dynamo-counter';
import { markdownTable, metText, table, type Target } from './lib/report';
import { fmt, median } from './lib/stats';

type Gateway = {
  handle: (r: { method: string; path: string; query?: Record<string, string>; headers?: Record<string, string>; body?: string }) => Promise<{ status: number; body: string }>;
};

export interface ReportOptions {
  users: number;
  entries: number;
  runs: number;
  progress?: (s: string) => void;
}
export interface ReportRow {
  label: string;
  query: Record<string, string>;
  calls: number;
  itemsRead: number;
  rcu: number;
  ms: number;
}
export interface WriteRow {
  label: string;
  calls: number;
  wcu: number;
  rollupItems: number;
  rollupWcu: number;
}
export interface ReportBench {
  rows: ReportRow[];
  writes: WriteRow[];
  seedMs: number;
  entries: number;
  users: number;
}

const WEEK = { startDate: '2025-06-02', endDate: '2025-06-08' };
const YEAR = { startDate: '2025-01-01', endDate: '2025-12-31' };
const QUERIES: Array<[string, Record<string, string>]> = [
  ['one week by project', { ...WEEK, groupBy: 'project' }],
  ['the year by project', { ...YEAR, groupBy: 'project' }],
  ['the year by user', { ...YEAR, groupBy: 'user' }],
  ['the year by month', { ...YEAR, groupBy: 'month' }],
  ['the year by project, user (combinations)', { ...YEAR, groupBy: 'project,user' }],
  ['the year by project, one user', { ...YEAR, groupBy: 'project', userId: 'user-07' }],
  ['the year by project, Europe/Berlin (edges from entries)', { ...YEAR, groupBy: 'project', timeZone: 'Europe/Berlin' }],
  ['the year by month, Europe/Berlin (month-boundary days from entries)', { ...YEAR, groupBy: 'month', timeZone: 'Europe/Berlin' }],
  ['one week by tag (entries: no tag rollup)', { ...WEEK, groupBy: 'tag' }],
  // a year by tag reads every entry of the year (~60,000): too slow for the local gateway's timeout under load
  ['one month by tag (entries: no tag rollup)', { startDate: '2025-06-01', endDate: '2025-06-30', groupBy: 'tag' }],
];

export async function measureReports(gateway: Gateway, counter: DynamoCounter, o: ReportOptions): Promise<ReportBench> {
  const { createApiKey } = await import('../shared/data/apikey-store');
  const { SCOPES } = await import('../shared/api/routes');
  const { ensureSeedCatalog, generateTimeEntries, writeTimeEntries } = await import('../shared/seed/seed-time-entries');
  const { projects } = await import('../shared/data/repositories');
  const ws = `bench-reports-${Date.now().toString(36)}`;
  const { key } = await createApiKey({ workspaceId: ws, name: 'bench', scopes: [...SCOPES], perMinute: 100_000_000, perHour: 1_000_000_000 });
  const headers = { 'X-API-Key': key };
  counter.enabled = false;

  const t0 = performance.now();
  const catalog = await ensureSeedCatalog(ws);
  const rates = [90, 120, 75, 60, 110, 0];
  for (const [i, p] of catalog.projects.entries()) await projects.update(ws, { id: p.project.id }, { hourlyRate: rates[i % rates.length]!, currency: i % 2 ? 'USD' : 'EUR' });
  const users = Array.from({ length: o.users }, (_, i) => `user-${String(i + 1).padStart(2, '0')}`);
  const records = generateTimeEntries(catalog, o.entries, { users, months: 12.2, now: new Date('2026-01-01T00:00:00Z'), seed: 16 });
  await writeTimeEntries(ws, records, { concurrency: 8, progress: (done, total) => done % 10_000 === 0 && o.progress?.(`seeded ${done} / ${total}`) });
  const seedMs = performance.now() - t0;

  const get = async (query: Record<string, string>) => {
    const res = await gateway.handle({ method: 'GET', path: '/v1/reports/summary', query, headers });
    if (res.status !== 200) throw new Error(`report ${JSON.stringify(query)}: ${res.status} ${res.body}`);
    return res;
  };
  // warm: the function's modules loaded and the authorizer cached
  await get(QUERIES[0]![1]);
  const rows: ReportRow[] = [];
  for (const [label, query] of QUERIES) {
    counter.enabled = true;
    counter.reset();
    await get(query);
    const s = summarize(counter.reset());
    counter.enabled = false;
    rows.push({ label, query, calls: s.dataCalls, itemsRead: s.itemsRead, rcu: s.dataRcu, ms: 0 });
  }
  // latency: interleaved runs (every query once per round), counter off
  const times = new Map<string, number[]>(QUERIES.map(([l]) => [l, []]));
  for (let r = 0; r < o.runs; r++) {
    for (const [label, query] of QUERIES) {
      const t = performance.now();
      await get(query);
      times.get(label)!.push(performance.now() - t);
    }
    o.progress?.(`report latency round ${r + 1} / ${o.runs}`);
  }
  for (const row of rows) row.ms = median(times.get(row.label)!);

  // what the rollups add to each time-entry write
  const project = catalog.projects[0]!.project;
  const task = catalog.projects[0]!.tasks[0]!;
  const other = catalog.projects[2]!.project;
  const write = async (label: string, method: string, path: string, body: unknown, query?: Record<string, string>) => {
    counter.enabled = true;
    counter.reset();
    const res = await gateway.handle({
      method,
      path,
      headers: { ...headers, 'Content-Type': 'application/json' },
      ...(query ? { query } : {}),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const calls = counter.reset();
    counter.enabled = false;
    if (res.status >= 300) throw new Error(`${label}: ${res.status} ${res.body}`);
    const s = summarize(calls);
    const data = calls.filter((c) => !c.rate);
    writes.push({
      label,
      calls: s.dataCalls,
      wcu: s.dataWcu,
      rollupItems: data.reduce((n, c) => n + c.rollupItems, 0),
      rollupWcu: data.reduce((n, c) => n + c.rollupWcu, 0),
    });
    return JSON.parse(res.body) as { id: string; sortKey: string };
  };
  const writes: WriteRow[] = [];
  const finished = await write('create a finished entry (project, task, 2 tags)', 'POST', '/v1/time-entries', {
    userId: 'user-01',
    startTime: '2025-06-03T09:00:00Z',
    endTime: '2025-06-03T10:30:00Z',
    projectId: project.id,
    taskId: task.id,
    tagIds: catalog.tags.slice(0, 2).map((t) => t.id),
  });
  await write('update notes only (no rollup change)', 'PUT', `/v1/time-entries/${finished.id}`, { notes: 'bench' }, { sortKey: finished.sortKey });
  await write('update endTime (same day, same dimensions)', 'PUT', `/v1/time-entries/${finished.id}`, { endTime: '2025-06-03T11:00:00Z' }, { sortKey: finished.sortKey });
  const moved = await write(
    'move to another month and project',
    'PUT',
    `/v1/time-entries/${finished.id}`,
    { startTime: '2025-08-04T09:00:00Z', endTime: '2025-08-04T10:00:00Z', projectId: other.id, taskId: null },
    { sortKey: finished.sortKey },
  );
  await write('delete a finished entry', 'DELETE', `/v1/time-entries/${finished.id}`, undefined, { sortKey: moved.sortKey });
  const runningA = await write('start a timer (nothing running)', 'POST', '/v1/time-entries', { userId: 'bench-timer', startTime: '2025-06-04T09:00:00Z', projectId: project.id });
  void runningA;
  const runningB = await write('start a timer that stops the running one', 'POST', '/v1/time-entries', {
    userId: 'bench-timer',
    startTime: '2025-06-04T10:00:00Z',
    projectId: project.id,
  });
  await write('stop a timer', 'POST', `/v1/time-entries/${runningB.id}/stop`, { endTime: '2025-06-04T11:00:00Z' }, { sortKey: runningB.sortKey });
  return { rows, writes, seedMs, entries: o.entries, users: o.users };
}

export function formatReports(r: ReportBench, targets: Target[]): { text: string; markdown: string } {
  const header = ['summary', 'data calls', 'items read', 'RCU', 'ms (median)'];
  const body = r.rows.map((x) => [x.label, String(x.calls), String(x.itemsRead), fmt(x.rcu, 1), fmt(x.ms, 1)]);
  const week = r.rows.find((x) => x.label === 'one week by project')!;
  const year = r.rows.find((x) => x.label === 'the year by project')!;
  const rcuRatio = year.rcu / week.rcu;
  const msRatio = year.ms / week.ms;
  targets.push({ section: '7 reports', name: 'year by project / week by project, read capacity', figure: fmt(rcuRatio), target: '<= 2', met: rcuRatio <= 2 });
  targets.push({ section: '7 reports', name: 'year by project / week by project, latency', figure: fmt(msRatio), target: '<= 2', met: msRatio <= 2 });
  const wHeader = ['write', 'data calls', 'WCU', 'rollup items', 'rollup WCU'];
  const wBody = r.writes.map((w) => [w.label, String(w.calls), fmt(w.wcu, 1), String(w.rollupItems), fmt(w.rollupWcu, 1)]);
  const summary = `year by project / week by project: ${fmt(rcuRatio)} x the read capacity (${metText(rcuRatio <= 2)}), ${fmt(msRatio)} x the latency (${metText(msRatio <= 2)}); the rollups add no call to a write (they are items of its transaction)`;
  return {
    text: [table(header, body), summary, '', table(wHeader, wBody)].join('\n'),
    markdown: [markdownTable(header, body), '', summary, '', markdownTable(wHeader, wBody)].join('\n'),
  };
}
