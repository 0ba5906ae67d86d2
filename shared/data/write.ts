import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
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
 * Writes all ops atomically in one TransactWriteItems (2 write units per item and KB): a record's write
 * always travels with its change event (shared/data/changes.ts). A failed condition raises that op's
 * error; a transaction conflict with another writer is retried with jittered backoff. The SDK sends a
 * retried transaction with the same ClientRequestToken, so an attempt that was applied but whose answer
 * was lost is not applied twice.
 */
export async function writeAll(ops: WriteOp[]): Promise<void> {
  if (ops.length === 0) return;
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
