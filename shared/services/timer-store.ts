import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../data/db';
import { ITEM_TYPES } from '../data/item-types';
import { keys } from '../data/keys';
import { TYPE_ATTRIBUTE as TYPE } from '../data/table';
import { StaleRead, type WriteOp } from '../data/write';

/**
 * The running-timer item `WS#<ws>` / `RUNNING#<userId>` (the one place that knows its layout): it names the
 * user's running time entry by its sortKey. The rule that keeps it (one running entry per user) is
 * shared/services/timers.ts; this module reads it and builds its writes, each guarded by what was read.
 */
export interface RunningTimer {
  /** The sortKey of the user's running entry. */
  sortKey: string;
  /** Its id. */
  id: string;
}

/** The user's timer item (strongly consistent), or undefined. */
export async function readRunningTimer(workspaceId: string, userId: string): Promise<RunningTimer | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: keys.runningTimer(workspaceId, userId), ConsistentRead: true }));
  const item = res.Item;
  return item && { sortKey: String(item.sortKey), id: String(item.id) };
}

/** The condition that the timer item is as read: absent, or naming the same sortKey. */
function asRead(timer: RunningTimer | undefined) {
  return timer
    ? { ConditionExpression: '#s = :s', ExpressionAttributeNames: { '#s': 'sortKey' }, ExpressionAttributeValues: { ':s': timer.sortKey } }
    : { ConditionExpression: 'attribute_not_exists(PK)' };
}

/** Writes the user's timer item naming `entry`, unconditionally (the seed, which writes entries in bulk). */
export async function putRunningTimer(workspaceId: string, userId: string, entry: RunningTimer): Promise<void> {
  await db().send(
    new PutCommand({ TableName: tableName(), Item: { ...keys.runningTimer(workspaceId, userId), [TYPE]: ITEM_TYPES.runningTimer, sortKey: entry.sortKey, id: entry.id } }),
  );
}

/** Deletes the user's timer item, as read (else the write is retried: StaleRead). */
export function clearTimerOp(workspaceId: string, userId: string, read: RunningTimer): WriteOp {
  return { item: { Delete: { TableName: tableName(), Key: keys.runningTimer(workspaceId, userId), ...asRead(read) } }, onConditionFail: () => new StaleRead() };
}

/** Points the user's timer item at `entry`, on the condition that it is as read (absent or the same sortKey). */
export function setTimerOp(workspaceId: string, userId: string, entry: RunningTimer, read: RunningTimer | undefined): WriteOp {
  const Item = { ...keys.runningTimer(workspaceId, userId), [TYPE]: ITEM_TYPES.runningTimer, sortKey: entry.sortKey, id: entry.id };
  return { item: { Put: { TableName: tableName(), Item, ...asRead(read) } }, onConditionFail: () => new StaleRead() };
}
