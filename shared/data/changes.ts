import { ConditionalCheckFailedException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CHANGE_ITEM_LIFETIME_MS, CHANGE_RETENTION_MS, eventOf, type Change, type EntityChangeEvent } from '../domain/changes';
import { ulid } from '../domain/ids';
import { db, tableName, type StoredItem } from './db';
import { changePositionKey, keys } from './keys';
import { escapedSize } from './paging';
import { TYPE_ATTRIBUTE as TYPE } from './table';
import { isContention, writeAll, type WriteOp } from './write';
import * as settings from '../platform/settings';
import { ITEM_TYPES } from './item-types';
import { consistentGet, keyedUnread } from './idempotency';

/**
 * The change feed's storage: one numbered sequence of positions per workspace, each position holding the
 * event of one committed write, or a void where the write that took the position did not commit.
 *
 * Writing (writeWithChange): take the next position from the workspace's counter (one UpdateItem), then
 * write the record's ops and the event at that position in ONE transaction; the event's Put requires the
 * position to be empty. So an event exists if and only if its change committed (a Lambda dying after the
 * commit cannot lose it; a cancelled write leaves none). A write that fails voids its position at once.
 * A keyed create reads the counter (with its key's record) and takes its position in the transaction
 * instead (`claimPositions`): its repeat is answered from that read alone.
 *
 * Reading (readChanges): follow the positions in order from a cursor. A position that is still empty while
 * a later one is filled is a gap: a write in flight, or one that died. The reader waits while the gap is
 * young (CHANGES_GAP_TIMEOUT_MS), then voids each empty position with a conditional Put: if the write
 * committed first, the void fails and the event is read; if the void lands first, the write's event Put
 * fails, its transaction is cancelled, and the writer retries at a new position. Either way the reader
 * never steps over a position that can still be filled: every committed change is read exactly once, in
 * position order. docs/data-model.md ("Change feed") states the argument and the costs.
 */

const EVENT_TYPE = ITEM_TYPES.change;
const VOID_TYPE = ITEM_TYPES.changeVoid;
const SEQUENCE_TYPE = ITEM_TYPES.changeSequence;

/** Milliseconds since the epoch. Tests replace it (setChangesClock) to move through retention. */
let clock: () => number = () => Date.now();
export const changesNow = (): number => clock();
/** Overrides the feed's clock (tests); call without an argument to restore Date.now. */
export function setChangesClock(now?: () => number): void {
  clock = now ?? (() => Date.now());
}

/** How long a gap followed by later events is waited for before the reader voids it (default 5 s). */
export const gapTimeoutMs = (): number => settings.changesGapTimeoutMs();
/**
 * A writer sends its transaction within this long of taking its position, or takes a new one: so a
 * position taken longer ago than DEAD_GAP_MS can no longer be filled, and a reader steps over such a gap
 * without writing voids (a workspace idle for longer than the retention has only such gaps behind it).
 */
export const WRITE_DEADLINE_MS = 60_000;
export const DEAD_GAP_MS = 15 * 60_000;
/** At most this many voids are written per read; more are left to the next read (a gap is normally one position). */
const MAX_VOIDS_PER_READ = 100;
const MAX_POSITION_RETRIES = 4;

/** The event's position was voided by a reader before the write reached it: write again at a new one. */
class PositionTaken extends Error {
  constructor() {
    super('change position taken');
    this.name = 'PositionTaken';
  }
}
/** Every position this write took was voided before it committed (extreme contention): nothing was written; retryable. */
export class FeedContention extends Error {
  constructor() {
    super('the change feed is too busy to take this write; retry');
    this.name = 'FeedContention';
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

/**
 * The positions after the counter as read, taken by an op of the write's own transaction (so a replay,
 * refused before any write, costs its one read): the read is a consistent BatchGetItem of the counter and
 * the key's record (`consistentGet`, which throws `KeyTaken` when the key is live). The op sets the counter
 * on the condition that it still holds what was read; if another writer moved it, the transaction is
 * cancelled (`PositionTaken`) and the write takes positions the usual way. No position is ever taken
 * without its event: a reader never meets a gap from this write.
 */
async function claimPositions(workspaceId: string, count: number): Promise<{ slots: Allocation[]; op: WriteOp }> {
  const at = clock();
  const counter = await consistentGet(keys.changeSequence(workspaceId));
  const n = counter?.n === undefined ? undefined : Number(counter.n);
  const prevAt = Number(counter?.at ?? 0);
  const first = (n ?? 0) + 1;
  const slots = Array.from({ length: count }, (_, i) => ({ position: first + i, at, prevAt: i === 0 ? prevAt : at }));
  const op: WriteOp = {
    item: {
      Update: {
        TableName: tableName(),
        Key: keys.changeSequence(workspaceId),
        UpdateExpression: 'SET #t = :type, #prev = :prev, #at = :at, #n = :last',
        ConditionExpression: n === undefined ? 'attribute_not_exists(#n)' : '#n = :n',
        ExpressionAttributeNames: { '#t': TYPE, '#prev': 'prevAt', '#at': 'at', '#n': 'n' },
        ExpressionAttributeValues: { ':type': SEQUENCE_TYPE, ':prev': prevAt, ':at': at, ':last': first + count - 1, ...(n === undefined ? {} : { ':n': n }) },
      },
    },
    onConditionFail: () => new PositionTaken(),
  };
  return { slots, op };
}

const ttlOf = (at: number) => Math.floor((at + CHANGE_ITEM_LIFETIME_MS) / 1000);

/** The change a record write makes (the event without its id, resource, time and position): shared/domain/changes.ts. */
export type { Change };

/**
 * Writes `ops` (a record's write and everything that travels with it) and the change's event atomically.
 * Returns the event. Errors of the ops pass through unchanged (their position is voided first).
 *
 * Several changes (a write that also changes another record, e.g. a started timer stopping the user's
 * running one) take one position each, in the order given, from one counter update, and their events
 * commit in the same transaction as the ops. Each changed record was read before the positions were taken
 * and its write is guarded by the version read, so the per-record order argument holds for every one.
 */
export async function writeWithChange(workspaceId: string, ops: readonly WriteOp[], change: Change): Promise<EntityChangeEvent>;
export async function writeWithChange(workspaceId: string, ops: readonly WriteOp[], changes: readonly Change[]): Promise<EntityChangeEvent[]>;
export async function writeWithChange(workspaceId: string, ops: readonly WriteOp[], changeOrChanges: Change | readonly Change[]): Promise<EntityChangeEvent | EntityChangeEvent[]> {
  const many = Array.isArray(changeOrChanges);
  const changes: readonly Change[] = many ? (changeOrChanges as readonly Change[]) : [changeOrChanges as Change];
  const ids = changes.map(() => `evt_${ulid()}`);
  for (let attempt = 0; ; attempt++) {
    // A keyed request that has read nothing yet (a create) takes its positions IN its transaction (`claim`):
    // one read of the counter with the key's record, and no position to give up when the key is live.
    const claim = attempt === 0 && keyedUnread() ? await claimPositions(workspaceId, changes.length) : undefined;
    const slots = claim?.slots ?? (await allocate(workspaceId, changes.length));
    const events = changes.map((change, i) => eventOf(change, ids[i]!, new Date(slots[i]!.at).toISOString()));
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
    // claimed positions were never taken (the counter moves only with the transaction): nothing to give up
    const voidAll = () => (claim ? Promise.resolve([]) : Promise.all(slots.map((slot) => giveUp(workspaceId, slot))));
    if (clock() - slots[0]!.at > WRITE_DEADLINE_MS) {
      await voidAll();
      if (attempt < MAX_POSITION_RETRIES) continue;
      throw new FeedContention();
    }
    try {
      // Last in the transaction, so a failed condition of the record's own ops is the one reported.
      // a claim that meets another writer is not retried as it is (its counter read is stale by then): the
      // next attempt takes a position with the UpdateItem
      await writeAll([...ops, ...eventOps, ...(claim ? [claim.op] : [])], claim ? 0 : undefined);
      return many ? events : events[0]!;
    } catch (err) {
      // Give every position of this write up (one voided by a reader: the others are still empty), then
      // retry at new ones, or fail: a write whose positions keep being voided is a retryable 503.
      await voidAll();
      if ((err instanceof PositionTaken || (claim && isContention(err))) && attempt < MAX_POSITION_RETRIES) continue;
      if (err instanceof PositionTaken) throw new FeedContention();
      throw err;
    }
  }
}

/**
 * Marks an empty position as holding no event (conditional: never over an event). True when it was
 * empty; false when an event (or another reader's void) is there. Any other failure throws: a reader must
 * not step over a position it could not void.
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
    // an event is there, or a transaction writing it is in flight: read again
    if (err instanceof ConditionalCheckFailedException || err instanceof TransactionConflictException) return false;
    throw err;
  }
}

/** A writer gives its position up after a failed write; if even that fails, readers void the gap later. */
const giveUp = (workspaceId: string, slot: Allocation) => voidPosition(workspaceId, slot.position, slot.at, slot.prevAt).catch(() => false);

/** A stored position: an event, or a void. */
interface Position {
  position: number;
  at: number;
  prevAt: number;
  event?: EntityChangeEvent;
}
function positionOf(item: StoredItem): Position {
  return {
    position: Number(item.position),
    at: Number(item.at),
    prevAt: Number(item.prevAt ?? 0),
    ...(item[TYPE] === EVENT_TYPE ? { event: item.event as EntityChangeEvent } : {}),
  };
}

export interface ChangeRead {
  /** The events read, in position order (those `accept` refused left out). */
  events: EntityChangeEvent[];
  /** The last position read past: the next read starts after it. */
  position: number;
  /** When that position was taken (ms; `afterAt` when the read passed none). */
  positionAt: number | undefined;
  /** More positions are stored after `position` (false at the end, or before a gap still waited for). */
  hasMore: boolean;
  /** Positions examined (events, accepted or not, and voids). */
  examined: number;
}

export interface ReadOptions {
  /** Start after this position (0: from the oldest kept). */
  after: number;
  /** When the position `after` was taken (ms), if known: a gap after a position older than the retention may hide expired events. */
  afterAt?: number;
  /** At most this many accepted events. */
  limit: number;
  /** Which events the caller gets (scopes, types); the others are passed over. */
  accept?: (event: EntityChangeEvent) => boolean;
  /**
   * At most this many bytes of accepted events, each counted escaped twice as in a Lambda proxy result
   * (shared/data/paging.ts, escapedSize): the read stops before the event that would pass it (always at
   * least one event), with `hasMore` and the position before that event.
   */
  maxBytes?: number;
  /** At most this many positions examined per read, so a read of a filtered feed has a bounded cost. */
  maxExamined?: number;
  /**
   * What a gap that may hold expired events means (the gap, or the position before it, older than the
   * retention). Read from the start of the feed, it is where kept events begin (step over it). After a
   * cursor, events in it may have expired unseen: `expired` is thrown.
   */
  expired?: () => Error;
}

/** Reads the feed after a position, in order, never past a position that may still be filled. */
export async function readChanges(workspaceId: string, opts: ReadOptions): Promise<ChangeRead> {
  const accept = opts.accept ?? (() => true);
  const budget = opts.maxExamined ?? 1000;
  const events: EntityChangeEvent[] = [];
  let position = opts.after;
  let positionAt = opts.afterAt;
  let examined = 0;
  let voids = 0;
  let bytes = 0;
  const done = (hasMore: boolean): ChangeRead => ({ events, position, positionAt, hasMore, examined });
  for (let query = 0; ; query++) {
    const res = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND SK > :after',
        ExpressionAttributeValues: { ':pk': keys.changeLogPartition(workspaceId), ':after': changePositionKey(position) },
        ConsistentRead: true,
        // First as many as wanted + 1 (to know whether more follow); when `accept` passed some over, larger
        // reads, so a selective filter costs few round trips. The position stays exact either way.
        Limit: Math.min(100, budget - examined + 1, query === 0 ? opts.limit + 1 : 100),
      }),
    );
    const items = (res.Items ?? []).map(positionOf);
    let reread = false;
    for (const p of items) {
      if (examined >= budget || events.length >= opts.limit) return done(true);
      if (p.position > position + 1) {
        const gapAge = clock() - p.prevAt;
        const mayHoldExpired = gapAge > CHANGE_RETENTION_MS || (positionAt !== undefined && clock() - positionAt > CHANGE_RETENTION_MS);
        if (mayHoldExpired && opts.expired) throw opts.expired();
        if (gapAge < gapTimeoutMs()) return done(false);
        if (gapAge < DEAD_GAP_MS) {
          if (voids >= MAX_VOIDS_PER_READ) return done(true);
          const last = Math.min(p.position - 1, position + MAX_VOIDS_PER_READ - voids);
          const voided = await Promise.all(range(position + 1, last).map((q) => voidPosition(workspaceId, q, p.prevAt, p.prevAt)));
          voids += voided.length;
          // an event landed in the gap first (the void failed: read again), or the gap goes on past this batch
          if (voided.includes(false) || last < p.position - 1) {
            if (!voided.includes(false)) position = last;
            reread = true;
            break;
          }
        }
        // voided now, or taken longer ago than any write can take: nothing can fill it any more
      }
      const take = p.event !== undefined && accept(p.event);
      if (take && opts.maxBytes !== undefined) {
        bytes += escapedSize(p.event);
        if (bytes > opts.maxBytes && events.length > 0) return done(true);
      }
      position = p.position;
      positionAt = p.at;
      examined++;
      if (take) events.push({ ...p.event!, position: p.position });
    }
    if (reread) continue;
    if (!res.LastEvaluatedKey) return done(false);
    if (events.length >= opts.limit || examined >= budget) return done(true);
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
 * Queries). Times ascend with positions only roughly: each writer stamps its position on its own clock
 * just before taking it, so two writers a few milliseconds apart can stamp in the other order, and a write
 * still in flight has no item yet. So the start then moves back over every position taken in the
 * WRITE_DEADLINE_MS before `since` that is empty or stamped at or after `since`: a few earlier events are
 * returned rather than one missed.
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

/** At most this many positions are looked at below a `since` start (pages of 200). */
const MAX_LOOK_BACK = 2000;

/**
 * Moves a start position back below every position at or under it, taken within WRITE_DEADLINE_MS before
 * `since`, that is empty (its write may still commit after the caller took its cursor) or stamped at or
 * after `since` (its stamp is out of order with its position).
 */
async function stillOpenBelow(workspaceId: string, position: number, since: number): Promise<number> {
  let start = position;
  let expected = position; // the next position down that should be stored
  let upTo = position;
  for (let looked = 0; looked < MAX_LOOK_BACK;) {
    const res = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND SK <= :upTo',
        ExpressionAttributeValues: { ':pk': keys.changeLogPartition(workspaceId), ':upTo': changePositionKey(upTo) },
        ScanIndexForward: false,
        ConsistentRead: true,
        Limit: 200,
      }),
    );
    const items = (res.Items ?? []).map(positionOf);
    for (const p of items) {
      looked++;
      const emptyAbove = p.position < expected; // positions p+1..expected are empty
      if (p.at < since - WRITE_DEADLINE_MS) return emptyAbove ? Math.min(start, p.position) : start;
      if (p.at >= since) start = Math.min(start, p.position - 1);
      else if (emptyAbove) start = Math.min(start, p.position);
      expected = p.position - 1;
    }
    if (!res.LastEvaluatedKey || items.length === 0) return start;
    upTo = items[items.length - 1]!.position - 1;
  }
  return start;
}
