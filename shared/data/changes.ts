import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CHANGE_ITEM_LIFETIME_MS, CHANGE_RETENTION_MS, type ChangeEvent } from '../domain/changes';
import { ulid } from '../domain/ids';
import { db, tableName, type StoredItem } from './db';
import { changePositionKey, keys } from './keys';
import { TYPE_ATTRIBUTE as TYPE } from './table';
import { writeAll, type WriteOp } from './write';

/**
 * The change feed's storage: one numbered sequence of positions per workspace, each position holding the
 * event of one committed write, or a void where the write that took the position did not commit.
 *
 * Writing (writeWithChange): take the next position from the workspace's counter (one UpdateItem), then
 * write the record's ops and the event at that position in ONE transaction; the event's Put requires the
 * position to be empty. So an event exists if and only if its change committed (a Lambda dying after the
 * commit cannot lose it; a cancelled write leaves none). A write that fails voids its position at once.
 *
 * Reading (readChanges): follow the positions in order from a cursor. A position that is still empty while
 * a later one is filled is a gap: a write in flight, or one that died. The reader waits while the gap is
 * young (CHANGES_GAP_TIMEOUT_MS), then voids each empty position with a conditional Put: if the write
 * committed first, the void fails and the event is read; if the void lands first, the write's event Put
 * fails, its transaction is cancelled, and the writer retries at a new position. Either way the reader
 * never steps over a position that can still be filled: every committed change is read exactly once, in
 * position order. docs/data-model.md ("Change feed") states the argument and the costs.
 */

const EVENT_TYPE = 'CHANGE';
const VOID_TYPE = 'CHANGEVOID';
const SEQUENCE_TYPE = 'CHANGESEQ';

/** Milliseconds since the epoch. Tests replace it (setChangesClock) to move through retention. */
let clock: () => number = () => Date.now();
export const changesNow = (): number => clock();
/** Overrides the feed's clock (tests); call without an argument to restore Date.now. */
export function setChangesClock(now?: () => number): void {
  clock = now ?? (() => Date.now());
}

/** How long a gap followed by later events is waited for before the reader voids it (default 5 s). */
export const gapTimeoutMs = (): number => Number(process.env.CHANGES_GAP_TIMEOUT_MS ?? 5000);
/**
 * A writer sends its transaction within this long of taking its position, or takes a new one: so a
 * position taken longer ago than DEAD_GAP_MS can no longer be filled, and a reader steps over such a gap
 * without writing voids (a workspace idle for longer than the retention has only such gaps behind it).
 */
export const WRITE_DEADLINE_MS = 60_000;
export const DEAD_GAP_MS = 15 * 60_000;
/** At most this many voids are written per read (a gap is normally one position: one dead write). */
const MAX_VOIDS_PER_READ = 100;
const MAX_POSITION_RETRIES = 4;

/** The event's position was voided by a reader before the write reached it: write again at a new one. */
class PositionTaken extends Error {
  constructor() {
    super('change position taken');
    this.name = 'PositionTaken';
  }
}

interface Allocation {
  position: number;
  /** When it was taken (this process's clock). */
  at: number;
  /** When the position before it was taken: a reader finding that one empty knows how old the gap is. */
  prevAt: number;
}

/**
 * Takes the workspace's next `count` feed positions: one UpdateItem on its counter (1 WCU), `ADD n :count`.
 * The positions are consecutive; the first records when the position before it was taken, the others
 * follow it at the same instant.
 */
async function allocate(workspaceId: string, count = 1): Promise<Allocation[]> {
  const at = clock();
  const res = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.changeSequence(workspaceId),
      // Every operand reads the item as it was before this update: prevAt gets the previous `at`.
      UpdateExpression: 'SET #t = :type, #prev = if_not_exists(#at, :zero), #at = :at ADD #n :count',
      ExpressionAttributeNames: { '#t': TYPE, '#prev': 'prevAt', '#at': 'at', '#n': 'n' },
      ExpressionAttributeValues: { ':type': SEQUENCE_TYPE, ':zero': 0, ':at': at, ':count': count },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const a = res.Attributes ?? {};
  const last = Number(a.n);
  return Array.from({ length: count }, (_, i) => ({ position: last - count + 1 + i, at, prevAt: i === 0 ? Number(a.prevAt ?? 0) : at }));
}

const ttlOf = (at: number) => Math.floor((at + CHANGE_ITEM_LIFETIME_MS) / 1000);

/** The change a record write makes (the event without its id, time and position). */
export interface Change {
  type: string;
  resourceId: string;
  data: Record<string, unknown>;
  previousSortKey?: string;
}

/**
 * Writes `ops` (a record's write and everything that travels with it) and the change's event atomically.
 * Returns the event. Errors of the ops pass through unchanged (their position is voided first).
 *
 * Several changes (a write that also changes another record, e.g. a started timer stopping the user's
 * running one) take one position each, in the order given, from one counter update, and their events
 * commit in the same transaction as the ops. Each changed record was read before the positions were taken
 * and its write is guarded by the version read, so the per-record order argument holds for every one.
 */
export async function writeWithChange(workspaceId: string, ops: readonly WriteOp[], change: Change): Promise<ChangeEvent>;
export async function writeWithChange(workspaceId: string, ops: readonly WriteOp[], changes: readonly Change[]): Promise<ChangeEvent[]>;
export async function writeWithChange(workspaceId: string, ops: readonly WriteOp[], changeOrChanges: Change | readonly Change[]): Promise<ChangeEvent | ChangeEvent[]> {
  const many = Array.isArray(changeOrChanges);
  const changes: readonly Change[] = many ? (changeOrChanges as readonly Change[]) : [changeOrChanges as Change];
  const ids = changes.map(() => `evt_${ulid()}`);
  for (let attempt = 0; ; attempt++) {
    const slots = await allocate(workspaceId, changes.length);
    const events: ChangeEvent[] = changes.map((change, i) => ({
      id: ids[i]!,
      type: change.type,
      resource: change.type.slice(0, change.type.indexOf('.')),
      resourceId: change.resourceId,
      occurredAt: new Date(slots[i]!.at).toISOString(),
      data: change.data,
      ...(change.previousSortKey !== undefined ? { previousSortKey: change.previousSortKey } : {}),
    }));
    const eventOps: WriteOp[] = events.map((event, i) => {
      const slot = slots[i]!;
      return {
        item: {
          Put: {
            TableName: tableName(),
            Item: { ...keys.change(workspaceId, slot.position), [TYPE]: EVENT_TYPE, position: slot.position, at: slot.at, prevAt: slot.prevAt, ttl: ttlOf(slot.at), event },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        onConditionFail: () => new PositionTaken(),
      };
    });
    const voidAll = () => Promise.all(slots.map((slot) => voidPosition(workspaceId, slot.position, slot.at, slot.prevAt)));
    if (clock() - slots[0]!.at > WRITE_DEADLINE_MS) {
      await voidAll();
      if (attempt < MAX_POSITION_RETRIES) continue;
      throw new PositionTaken();
    }
    try {
      // Last in the transaction, so a failed condition of the record's own ops is the one reported.
      await writeAll([...ops, ...eventOps]);
      return many ? events : events[0]!;
    } catch (err) {
      // A position voided by a reader: the others of this write are still empty; void them and retry.
      if (err instanceof PositionTaken) await voidAll();
      if (err instanceof PositionTaken && attempt < MAX_POSITION_RETRIES) continue;
      if (!(err instanceof PositionTaken)) await voidAll();
      throw err;
    }
  }
}

/**
 * Marks an empty position as holding no event (conditional: never over an event). True when it was
 * empty; false when an event is there. A failure to write is left to the readers, who void the gap later.
 */
async function voidPosition(workspaceId: string, position: number, at: number, prevAt: number): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.change(workspaceId, position), [TYPE]: VOID_TYPE, position, at, prevAt, ttl: ttlOf(at) },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    return true; // not written: a reader voids the position when it meets the gap
  }
}

/** A stored position: an event, or a void. */
interface Position {
  position: number;
  at: number;
  prevAt: number;
  event?: ChangeEvent;
}
function positionOf(item: StoredItem): Position {
  return {
    position: Number(item.position),
    at: Number(item.at),
    prevAt: Number(item.prevAt ?? 0),
    ...(item[TYPE] === EVENT_TYPE ? { event: item.event as ChangeEvent } : {}),
  };
}

export interface ChangeRead {
  /** The events read, in position order (those `accept` refused left out). */
  events: ChangeEvent[];
  /** The last position read past: the next read starts after it. */
  position: number;
  /** More positions are stored after `position` (false at the end, or before a gap still waited for). */
  hasMore: boolean;
  /** Positions examined (events, accepted or not, and voids). */
  examined: number;
}

export interface ReadOptions {
  /** Start after this position (0: from the oldest kept). */
  after: number;
  /** At most this many accepted events. */
  limit: number;
  /** Which events the caller gets (scopes, types); the others are passed over. */
  accept?: (event: ChangeEvent) => boolean;
  /** At most this many positions examined per read, so a read of a filtered feed has a bounded cost. */
  maxExamined?: number;
  /**
   * What a gap older than the retention means. Read from the start of the feed, it is where kept events
   * begin (skip it). After a cursor, the events in it may have expired unseen: `expired` is thrown.
   */
  expired?: () => Error;
}

/** Reads the feed after a position, in order, never past a position that may still be filled. */
export async function readChanges(workspaceId: string, opts: ReadOptions): Promise<ChangeRead> {
  const accept = opts.accept ?? (() => true);
  const budget = opts.maxExamined ?? 1000;
  const events: ChangeEvent[] = [];
  let position = opts.after;
  let examined = 0;
  for (;;) {
    const res = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND SK > :after',
        ExpressionAttributeValues: { ':pk': keys.changeLogPartition(workspaceId), ':after': changePositionKey(position) },
        ConsistentRead: true,
        // one more than still wanted, to know whether more follow (a filtered read may need several Queries)
        Limit: Math.min(100, budget - examined + 1, opts.limit - events.length + 1),
      }),
    );
    const items = (res.Items ?? []).map(positionOf);
    let reread = false;
    for (let i = 0; i < items.length; i++) {
      const p = items[i]!;
      if (p.position > position + 1) {
        const gapAge = clock() - p.prevAt;
        if (gapAge < gapTimeoutMs()) return { events, position, hasMore: false, examined };
        if (gapAge > CHANGE_RETENTION_MS && opts.expired) throw opts.expired();
        if (gapAge < DEAD_GAP_MS) {
          const last = Math.min(p.position - 1, position + MAX_VOIDS_PER_READ);
          const voided = await Promise.all(range(position + 1, last).map((q) => voidPosition(workspaceId, q, p.prevAt, p.prevAt)));
          // an event landed in the gap first (the void failed), or the gap is longer than one read voids
          if (voided.includes(false) || last < p.position - 1) {
            position = voided.includes(false) ? position : last;
            reread = true;
            break;
          }
        }
        // voided, or older than any write can be: nothing can fill it any more
      }
      if (examined >= budget || events.length >= opts.limit) return { events, position, hasMore: true, examined };
      position = p.position;
      examined++;
      if (p.event && accept(p.event)) events.push(p.event);
    }
    if (reread) continue;
    if (events.length >= opts.limit || examined >= budget || !res.LastEvaluatedKey) {
      return { events, position, hasMore: Boolean(res.LastEvaluatedKey) && (events.length >= opts.limit || examined >= budget), examined };
    }
  }
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** The first or last stored position of the feed. */
async function edge(workspaceId: string, which: 'first' | 'last', from = 0): Promise<Position | undefined> {
  const res = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: `PK = :pk AND SK ${which === 'first' ? '>=' : '>'} :from`,
      ExpressionAttributeValues: { ':pk': keys.changeLogPartition(workspaceId), ':from': changePositionKey(from) },
      ScanIndexForward: which === 'first',
      ConsistentRead: true,
      Limit: 1,
    }),
  );
  const item = res.Items?.[0];
  return item && positionOf(item);
}

/**
 * The position to read after so that reading starts at the first position taken at or after `since`
 * (ms): a bisection over the stored positions by the time each was taken (about log2(n) one-item
 * Queries). Positions are taken in order and stamped right after, so their times ascend. A position taken
 * before `since` whose write may still commit (an empty one among those taken in the minute before) moves
 * the start back before it: a few earlier events are returned rather than that one missed.
 */
export async function positionAt(workspaceId: string, since: number): Promise<number> {
  const found = await lastTakenBefore(workspaceId, since);
  return found === undefined ? 0 : stillOpenBelow(workspaceId, found, since);
}

/** The last stored position taken before `since`, 0 if none; undefined when the feed is empty. */
async function lastTakenBefore(workspaceId: string, since: number): Promise<number | undefined> {
  const first = await edge(workspaceId, 'first');
  if (!first) return undefined;
  if (first.at >= since) return first.position - 1;
  const last = (await edge(workspaceId, 'last'))!;
  if (last.at < since) return last.position;
  // invariant: the position at lo was taken before `since`, the one at hi at or after it
  let lo = first.position;
  let hi = last.position;
  while (hi - lo > 1) {
    const probe = await edge(workspaceId, 'first', Math.floor((lo + hi) / 2));
    if (!probe || probe.position >= hi) {
      hi = Math.floor((lo + hi) / 2);
      continue;
    }
    if (probe.at >= since) hi = probe.position;
    else lo = probe.position;
  }
  return lo;
}

/**
 * Moves a start position back below any empty position among those taken within WRITE_DEADLINE_MS before
 * `since` (at most 200 looked at): their writes may still commit, after the caller took its cursor.
 */
async function stillOpenBelow(workspaceId: string, position: number, since: number): Promise<number> {
  const res = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK <= :at',
      ExpressionAttributeValues: { ':pk': keys.changeLogPartition(workspaceId), ':at': changePositionKey(position) },
      ScanIndexForward: false,
      ConsistentRead: true,
      Limit: 200,
    }),
  );
  let start = position;
  let expected = position;
  for (const p of (res.Items ?? []).map(positionOf)) {
    if (p.position < expected) start = p.position; // positions p+1..expected are empty
    if (p.at < since - WRITE_DEADLINE_MS) break;
    expected = p.position - 1;
  }
  return start;
}
