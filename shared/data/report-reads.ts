import type { QueryCommandInput, QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { timeEntries, type TimeEntry } from '../domain/entities/time-entries';
import { queryAll, tableName } from './db';
import { keys } from './keys';
import { planQuery, queryInputOf, type Where } from './query-plan';
import { TYPE_ATTRIBUTE as TYPE } from './table';

/**
 * The time-entry reads of the summary report (shared/services/reports.ts): the entries of a period through
 * the list's access pattern, and the running entries of a period. Each counts its calls and read units.
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

function countPage(res: QueryCommandOutput, stats: Pick<ReadStats, 'calls' | 'rcu'>): void {
  stats.calls++;
  stats.rcu += res.ConsumedCapacity?.CapacityUnits ?? 0;
}

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

/**
 * Running entries that started in [from, to). Without filters (or with userId alone) from the running-timer
 * items (shared/data/timers.ts: one small item per user with a running entry, its sortKey starting with
 * the startTime); with other filters from the running-entries index (GSI6), whose items are whole entries.
 */
export async function countRunningBetween(workspaceId: string, where: Where, from: number, to: number, stats: ReadStats): Promise<number> {
  const filters = Object.entries(where).filter(([, v]) => v !== undefined);
  if (filters.every(([k]) => k === 'userId')) {
    const timerKey = where.userId === undefined ? undefined : keys.runningTimer(workspaceId, where.userId);
    // (at most one item per user: a workspace of thousands of users still reads a few hundred KB at most, in pages)
    const items = await queryAll(
      {
        TableName: tableName(),
        KeyConditionExpression: timerKey ? 'PK = :pk AND SK = :sk' : 'PK = :pk AND begins_with(SK, :sk)',
        ExpressionAttributeValues: { ':pk': keys.workspacePartition(workspaceId), ':sk': timerKey ? timerKey.SK : 'RUNNING#' },
        ReturnConsumedCapacity: 'TOTAL',
      },
      (res) => countPage(res, stats),
    );
    const lo = iso(from);
    const hi = iso(to);
    return items.filter((i) => {
      const startTime = String(i.sortKey).slice(0, 24);
      return startTime >= lo && startTime < hi;
    }).length;
  }
  const plan = planQuery(timeEntries, workspaceId, { ...where, running: 'true' }, sortKeyRange(from, to));
  const items = await readAll(queryInputOf(plan), stats);
  return items.length;
}
