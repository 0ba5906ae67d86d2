import { TransactionCanceledException, ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from './db';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One write of a unit of work, with the error to raise when its condition fails. */
export interface WriteOp {
  item: TransactItem;
  onConditionFail: () => Error;
}

/** Thrown by an op whose condition guards a read-modify-write: the caller re-reads and tries again. */
export class StaleRead extends Error {
  constructor() {
    super('stale read');
    this.name = 'StaleRead';
  }
}

const MAX_CONFLICT_RETRIES = 4;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Writes all ops atomically: one op is a plain conditional write (1 write unit), several are one
 * TransactWriteItems (2 units each). A failed condition raises that op's error; a transaction
 * conflict with another writer is retried with jittered backoff.
 */
export async function writeAll(ops: WriteOp[]): Promise<void> {
  if (ops.length === 0) return;
  if (ops.length === 1) {
    const op = ops[0]!;
    try {
      await sendSingle(op.item);
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) throw op.onConditionFail();
      throw err;
    }
    return;
  }
  for (let attempt = 0; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: ops.map((o) => o.item) }));
      return;
    } catch (err) {
      if (!(err instanceof TransactionCanceledException)) throw err;
      const reasons = err.CancellationReasons ?? [];
      const failed = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failed >= 0) throw ops[failed]!.onConditionFail();
      const conflict = reasons.some((r) => r.Code === 'TransactionConflict');
      if (conflict && attempt < MAX_CONFLICT_RETRIES) {
        await sleep(Math.random() * 20 * 2 ** attempt);
        continue;
      }
      throw err;
    }
  }
}

function sendSingle(item: TransactItem) {
  if (item.Put) return db().send(new PutCommand(item.Put));
  if (item.Delete) return db().send(new DeleteCommand(item.Delete));
  if (item.Update) return db().send(new UpdateCommand({ ...item.Update, UpdateExpression: item.Update.UpdateExpression! }));
  throw new Error('A lone ConditionCheck writes nothing');
}
