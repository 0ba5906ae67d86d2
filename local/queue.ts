import { BatchWriteCommand, DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from '../shared/domain/ids';
import { db, tableName } from '../shared/data/db';
import { keys } from '../shared/data/keys';
import { useFallbackQueue } from '../shared/webhooks/queue';
import { TYPE_ATTRIBUTE as TYPE } from '../shared/data/table';

/**
 * The local run's queue: SQS's part, kept in the table (messages survive a restart). Outside Lambda,
 * `deliveryQueue()` (shared/webhooks/queue.ts) sends to it once this module is loaded (by the local gateway,
 * the local delivery loop and the tests that read it); no Lambda function bundles it. local/webhooks.ts
 * drains it.
 */

export interface QueuedMessage<T> {
  id: string;
  body: T;
}
const dueKey = (at: number, id: string) => `${String(Math.max(0, Math.floor(at))).padStart(15, '0')}#${id}`;

export async function localEnqueue(bodies: ReadonlyArray<{ body: unknown; delaySeconds: number }>): Promise<void> {
  for (let i = 0; i < bodies.length; i += 25) {
    const chunk = bodies.slice(i, i + 25);
    let items = chunk.map(({ body, delaySeconds }) => ({
      PutRequest: { Item: { PK: keys.localQueuePartition, SK: dueKey(Date.now() + delaySeconds * 1000, ulid()), [TYPE]: 'LOCALQUEUE', body: JSON.stringify(body) } },
    }));
    for (let round = 0; items.length > 0; round++) {
      const res = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: items } }));
      items = (res.UnprocessedItems?.[tableName()] ?? []) as typeof items;
      if (round > 10 && items.length) throw new Error('local queue: writes not processed');
    }
  }
}
/** Messages due now (at most `max`), oldest first. They stay queued until localAck. */
export async function localReceive<T>(max: number): Promise<Array<QueuedMessage<T>>> {
  const res = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK <= :now',
      ExpressionAttributeValues: { ':pk': keys.localQueuePartition, ':now': `${dueKey(Date.now(), '')}~` },
      ConsistentRead: true,
      Limit: max,
    }),
  );
  return (res.Items ?? []).map((it) => ({ id: String(it.SK), body: JSON.parse(String(it.body)) as T }));
}
export async function localAck(id: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: { PK: keys.localQueuePartition, SK: id } }));
}
/** Messages still queued (due or not): tests and the benchmark wait for 0. */
export async function localQueueDepth(): Promise<number> {
  const res = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.localQueuePartition },
      Select: 'COUNT',
      ConsistentRead: true,
    }),
  );
  return res.Count ?? 0;
}

useFallbackQueue({ send: (messages) => localEnqueue(messages) });
