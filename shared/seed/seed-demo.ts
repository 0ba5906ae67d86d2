import { timeEntries } from '../data/repositories';
import type { CreateValues } from '../data/repository';
import '../services/timers'; // the running-timer rule and the rollups travel with each entry written
import { FROM_FAVORITE } from '../domain/entities/favorites';
import type { timeEntries as timeEntryEntity, TimeEntry } from '../domain/entities/time-entries';
import { pickFields } from '../domain/fields';
import { addDays } from '../invoicing/rules';
import { invoiceEveryClient, sendInvoice } from '../invoicing/service';
import { ensureSeedCatalog, generateTimeEntries } from './seed-time-entries';

/**
 * The demo workspace of `npm start`: a first look that shows the product. Clients, projects (billable and
 * not) with tasks, tags, and about three weeks of time entries of three users on weekdays, two of them
 * with a timer running now. Entries are written through the repository, one by one, as the API writes
 * them: each has its change event (GET /v1/changes shows them), its report rollups (GET
 * /v1/reports/summary totals them) and its running-timer rule.
 *
 * Invoiced entries: `invoice` is the hook, called once with the finished billable entries; it returns how
 * many invoices it made. npm start passes `invoiceOldestWeek` (one invoice per client for the oldest week,
 * the first of them sent), so the demo shows some entries invoiced and leaves two weeks to invoice.
 */
export interface DemoSeedOptions {
  now?: Date;
  /** Hook for invoicing: invoice some of these finished billable entries (npm start: `invoiceOldestWeek`). */
  invoice?: (workspaceId: string, billable: readonly TimeEntry[]) => Promise<number>;
}

export const DEMO_USERS = ['alice', 'bob', 'carol'] as const;
/** Weekdays of entries, back from today. */
const DEMO_WEEKS = 3;
const DEMO_ENTRIES = 90;

export interface DemoSeedResult {
  timeEntries: number;
  running: number;
  billable: number;
  invoices: number;
}

export async function seedDemoEntries(workspaceId: string, opts: DemoSeedOptions = {}): Promise<DemoSeedResult> {
  const now = opts.now ?? new Date();
  const catalog = await ensureSeedCatalog(workspaceId);
  const generated = generateTimeEntries(catalog, DEMO_ENTRIES, { now, months: (DEMO_WEEKS * 7) / 30, users: [...DEMO_USERS], seed: 7 })
    // finished ones (no running timer; none starting later today) oldest first, as someone tracking time would have written them
    .filter((e) => Date.parse(e.startTime) < now.getTime() - 15 * 60_000)
    // ended at least 5 minutes ago, so both timers below can start after their user's last entry, whatever the time of day
    .map((e) => ({ ...e, endTime: new Date(Math.min(e.endTime ? Date.parse(e.endTime) : Date.parse(e.startTime) + 3600_000, now.getTime() - 5 * 60_000)).toISOString() }))
    .sort((a, b) => a.startTime.localeCompare(b.startTime));
  const written: TimeEntry[] = [];
  for (const e of generated) written.push((await timeEntries.create(workspaceId, inputOf(e))) as TimeEntry);
  // Two timers running now: started this morning (or an hour ago), after every finished entry of their user.
  let running = 0;
  for (const [i, userId] of DEMO_USERS.slice(0, 2).entries()) {
    const latestEnd = Math.max(0, ...written.filter((e) => e.userId === userId && e.endTime).map((e) => Date.parse(e.endTime!)));
    const startTime = new Date(Math.max(latestEnd + 60_000, now.getTime() - (60 + 25 * i) * 60_000));
    if (startTime.getTime() >= now.getTime()) continue;
    const project = catalog.projects[i]!.project;
    await timeEntries.create(workspaceId, {
      userId,
      name: i === 0 ? 'Homepage hero section' : 'Sync with Globex',
      projectId: project.id,
      ...(project.clientId ? { clientId: project.clientId } : {}),
      taskId: catalog.projects[i]!.tasks[0]!.id,
      tagIds: [catalog.tags[0]!.id],
      startTime: startTime.toISOString(),
    });
    running++;
  }
  const billable = written.filter((e) => e.billable);
  const invoices = opts.invoice ? await opts.invoice(workspaceId, billable) : 0;
  return { timeEntries: written.length + running, running, billable: billable.length, invoices };
}

/** The fields a client would send to create the entry. */
function inputOf(e: TimeEntry): CreateValues<typeof timeEntryEntity> {
  return pickFields(e, [...FROM_FAVORITE, 'startTime', 'endTime']);
}

/**
 * npm start's invoicing hook: one draft per client with billable time (at a rate, in one currency) in the
 * week of the oldest billable entry, made by the invoicing engine (entries locked, events in the feed); the
 * first of them is sent. The two later weeks stay to be invoiced in the console.
 */
export async function invoiceOldestWeek(workspaceId: string, billable: readonly TimeEntry[]): Promise<number> {
  const first = billable.map((e) => e.startTime).sort()[0];
  if (!first) return 0;
  const startDate = first.slice(0, 10);
  const { made } = await invoiceEveryClient(workspaceId, { startDate, endDate: addDays(startDate, 6), issueDate: addDays(startDate, 7) });
  if (made[0]) await sendInvoice(workspaceId, made[0].id);
  return made.length;
}
