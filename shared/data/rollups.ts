import type { TimeEntry } from '../domain/entities/time-entries';
import { queryAll, tableName, type ExpressionValue, type StoredItem } from './db';
import { keys } from './keys';
import { TYPE_ATTRIBUTE as TYPE } from './table';
import type { WriteOp } from './write';
import { ITEM_TYPES } from './item-types';

/**
 * Report rollups (docs/data-model.md, "Reports"): running totals of finished time entries per UTC day
 * and per UTC month, kept in the same transaction as every entry write, so a report over a year reads a
 * few hundred small items instead of every entry.
 *
 * Dimensions, one partition each (keys.rollupPartition):
 *   U user, P project, C client, T task: one item per (period, value); `-` stands for "none";
 *   X the combination user + project + client + task + billable: one item per (period, combination),
 *     for reports that group or filter by two dimensions (or by billable).
 * Each item: `n` entries, `m` minutes, `b` billable minutes and, on U/C/T items, `b:<projectId>` the
 * billable minutes per project (amounts are billable minutes times the project's rate).
 *
 * An entry counts in the day and month of its startTime (UTC) and only once it has an endTime (running
 * entries are not in any rollup). A write adds its after-state and subtracts its before-state: ADD on
 * each item whose totals change (no condition, so the item is created by its first ADD). Changes to one
 * item from several records of one transaction (a started timer stopping another) are merged, so each
 * item appears at most once in it.
 */
export const ROLLUP_TYPE = ITEM_TYPES.rollup;
export const DIMENSIONS = ['U', 'P', 'C', 'T', 'X'] as const;
export type Dimension = (typeof DIMENSIONS)[number];
export type Granularity = 'D' | 'M';
/** The value of "no user / project / client / task" in rollup keys. */
export const NONE = '-';

/**
 * A value as a rollup key part: URI-encoded, and `-` (which encodeURIComponent leaves as it is) written
 * `%2D`, so no id a client may send (a userId of `-`) can read as the NONE marker (issue 22 item 6).
 */
const enc = (v: unknown) => (v === undefined || v === null || v === '' ? NONE : v === NONE ? '%2D' : encodeURIComponent(String(v)));
export const dec = (v: string): string | null => (v === NONE ? null : decodeURIComponent(v));

/** The fields of a time entry its rollups read (a stored entry may lack any: then it counts nowhere or under NONE). */
export type RolledUpEntry = Readonly<Partial<Pick<TimeEntry, 'userId' | 'projectId' | 'clientId' | 'taskId' | 'billable' | 'startTime' | 'durationMinutes'>>>;

/** The value of an entry in a dimension (the rollup key's last part). */
export function dimensionValue(dim: Dimension, rec: RolledUpEntry): string {
  switch (dim) {
    case 'U':
      return enc(rec.userId);
    case 'P':
      return enc(rec.projectId);
    case 'C':
      return enc(rec.clientId);
    case 'T':
      return enc(rec.taskId);
    case 'X':
      return [enc(rec.userId), enc(rec.projectId), enc(rec.clientId), enc(rec.taskId), rec.billable === true ? '1' : '0'].join('#');
  }
}

/** Totals a rollup item holds. */
export interface Totals {
  n: number;
  m: number;
  b: number;
  /** Billable minutes per project id (absent project: no amount). */
  bp: Record<string, number>;
}
const zero = (): Totals => ({ n: 0, m: 0, b: 0, bp: {} });

export const rollupSortKey = (g: Granularity, period: string, value: string) => `${g}#${period}#${value}`;

/** What a stored entry adds to each rollup item (nothing while it runs). */
function contributions(rec: RolledUpEntry | undefined): Array<[string, Totals]> {
  if (!rec || typeof rec.durationMinutes !== 'number') return [];
  const start = String(rec.startTime);
  const m = rec.durationMinutes;
  const b = rec.billable === true ? m : 0;
  const project = typeof rec.projectId === 'string' ? rec.projectId : undefined;
  const out: Array<[string, Totals]> = [];
  for (const [g, period] of [
    ['D', start.slice(0, 10)],
    ['M', start.slice(0, 7)],
  ] as const) {
    for (const dim of DIMENSIONS) {
      const bp = project && b && (dim === 'U' || dim === 'C' || dim === 'T') ? { [project]: b } : {};
      out.push([`${dim}|${rollupSortKey(g, period, dimensionValue(dim, rec))}`, { n: 1, m, b, bp }]);
    }
  }
  return out;
}

/**
 * The rollup changes of a set of record writes (each a stored item before and after; a create has no
 * before, a delete no after), merged per rollup item, zero changes dropped.
 */
export function rollupDeltas(changes: ReadonlyArray<readonly [StoredItem | undefined, StoredItem | undefined]>): Map<string, Totals> {
  const deltas = new Map<string, Totals>();
  const add = (key: string, t: Totals, sign: 1 | -1) => {
    const d = deltas.get(key) ?? zero();
    d.n += sign * t.n;
    d.m += sign * t.m;
    d.b += sign * t.b;
    for (const [p, v] of Object.entries(t.bp)) d.bp[p] = (d.bp[p] ?? 0) + sign * v;
    deltas.set(key, d);
  };
  for (const [before, after] of changes) {
    for (const [key, t] of contributions(before)) add(key, t, -1);
    for (const [key, t] of contributions(after)) add(key, t, 1);
  }
  for (const [key, d] of deltas) {
    for (const [p, v] of Object.entries(d.bp)) if (v === 0) delete d.bp[p];
    if (d.n === 0 && d.m === 0 && d.b === 0 && Object.keys(d.bp).length === 0) deltas.delete(key);
  }
  return deltas;
}

/** The UpdateItem of one rollup item: ADD its deltas (creates the item on first use). */
export function rollupUpdate(workspaceId: string, key: string, d: Totals) {
  const [dim, sk] = key.split('|') as [Dimension, string];
  const names: Record<string, string> = { '#t': TYPE, '#n': 'n', '#m': 'm', '#b': 'b' };
  const values: Record<string, ExpressionValue> = { ':t': ROLLUP_TYPE, ':n': d.n, ':m': d.m, ':b': d.b };
  const adds = ['#n :n', '#m :m', '#b :b'];
  Object.entries(d.bp).forEach(([p, v], i) => {
    names[`#p${i}`] = `b:${p}`;
    values[`:p${i}`] = v;
    adds.push(`#p${i} :p${i}`);
  });
  return {
    TableName: tableName(),
    Key: { PK: keys.rollupPartition(workspaceId, dim), SK: sk },
    UpdateExpression: `SET #t = :t ADD ${adds.join(', ')}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** The rollup writes that travel with a set of time-entry writes (one per changed rollup item: 0-20 per record). */
export function rollupOps(workspaceId: string, changes: ReadonlyArray<readonly [StoredItem | undefined, StoredItem | undefined]>): WriteOp[] {
  return [...rollupDeltas(changes)].map(([key, d]) => ({
    item: { Update: rollupUpdate(workspaceId, key, d) },
    // No condition: it cannot fail one.
    onConditionFail: () => new Error('rollup update has no condition'),
  }));
}

/** A rollup item as read: its period and value (from the sort key) and its totals. */
export interface RollupRow extends Totals {
  period: string;
  value: string;
}

/**
 * Reads the rollup items of one dimension for the periods from..to (inclusive) of one granularity: one
 * Query (following LastEvaluatedKey), eventually consistent like the list's index reads.
 */
export async function readRollups(workspaceId: string, dim: Dimension, g: Granularity, from: string, to: string, stats?: { calls: number; rcu: number }): Promise<RollupRow[]> {
  const items = await queryAll(
    {
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
      // `$` sorts right after `#`: every `<g>#<to>#...` is below `<g>#<to>$`.
      ExpressionAttributeValues: { ':pk': keys.rollupPartition(workspaceId, dim), ':lo': `${g}#${from}#`, ':hi': `${g}#${to}$` },
      ...(stats ? { ReturnConsumedCapacity: 'TOTAL' as const } : {}),
    },
    (res) => {
      if (!stats) return;
      stats.calls++;
      stats.rcu += res.ConsumedCapacity?.CapacityUnits ?? 0;
    },
  );
  return items.map(rowOf);
}

function rowOf(item: StoredItem): RollupRow {
  const sk = String(item.SK);
  const first = sk.indexOf('#');
  const second = sk.indexOf('#', first + 1);
  const bp: Record<string, number> = {};
  for (const [k, v] of Object.entries(item)) if (k.startsWith('b:') && Number(v) !== 0) bp[k.slice(2)] = Number(v);
  return { period: sk.slice(first + 1, second), value: sk.slice(second + 1), n: Number(item.n ?? 0), m: Number(item.m ?? 0), b: Number(item.b ?? 0), bp };
}
