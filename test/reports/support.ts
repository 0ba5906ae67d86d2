/**
 * Brute force for GET /v1/reports/summary: the report computed straight from a list of entries, with
 * nothing of the implementation (no rollups, its own time-zone and week arithmetic).
 */
export interface BruteEntry {
  id: string;
  userId: string;
  startTime: string;
  endTime?: string;
  durationMinutes?: number;
  projectId?: string;
  clientId?: string;
  taskId?: string;
  tagIds?: string[];
  billable?: boolean;
}
export interface Catalog {
  projects: Map<string, { name: string; hourlyRate?: number; currency?: string; clientId?: string }>;
  clients: Map<string, { name: string; currency?: string }>;
  tasks: Map<string, { name: string }>;
  tags: Map<string, { name: string }>;
}
export interface ReportParams {
  startDate: string;
  endDate: string;
  groupBy?: string;
  timeZone?: string;
  userId?: string;
  projectId?: string;
  clientId?: string;
  taskId?: string;
  tagId?: string;
  billable?: 'true' | 'false';
}
interface Totals {
  entries: number;
  durationMinutes: number;
  billableMinutes: number;
  amounts: Array<{ currency: string; amount: number }>;
}
export interface Group extends Totals {
  key: string | null;
  name: string | null;
  groups?: Group[];
}

const localDate = (iso: string, tz: string) => new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));

/** ISO week: the Monday and the label (year of the week's Thursday, week number counted from that year's first Thursday). */
function isoWeek(date: string): { key: string; name: string } {
  const d = new Date(`${date}T12:00:00Z`);
  const weekday = d.getUTCDay() === 0 ? 7 : d.getUTCDay();
  const monday = new Date(d);
  monday.setUTCDate(d.getUTCDate() - (weekday - 1));
  const thursday = new Date(monday);
  thursday.setUTCDate(monday.getUTCDate() + 3);
  const year = thursday.getUTCFullYear();
  const jan4 = new Date(Date.UTC(year, 0, 4, 12));
  const jan4Weekday = jan4.getUTCDay() === 0 ? 7 : jan4.getUTCDay();
  const week1Monday = new Date(jan4);
  week1Monday.setUTCDate(jan4.getUTCDate() - (jan4Weekday - 1));
  const week = Math.round((monday.getTime() - week1Monday.getTime()) / (7 * 86_400_000)) + 1;
  return { key: monday.toISOString().slice(0, 10), name: `${year}-W${String(week).padStart(2, '0')}` };
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function inPeriod(e: BruteEntry, p: ReportParams): boolean {
  const tz = p.timeZone ?? 'UTC';
  const day = localDate(e.startTime, tz);
  const t = Date.parse(e.startTime);
  const afterStart = DATE_ONLY.test(p.startDate) ? day >= p.startDate : t >= Date.parse(p.startDate);
  const beforeEnd = DATE_ONLY.test(p.endDate) ? day <= p.endDate : t <= Date.parse(p.endDate);
  return afterStart && beforeEnd;
}

function matches(e: BruteEntry, p: ReportParams): boolean {
  if (p.userId !== undefined && e.userId !== p.userId) return false;
  if (p.projectId !== undefined && e.projectId !== p.projectId) return false;
  if (p.clientId !== undefined && e.clientId !== p.clientId) return false;
  if (p.taskId !== undefined && e.taskId !== p.taskId) return false;
  if (p.tagId !== undefined && !(e.tagIds ?? []).includes(p.tagId)) return false;
  if (p.billable !== undefined && (e.billable === true) !== (p.billable === 'true')) return false;
  return true;
}

function keysOf(e: BruteEntry, g: string, tz: string): Array<string | null> {
  const day = localDate(e.startTime, tz);
  switch (g) {
    case 'user':
      return [e.userId];
    case 'project':
      return [e.projectId ?? null];
    case 'client':
      return [e.clientId ?? null];
    case 'task':
      return [e.taskId ?? null];
    case 'tag':
      return e.tagIds?.length ? e.tagIds : [null];
    case 'day':
      return [day];
    case 'week':
      return [isoWeek(day).key];
    case 'month':
      return [day.slice(0, 7)];
  }
  throw new Error(g);
}

function nameOf(g: string, key: string | null, cat: Catalog): string | null {
  if (key === null) return null;
  if (g === 'week') return isoWeek(key).name;
  if (g === 'project') return cat.projects.get(key)?.name ?? null;
  if (g === 'client') return cat.clients.get(key)?.name ?? null;
  if (g === 'task') return cat.tasks.get(key)?.name ?? null;
  if (g === 'tag') return cat.tags.get(key)?.name ?? null;
  return key;
}

function totals(entries: BruteEntry[], cat: Catalog): Totals {
  const byCurrency = new Map<string, number>();
  let billableMinutes = 0;
  for (const e of entries) {
    const minutes = e.durationMinutes!;
    if (!e.billable) continue;
    billableMinutes += minutes;
    const project = e.projectId ? cat.projects.get(e.projectId) : undefined;
    if (!project || project.hourlyRate === undefined || minutes === 0) continue;
    const currency = project.currency ?? (project.clientId ? cat.clients.get(project.clientId)?.currency : undefined) ?? 'XXX';
    byCurrency.set(currency, (byCurrency.get(currency) ?? 0) + minutes * Math.round(project.hourlyRate * 100));
  }
  return {
    entries: entries.length,
    durationMinutes: entries.reduce((s, e) => s + e.durationMinutes!, 0),
    billableMinutes,
    amounts: [...byCurrency].sort(([a], [b]) => a.localeCompare(b)).map(([currency, c]) => ({ currency, amount: Math.round(c / 60) / 100 })),
  };
}

function groupsOf(entries: BruteEntry[], groupBy: string[], tz: string, cat: Catalog): Group[] {
  const [g, ...rest] = groupBy;
  if (!g) return [];
  const by = new Map<string | null, BruteEntry[]>();
  for (const e of entries) for (const k of keysOf(e, g, tz)) by.set(k, [...(by.get(k) ?? []), e]);
  return [...by].map(([key, es]) => ({ key, name: nameOf(g, key, cat), ...totals(es, cat), ...(rest.length ? { groups: groupsOf(es, rest, tz, cat) } : {}) }));
}

/** The expected report (groups in no particular order: compare with `normalized`). */
export function bruteForceReport(all: BruteEntry[], p: ReportParams, cat: Catalog) {
  const tz = p.timeZone ?? 'UTC';
  const groupBy = p.groupBy ? p.groupBy.split(',') : [];
  const inRange = all.filter((e) => inPeriod(e, p) && matches(e, p));
  const finished = inRange.filter((e) => e.endTime !== undefined);
  return {
    startDate: p.startDate,
    endDate: p.endDate,
    groupBy,
    ...(p.timeZone ? { timeZone: p.timeZone } : {}),
    totals: totals(finished, cat),
    groups: groupsOf(finished, groupBy, tz, cat),
    runningEntries: inRange.length - finished.length,
  };
}

/** Groups sorted by key (null last) at every level, so two reports compare regardless of order. */
export function normalized<T extends { groups: Group[] }>(report: T): T {
  const sort = (gs: Group[]): Group[] =>
    [...gs]
      .sort((a, b) => (a.key === b.key ? 0 : a.key === null ? 1 : b.key === null ? -1 : a.key < b.key ? -1 : 1))
      .map((g) => ({ ...g, ...(g.groups ? { groups: sort(g.groups) } : {}) }));
  return { ...report, groups: sort(report.groups) };
}
