import type { QueryCommandInput, QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { timeEntries, type TimeEntry } from '../domain/entities/time-entries';
import { queryAll } from './db';
import { planQuery, queryInputOf, type Where } from './query-plan';
import { TYPE_ATTRIBUTE as TYPE } from './table';

/**
 * The time-entry reads of the summary report (shared/services/reports.ts): the entries of a period through
 * the list's access pattern, and the running entries of a period (the running-entries index). Each counts
 * its calls and read units.
 */

/** A time entry as stored: its record without the exposed sort key and the ETag (those are the item's key and revision). */
export type StoredTimeEntry = Omit<TimeEntry, 'sortKey' | 'etag'>;
/** What a read counts (the report's stats). */
export interface ReadStats {
  calls: number;
  rcu: number;
  /** Time entries read. */
  entries: number;
  /** How the period was read. */
  plan: string[];
}

const iso = (t: number) => new Date(t).toISOString();
const sortKeyRange = (from: number, to: number) => ({ lo: iso(from), hi: `${iso(to - 1)}#~` });

/** Every time entry a Query matches (queryAll, shared/data/db.ts), its calls and read units counted. */
async function readAll(input: QueryCommandInput, stats: ReadStats): Promise<StoredTimeEntry[]> {
  const items = await queryAll({ ...input, ReturnConsumedCapacity: 'TOTAL' }, (res) => countPage(res, stats));
  // an item of the entry's type holds every stored field of its record (shared/data/records.ts, itemOf)
  return items.filter((item) => item[TYPE] === timeEntries.type) as StoredTimeEntry[];
}

/** The entries starting in [from, to) matching the filters, through the list's access pattern. */
export async function readEntriesBetween(workspaceId: string, where: Where, from: number, to: number, stats: ReadStats): Promise<StoredTimeEntry[]> {
  const plan = planQuery(timeEntries, workspaceId, where, sortKeyRange(from, to));
  const items = await readAll(queryInputOf(plan), stats);
  stats.entries += items.length;
  stats.plan.push(`entries ${iso(from)}..${iso(to)} (${plan.access})`);
  return items;
}

/** The running entries (the running-entries index, GSI6) that started in [from, to) and match the filters. */
export async function runningEntriesBetween(workspaceId: string, where: Where, from: number, to: number, stats: ReadStats): Promise<StoredTimeEntry[]> {
  const plan = planQuery(timeEntries, workspaceId, { ...where, running: 'true' }, sortKeyRange(from, to));
  return readAll(queryInputOf(plan), stats);
}

/** Counts a page's call and read units. */
export function countPage(res: QueryCommandOutput, stats: Pick<ReadStats, 'calls' | 'rcu'>): void {
  stats.calls++;
  stats.rcu += res.ConsumedCapacity?.CapacityUnits ?? 0;
}
