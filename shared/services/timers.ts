import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { isRunning } from '../domain/entities/time-entries';
import { conflict } from '../domain/errors';
import { timeEntries } from '../domain/entities/time-entries';
import type { Change } from '../data/changes';
import { bindCompanion, type Companion } from '../data/companions';
import { db, tableName, type StoredItem } from '../data/db';
import { keys } from '../data/keys';
import { rollupOps } from '../data/rollups';
import { REVISION_ATTRIBUTE as REVISION, TYPE_ATTRIBUTE as TYPE, VERSION_ATTRIBUTE as VERSION } from '../data/table';
import { StaleRead, type WriteOp } from '../data/write';
import { ITEM_TYPES } from '../data/item-types';

/**
 * What travels with every time-entry write besides the record itself: the running-timer rule and the
 * report rollups. Bound to the time-entry repository on import (`bindCompanion`, shared/data/companions.ts,
 * the port the repository calls), so every entry point that writes time entries imports this module:
 * shared/api/crud.ts, shared/invoicing/service.ts, the seeders, the bench; the tests through
 * test/support/env.ts.
 *
 * One running timer per user: the item `RUNNING#<userId>` (keys.runningTimer) holds the sortKey of the
 * user's running entry. A write that leaves an entry running reads it first; if it names another
 * running entry, that entry is stopped at the new one's startTime in the same transaction (its own
 * `time-entry.updated` event with it), or the write is refused with 409 when that would end it before it
 * began. The timer item is written with the condition that it still names what was read (or is absent),
 * so of two concurrent starts for one user one commits and the other re-reads and, on its retry, stops
 * the first one: whatever the interleaving, one entry is left running. A write that stops, moves or
 * deletes the running entry updates or deletes the item in the same transaction.
 *
 * Every record written (the entry and a stopped one) also adds its rollup changes (shared/data/rollups.ts).
 */
const TIMER_TYPE = ITEM_TYPES.runningTimer;
const running = (item: StoredItem | undefined): item is StoredItem => item !== undefined && isRunning(item);

async function read(key: { PK: string; SK: string }): Promise<StoredItem | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return res.Item;
}

/** The condition that the timer item is as read: absent, or naming the same sortKey. */
function asRead(timer: StoredItem | undefined) {
  return timer
    ? { ConditionExpression: '#s = :s', ExpressionAttributeNames: { '#s': 'sortKey' }, ExpressionAttributeValues: { ':s': timer.sortKey } }
    : { ConditionExpression: 'attribute_not_exists(PK)' };
}

export const timeEntryCompanion: Companion = async (ctx) => {
  const { workspaceId, before, after } = ctx;
  const ops: WriteOp[] = [];
  const changes: Change[] = [];
  const written: Array<readonly [StoredItem | undefined, StoredItem | undefined]> = [[before, after]];
  const wasRunning = running(before);
  const runs = running(after);
  const sameUser = wasRunning && runs && before.userId === after.userId;

  // The timer of the user the entry ran for, when it stops running there (stopped, moved to another user, deleted).
  if (wasRunning && !sameUser) {
    const key = keys.runningTimer(workspaceId, String(before.userId));
    const timer = await read(key);
    // Only when it names this entry (entries stored before the rule existed may have no timer item).
    if (timer && timer.sortKey === before.SK) {
      ops.push({ item: { Delete: { TableName: tableName(), Key: key, ...asRead(timer) } }, onConditionFail: () => new StaleRead() });
    }
  }

  if (runs) {
    const key = keys.runningTimer(workspaceId, String(after.userId));
    const timer = await read(key);
    const otherSK = timer && timer.sortKey !== before?.SK && timer.sortKey !== after.SK ? String(timer.sortKey) : undefined;
    const other = otherSK ? await read({ PK: String(after.PK), SK: otherSK }) : undefined;
    if (running(other) && other.userId === after.userId && other.id !== after.id) {
      const stopAt = String(after.startTime);
      if (stopAt < String(other.startTime)) {
        // Refused with 409, but as the transaction's last check (a condition that fails while the other
        // entry exists), so that a refusal of the write itself (a missing reference: 400) comes first.
        const message = `User ${String(after.userId)} has a running time entry (${String(other.id)}) that started at ${String(other.startTime)}, after this entry's startTime: stopping it at ${stopAt} would end it before it began; stop it first`;
        const refusal: WriteOp = {
          item: { ConditionCheck: { TableName: tableName(), Key: { PK: other.PK, SK: other.SK }, ConditionExpression: 'attribute_not_exists(PK)' } },
          onConditionFail: () => conflict(message),
        };
        return { ops: [refusal], changes: [], refused: true };
      }
      const rec = ctx.derive({ ...ctx.stored(other), endTime: stopAt, updatedAt: String(after.updatedAt) });
      const version = Number(other[VERSION] ?? 0);
      const internals = Object.fromEntries(Object.entries(other).filter(([k]) => k.startsWith('_') && k !== TYPE));
      const stopped = ctx.toItem(rec, { ...internals, [VERSION]: version + 1, [REVISION]: Number(other[REVISION] ?? 0) + 1 });
      ops.push({
        item: {
          Put: { TableName: tableName(), Item: stopped, ConditionExpression: '#v = :v', ExpressionAttributeNames: { '#v': VERSION }, ExpressionAttributeValues: { ':v': version } },
        },
        onConditionFail: () => new StaleRead(),
      });
      changes.push({ type: 'time-entry.updated', resourceId: String(other.id), data: ctx.present(stopped) });
      written.push([other, stopped]);
    }
    if (!timer || timer.sortKey !== after.SK) {
      ops.push({
        item: { Put: { TableName: tableName(), Item: { ...key, [TYPE]: TIMER_TYPE, sortKey: after.SK, id: after.id }, ...asRead(timer) } },
        onConditionFail: () => new StaleRead(),
      });
    }
  }

  ops.push(...rollupOps(workspaceId, written));
  return { ops, changes };
};

bindCompanion(timeEntries, timeEntryCompanion);
