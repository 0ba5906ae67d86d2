import { clients } from '../domain/entities/clients';
import { projects } from '../domain/entities/projects';
import { tags } from '../domain/entities/tags';
import { tasks } from '../domain/entities/tasks';
import { timeEntries } from '../domain/entities/time-entries';
import type { Amount, ReportGroup, ReportGrouping, ReportRequest, ReportTotals, SummaryReport, TimeEntryFilter, TimeEntryFilters } from '../domain/reports';
import type { EntityRecord } from '../domain/entity';
import type { Where } from '../data/query-plan';
import { countPage, readEntriesBetween, runningEntriesBetween, type StoredTimeEntry } from '../data/report-reads';
import { repository } from '../data/repository';
import { dec, readRollups, type Dimension, type Granularity, type RollupRow } from '../data/rollups';
import { runningTimerStarts } from './timer-reads';
import { DAY_MS, dayOf, isUtc, iso, localDay, monthStartAtOrAfter, monthStartAtOrBefore, reportPeriod, weekOf } from './report-calendar';

/**
 * The summary report (GET /v1/reports/summary; docs/data-model.md, "Reports"). A period is split into
 * what the rollups answer and what only the entries can:
 *
 *   [from ......|day|day|...|month|month|...|day|day|...... to)
 *    entries     day rollups  month rollups   day rollups  entries
 *
 * - the partial UTC days at both edges are read from the entries (the list's Query, filters included);
 * - whole UTC days from the day rollups, whole UTC months from the month rollups (day rollups only when
 *   grouping by day or week);
 * - the whole period from the entries when the rollups cannot answer: grouping or filtering by tag
 *   (an entry has several), or day groups in a time zone that is not UTC (each UTC day straddles two
 *   local days);
 * - week or month groups in a time zone that is not UTC: day rollups for the UTC days that lie in one
 *   local week and month, entries for the UTC days in which a local week or month starts.
 * The rollup dimension read is the one the groupings and filters need: none or one of user, project,
 * client, task -> that dimension (project when none); two, or a billable filter -> the combinations (X).
 * Running entries are counted from the running-timer items (no filter, or a user) or the running-entries
 * index (other filters).
 */
export type { Amount, ReportGroup, ReportRequest, ReportTotals, SummaryReport, TimeEntryFilters as ReportFilters } from '../domain/reports';
export type Grouping = ReportGrouping;
/** What a report read (the benchmark and tests look at it). */
export interface ReportStats {
  calls: number;
  rcu: number;
  /** Time entries read. */
  entries: number;
  /** Rollup items read. */
  rollups: number;
  /** How the period was read, e.g. "entries 2026-01-01T00:00..; D 2026-01-02..2026-01-31 (P); M 2026-02..2026-11 (P)". */
  plan: string[];
}

/** One piece of tracked time: what is known of its dimensions, and its totals. */
interface Fact {
  user?: string | null;
  project?: string | null;
  client?: string | null;
  task?: string | null;
  tags?: string[];
  billable?: boolean;
  day?: string;
  month?: string;
  n: number;
  m: number;
  b: number;
  bp: Record<string, number>;
}

const TIME_GROUPS: readonly Grouping[] = ['day', 'week', 'month'];
const DIM_OF: Partial<Record<Grouping | TimeEntryFilter, Dimension>> = {
  user: 'U',
  project: 'P',
  client: 'C',
  task: 'T',
  userId: 'U',
  projectId: 'P',
  clientId: 'C',
  taskId: 'T',
};

// ------------------------------------------------------------------ reading
/**
 * How each time-entry filter is read: every filter of the shared schema (shared/domain/reports.ts) must be
 * placed here (a new one is a type error until it is), so none can be silently ignored by the report.
 * `rollup`: the rollups know its dimension (facts are checked by `passes`); `entries`: only the entries
 * know it, so a report with it reads the whole period from the entries.
 */
const FILTER_READ: Record<TimeEntryFilter, 'rollup' | 'entries'> = {
  userId: 'rollup',
  projectId: 'rollup',
  clientId: 'rollup',
  taskId: 'rollup',
  billable: 'rollup',
  tagId: 'entries',
  invoiced: 'entries',
};
/** The filters as the time-entry list's Where (the list's own Query plan, filters included). */
const entryWhere = (f: TimeEntryFilters): Where => Object.fromEntries((Object.keys(FILTER_READ) as TimeEntryFilter[]).map((k) => [k, f[k]]));

function entryFact(item: StoredTimeEntry, tz: string): Fact {
  const m = Number(item.durationMinutes);
  const b = item.billable === true ? m : 0;
  const project = typeof item.projectId === 'string' ? item.projectId : null;
  const day = localDay(Date.parse(String(item.startTime)), tz);
  return {
    user: String(item.userId),
    project,
    client: typeof item.clientId === 'string' ? item.clientId : null,
    task: typeof item.taskId === 'string' ? item.taskId : null,
    tags: Array.isArray(item.tagIds) ? (item.tagIds as string[]) : [],
    billable: item.billable === true,
    day,
    month: day.slice(0, 7),
    n: 1,
    m,
    b,
    bp: project && b ? { [project]: b } : {},
  };
}

function rollupFact(dim: Dimension, g: Granularity, row: RollupRow): Fact {
  const time = g === 'D' ? { day: row.period, month: row.period.slice(0, 7) } : { month: row.period };
  const base = { ...time, n: row.n, m: row.m, b: row.b };
  if (dim === 'X') {
    const [u, p, c, t, billable] = row.value.split('#') as [string, string, string, string, string];
    const project = dec(p);
    return { ...base, user: dec(u), project, client: dec(c), task: dec(t), billable: billable === '1', bp: project && row.b ? { [project]: row.b } : {} };
  }
  const value = dec(row.value);
  if (dim === 'P') return { ...base, project: value, bp: value && row.b ? { [value]: row.b } : {} };
  const field = dim === 'U' ? 'user' : dim === 'C' ? 'client' : 'task';
  return { ...base, [field]: value, bp: row.bp };
}

/** Does a rollup fact pass the filters (the dimensions it knows; the dimension read covers every filter). */
function passes(f: Fact, filters: TimeEntryFilters, taskProject: string | undefined): boolean {
  if (filters.userId !== undefined && f.user !== undefined && f.user !== filters.userId) return false;
  if (filters.projectId !== undefined && f.project !== undefined && f.project !== filters.projectId) return false;
  if (filters.taskId !== undefined && f.task !== undefined && f.task !== filters.taskId) return false;
  if (filters.taskId !== undefined && f.project !== undefined && taskProject !== undefined && f.project !== taskProject) return false;
  if (filters.clientId !== undefined && f.client !== undefined && f.client !== filters.clientId) return false;
  if (filters.billable !== undefined && f.billable !== undefined && f.billable !== (filters.billable === 'true')) return false;
  return true;
}

// ------------------------------------------------------------------ the report
export async function summaryReport(workspaceId: string, req: ReportRequest, stats: ReportStats = { calls: 0, rcu: 0, entries: 0, rollups: 0, plan: [] }): Promise<SummaryReport> {
  const tz = req.timeZone ?? 'UTC';
  const { from, to } = reportPeriod(req.startDate, req.endDate, tz);
  const entryRepo = repository(timeEntries);
  const narrowed = await entryRepo.narrowed(workspaceId, entryWhere(req.filters));
  const taskProject = narrowed?.projectId;

  const facts: Fact[] = [];
  let running = 0;
  if (narrowed) {
    // tags and the invoiced state are not in the rollups: such reports read the entries (a filter on the narrowed Query)
    const usesTag = req.groupBy.includes('tag') || (Object.keys(FILTER_READ) as TimeEntryFilter[]).some((k) => FILTER_READ[k] === 'entries' && req.filters[k] !== undefined);
    const timeGroup = req.groupBy.some((g) => TIME_GROUPS.includes(g));
    const byDay = req.groupBy.includes('day') || req.groupBy.includes('week');
    const addEntries = async (a: number, b: number) => {
      if (a >= b) return;
      for (const item of await readEntriesBetween(workspaceId, narrowed, a, b, stats)) if (typeof item.durationMinutes === 'number') facts.push(entryFact(item, tz));
    };
    const firstDay = Math.ceil(from / DAY_MS) * DAY_MS;
    const lastDay = Math.floor(to / DAY_MS) * DAY_MS;
    const zoned = timeGroup && !isUtc(req.timeZone);
    if (usesTag || (zoned && req.groupBy.includes('day')) || firstDay >= lastDay) {
      await addEntries(from, to);
    } else {
      const dims = new Set(
        [...req.groupBy, ...(Object.keys(req.filters) as TimeEntryFilter[]).filter((k) => req.filters[k] !== undefined)]
          .map((k) => DIM_OF[k])
          .filter((d): d is Dimension => d !== undefined),
      );
      // a task filter also pins the project (task -> project), which the task dimension knows through its key only
      const dim: Dimension = req.filters.billable !== undefined || dims.size > 1 ? 'X' : ([...dims][0] ?? 'P');
      const addRollups = async (g: Granularity, a: number, b: number, remap: (f: Fact) => Fact | undefined = (f) => f) => {
        if (a >= b) return;
        const first = g === 'D' ? dayOf(a) : iso(a).slice(0, 7);
        const last = g === 'D' ? dayOf(b - DAY_MS) : iso(monthStartAtOrBefore(b - 1)).slice(0, 7);
        const rows = await readRollups(workspaceId, dim, g, first, last, stats);
        stats.rollups += rows.length;
        stats.plan.push(`${g} ${first}..${last} (${dim})`);
        for (const row of rows) {
          if (row.n === 0 && row.m === 0) continue;
          const fact = remap(rollupFact(dim, g, row));
          if (fact && passes(fact, req.filters, taskProject)) facts.push(fact);
        }
      };
      await addEntries(from, firstDay);
      if (zoned) {
        // Weeks or months in a time zone: a UTC day lies in one local week and month unless a local
        // period starts inside it. Those boundary days are read from the entries; every other UTC day's
        // rollups count in the local period the day lies in.
        const byWeek = req.groupBy.includes('week');
        const byMonth = req.groupBy.includes('month');
        const periodsAt = (t: number) => {
          const day = localDay(t, tz);
          return `${byWeek ? weekOf(day).key : ''}|${byMonth ? day.slice(0, 7) : ''}`;
        };
        const boundary = new Set<string>();
        for (let d = firstDay; d < lastDay; d += DAY_MS) if (periodsAt(d) !== periodsAt(d + DAY_MS - 1)) boundary.add(dayOf(d));
        await addRollups('D', firstDay, lastDay, (f) => {
          if (f.day === undefined || boundary.has(f.day)) return undefined;
          const local = localDay(Date.parse(`${f.day}T12:00:00.000Z`), tz);
          return { ...f, day: local, month: local.slice(0, 7) };
        });
        for (const day of boundary) {
          const d = Date.parse(`${day}T00:00:00.000Z`);
          await addEntries(d, d + DAY_MS);
        }
      } else if (byDay) await addRollups('D', firstDay, lastDay);
      else {
        const firstMonth = monthStartAtOrAfter(firstDay);
        const lastMonth = monthStartAtOrBefore(lastDay);
        if (firstMonth < lastMonth) {
          await addRollups('D', firstDay, firstMonth);
          await addRollups('M', firstMonth, lastMonth);
          await addRollups('D', lastMonth, lastDay);
        } else await addRollups('D', firstDay, lastDay);
      }
      await addEntries(lastDay, to);
    }
    running = await countRunning(workspaceId, narrowed, from, to, stats);
  }

  const names = await namesFor(workspaceId, req.groupBy, facts, stats);
  const report: SummaryReport = {
    startDate: req.startDate,
    endDate: req.endDate,
    groupBy: req.groupBy,
    ...(req.timeZone ? { timeZone: req.timeZone } : {}),
    totals: totalsOf(facts, names),
    groups: req.groupBy.length ? groupsOf(facts, req.groupBy, names) : [],
    runningEntries: running,
  };
  return report;
}

/**
 * Running entries that started in [from, to). Without filters (or with userId alone) from the running-timer
 * items (shared/services/timer-reads.ts); with other filters from the running-entries index (GSI6), whose items
 * are whole entries.
 */
async function countRunning(workspaceId: string, where: Where, from: number, to: number, stats: ReportStats): Promise<number> {
  const filters = Object.entries(where).filter(([, v]) => v !== undefined);
  if (filters.every(([k]) => k === 'userId')) {
    const lo = iso(from);
    const hi = iso(to);
    const starts = await runningTimerStarts(workspaceId, where.userId, (res) => countPage(res, stats));
    return starts.filter((startTime) => startTime >= lo && startTime < hi).length;
  }
  return (await runningEntriesBetween(workspaceId, where, from, to, stats)).length;
}

// ------------------------------------------------------------------ grouping
/** The records a report names, by id. */
interface Names {
  projects: Map<string, EntityRecord<typeof projects>>;
  clients: Map<string, EntityRecord<typeof clients>>;
  tasks: Map<string, EntityRecord<typeof tasks>>;
  tags: Map<string, EntityRecord<typeof tags>>;
}

async function namesFor(workspaceId: string, groupBy: readonly Grouping[], facts: readonly Fact[], stats: ReportStats): Promise<Names> {
  const load = async <R extends { id: string }>(needed: boolean, list: () => Promise<R[]>): Promise<Map<string, R>> => {
    if (!needed) return new Map();
    stats.calls++;
    return new Map((await list()).map((r) => [r.id, r]));
  };
  const billed = facts.some((f) => Object.keys(f.bp).length > 0);
  const [p, c, t, g] = await Promise.all([
    load(billed || groupBy.includes('project'), () => repository(projects).listAll(workspaceId)),
    load(billed || groupBy.includes('client'), () => repository(clients).listAll(workspaceId)),
    load(groupBy.includes('task'), () => repository(tasks).listAll(workspaceId)),
    load(groupBy.includes('tag'), () => repository(tags).listAll(workspaceId)),
  ]);
  return { projects: p, clients: c, tasks: t, tags: g };
}

/** Amounts: per currency, the sum over projects of billable minutes x hourlyRate, rounded to cents once. */
function amountsOf(bp: Readonly<Record<string, number>>, names: Names): Amount[] {
  const sums = new Map<string, number>();
  for (const [projectId, minutes] of Object.entries(bp)) {
    const project = names.projects.get(projectId);
    if (!project || typeof project.hourlyRate !== 'number' || minutes === 0) continue;
    const client = typeof project.clientId === 'string' ? names.clients.get(project.clientId) : undefined;
    const currency = String(project.currency ?? client?.currency ?? 'XXX');
    // minutes x rate in cents, exact in integers; divided by 60 once per currency
    sums.set(currency, (sums.get(currency) ?? 0) + minutes * Math.round(project.hourlyRate * 100));
  }
  return [...sums].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([currency, centMinutes]) => ({ currency, amount: Math.round(centMinutes / 60) / 100 }));
}

interface Acc {
  n: number;
  m: number;
  b: number;
  bp: Record<string, number>;
}
const accOf = (): Acc => ({ n: 0, m: 0, b: 0, bp: {} });
function addTo(acc: Acc, f: Fact) {
  acc.n += f.n;
  acc.m += f.m;
  acc.b += f.b;
  for (const [p, v] of Object.entries(f.bp)) acc.bp[p] = (acc.bp[p] ?? 0) + v;
}
const totalsFrom = (acc: Acc, names: Names): ReportTotals => ({ entries: acc.n, durationMinutes: acc.m, billableMinutes: acc.b, amounts: amountsOf(acc.bp, names) });

function totalsOf(facts: readonly Fact[], names: Names): ReportTotals {
  const acc = accOf();
  for (const f of facts) addTo(acc, f);
  return totalsFrom(acc, names);
}

/** The keys a fact counts under for a grouping (several for tags; null: none). */
function keysOf(f: Fact, g: Grouping): Array<string | null> {
  switch (g) {
    case 'user':
      return [f.user ?? null];
    case 'project':
      return [f.project ?? null];
    case 'client':
      return [f.client ?? null];
    case 'task':
      return [f.task ?? null];
    case 'tag':
      return f.tags && f.tags.length ? f.tags : [null];
    case 'day':
      return [f.day ?? null];
    case 'week':
      return [f.day ? weekOf(f.day).key : null];
    case 'month':
      return [f.month ?? f.day?.slice(0, 7) ?? null];
  }
}

function nameOf(g: Grouping, key: string | null, names: Names): string | null {
  if (key === null) return null;
  const named = (m: ReadonlyMap<string, { readonly name?: unknown }>) => {
    const r = m.get(key);
    return typeof r?.name === 'string' ? r.name : null;
  };
  switch (g) {
    case 'user':
    case 'day':
    case 'month':
      return key;
    case 'week':
      return weekOf(key).name;
    case 'project':
      return named(names.projects);
    case 'client':
      return named(names.clients);
    case 'task':
      return named(names.tasks);
    case 'tag':
      return named(names.tags);
  }
}

/** Made when a report first sorts names, not at load (shared/data/records.ts byName says why). */
let collator: Intl.Collator | undefined;
function ordered(g: Grouping, groups: ReportGroup[]): ReportGroup[] {
  const time = TIME_GROUPS.includes(g);
  return groups.sort((a, b) => {
    if (a.key === null || b.key === null) return a.key === b.key ? 0 : a.key === null ? 1 : -1;
    if (time) return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
    return (collator ??= new Intl.Collator('en', { sensitivity: 'base' })).compare(a.name ?? '', b.name ?? '') || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  });
}

function groupsOf(facts: readonly Fact[], groupBy: readonly Grouping[], names: Names): ReportGroup[] {
  const [g1, g2] = groupBy as [Grouping, Grouping | undefined];
  const top = new Map<string | null, { acc: Acc; sub: Map<string | null, Acc> }>();
  for (const f of facts) {
    for (const k1 of keysOf(f, g1)) {
      let entry = top.get(k1);
      if (!entry) top.set(k1, (entry = { acc: accOf(), sub: new Map() }));
      addTo(entry.acc, f);
      if (!g2) continue;
      for (const k2 of keysOf(f, g2)) {
        let acc = entry.sub.get(k2);
        if (!acc) entry.sub.set(k2, (acc = accOf()));
        addTo(acc, f);
      }
    }
  }
  const groups = [...top].map(([key, { acc, sub }]) => ({
    key,
    name: nameOf(g1, key, names),
    ...totalsFrom(acc, names),
    ...(g2
      ? {
          groups: ordered(
            g2,
            [...sub].map(([k2, a]) => ({ key: k2, name: nameOf(g2, k2, names), ...totalsFrom(a, names) })),
          ),
        }
      : {}),
  }));
  return ordered(g1, groups);
}
