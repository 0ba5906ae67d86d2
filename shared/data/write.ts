import { TransactionCanceledException, type CancellationReason } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from './db';
import * as settings from '../platform/settings';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * One write of a unit of work, with the error to raise when its condition fails (given DynamoDB's reason,
 * which holds the item as it was when the op asked for it with ReturnValuesOnConditionCheckFailure).
 */
export interface WriteOp {
  item: TransactItem;
  onConditionFail: (reason?: CancellationReason) => Error;
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
 * How long a write keeps retrying while other requests change the same record (or a record it
 * references): `WRITE_CONTENTION_BUDGET_MS`, by default 4000 ms, well inside the functions' 10 s timeout.
 */
export const contentionBudgetMs = (): number => {
  const raw = settings.writeContentionBudget();
  const v = Number(raw);
  return Number.isFinite(v) && v >= 0 && raw !== '' ? v : 4000;
};
/**
 * Full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter"): a wait uniform in
 * [0, min(cap, base * 2^attempt)), where base is at least the duration of the attempt that failed, so the
 * writers spread over a window that grows with how long one write takes (milliseconds in AWS, far more on a
 * loaded machine running DynamoDB Local).
 */
const JITTER_BASE_MS = 10;
const JITTER_CAP_MS = 1000;
export const fullJitter = (attempt: number, attemptMs = 0): number => Math.random() * Math.min(JITTER_CAP_MS, Math.max(JITTER_BASE_MS, attemptMs) * 2 ** Math.min(attempt, 16));

/** Whether a failed write met other writers (a version guard read stale, or a transaction conflict): retrying can succeed. */
export function isContention(err: unknown): boolean {
  if (err instanceof StaleRead) return true;
  if (!(err instanceof TransactionCanceledException)) return false;
  const codes = (err.CancellationReasons ?? []).map((r) => r.Code ?? 'None');
  return codes.includes('TransactionConflict') && codes.every((c) => c === 'None' || c === 'TransactionConflict');
}

/**
 * The retry budget of one write: `wait(attempt)` sleeps a full-jitter backoff and answers true, or answers
 * false (without sleeping) when that wait would end past the budget: the caller then answers 503.
 */
export function contentionBudget(budgetMs = contentionBudgetMs()): { wait: (attempt: number) => Promise<boolean> } {
  const deadline = Date.now() + budgetMs;
  let attemptStarted = Date.now();
  return {
    wait: async (attempt) => {
      const ms = fullJitter(attempt, Date.now() - attemptStarted);
      if (Date.now() + ms > deadline) return false;
      await sleep(ms);
      attemptStarted = Date.now();
      return true;
    },
  };
}

/**
 * Writes all ops atomically in one TransactWriteItems (2 write units per item and KB): a record's write
 * always travels with its change event (shared/data/changes.ts). A failed condition raises that op's
 * error; a transaction conflict with another writer is retried with jittered backoff. The SDK sends a
 * retried transaction with the same ClientRequestToken, so an attempt that was applied but whose answer
 * was lost is not applied twice.
 */
export async function writeAll(ops: WriteOp[], conflictRetries = MAX_CONFLICT_RETRIES): Promise<void> {
  if (ops.length === 0) return;
  for (let attempt = 0; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: ops.map((o) => o.item) }));
      return;
    } catch (err) {
      if (!(err instanceof TransactionCanceledException)) throw err;
      const reasons = err.CancellationReasons ?? [];
      const failed = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failed >= 0) throw ops[failed]!.onConditionFail(reasons[failed]);
      const conflict = reasons.some((r) => r.Code === 'TransactionConflict');
      if (conflict && attempt < conflictRetries) {
        await sleep(Math.random() * 20 * 2 ** attempt);
        continue;
      }
      throw err;
    }
  }
}
