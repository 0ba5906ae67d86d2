import { DynamoDBClient, ProvisionedThroughputExceededException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
// The SDK's own standard retry strategy (installed with @aws-sdk/client-dynamodb), with short waits.
import { ConfiguredRetryStrategy } from '@smithy/core/retry';
import { dynamoConfig, setDb } from '../../shared/data/db';

/**
 * Fault injection on the REAL DynamoDB client: a client whose middleware stack fails chosen calls, while
 * every call that is let through goes to DynamoDB Local. The fault middleware sits inside the SDK's retry
 * loop (finalizeRequest, after the retry middleware), so the SDK retries injected throttling, timeouts and
 * connection failures exactly as it would real ones. Only the route's data calls are counted and faulted:
 * the rate-limit counter (RATE#) and the authorizer's key lookups (APIKEY#) go through (their own failure
 * policy is tested with the limiter).
 */
export type FaultKind =
  /** ProvisionedThroughputExceededException before the request reaches DynamoDB (the SDK retries it). */
  | 'throttle'
  /** TimeoutError before the request reaches DynamoDB (the SDK retries it). */
  | 'timeout'
  /** Connection refused, as when DynamoDB is unreachable (the SDK retries it). */
  | 'outage'
  /** The request reaches DynamoDB and is applied, then the response times out (the SDK sends it again). */
  | 'timeout-after-apply'
  /** TransactWriteItems cancelled with reason ThrottlingError (DynamoDB's answer for a throttled transaction; not retried by the SDK). */
  | 'transaction-throttled';

export interface FaultPlan {
  /** 1-based index of the data call to fail. */
  call: number;
  kind: FaultKind;
  /** Fail only the first attempt (the SDK's retry succeeds) or every attempt. */
  times: 'once' | 'always';
}

export interface FaultClient {
  doc: DynamoDBDocumentClient;
  /** Names of the data calls made so far (e.g. GetItemCommand, TransactWriteItemsCommand). */
  calls: string[];
  /** How each data call ended: 'ok' or the error's name (e.g. ConditionalCheckFailedException). */
  outcomes: string[];
  /** Faults thrown so far (each failed attempt counts). */
  injected: number;
  destroy(): void;
}

const isControlCall = (input: Record<string, any> | undefined) => {
  const pk = String(input?.Key?.PK ?? input?.Item?.PK ?? '');
  return pk.startsWith('RATE#') || pk.startsWith('APIKEY#');
};

function faultError(kind: FaultKind, items: number): Error {
  switch (kind) {
    case 'throttle':
      return new ProvisionedThroughputExceededException({
        message: 'The level of configured provisioned throughput for the table was exceeded (injected)',
        $metadata: { httpStatusCode: 400 },
      });
    case 'timeout':
    case 'timeout-after-apply':
      return Object.assign(new Error('Connection timed out after 3000 ms (injected)'), { name: 'TimeoutError' });
    case 'outage':
      return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000 (injected)'), { code: 'ECONNREFUSED', errno: -111, syscall: 'connect' });
    case 'transaction-throttled':
      return new TransactionCanceledException({
        message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [ThrottlingError] (injected)',
        $metadata: { httpStatusCode: 400 },
        CancellationReasons: Array.from({ length: items }, (_, i) =>
          i === 0 ? { Code: 'ThrottlingError', Message: 'Throughput exceeds the current capacity for one or more global secondary indexes' } : { Code: 'None' },
        ),
      });
  }
}

export function faultClient(plan?: FaultPlan): FaultClient {
  // Same retry decisions as the production client (which errors are retried, how many attempts: maxAttempts
  // from dynamoConfig()), only the backoff shortened from ~0.1-1 s to 10 ms so the matrix runs quickly.
  const config = dynamoConfig();
  const client = new DynamoDBClient({ ...config, retryStrategy: new ConfiguredRetryStrategy(Number(config.maxAttempts ?? 3), () => 10) });
  const state: FaultClient = { doc: undefined as unknown as DynamoDBDocumentClient, calls: [], outcomes: [], injected: 0, destroy: () => client.destroy() };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!isControlCall((args as { input?: Record<string, any> }).input)) {
        state.calls.push(context.commandName ?? 'unknown');
        (context as Record<string, unknown>).faultCall = state.calls.length;
        (context as Record<string, unknown>).faultItems = ((args as { input?: { TransactItems?: unknown[] } }).input?.TransactItems ?? []).length;
        const index = state.calls.length - 1;
        try {
          const res = await next(args);
          state.outcomes[index] = 'ok';
          return res;
        } catch (err) {
          state.outcomes[index] = (err as Error).name;
          throw err;
        }
      }
      return next(args);
    },
    { step: 'initialize', priority: 'high', name: 'faultCallCounter' },
  );
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const ctx = context as Record<string, unknown>;
      if (!plan || ctx.faultCall !== plan.call) return next(args);
      const attempt = ((ctx.faultAttempts as number | undefined) ?? 0) + 1;
      ctx.faultAttempts = attempt;
      if (plan.times === 'once' && attempt > 1) return next(args);
      if (plan.kind === 'transaction-throttled' && context.commandName !== 'TransactWriteItemsCommand') return next(args);
      if (plan.kind === 'timeout-after-apply') {
        await next(args);
        state.injected++;
        throw faultError(plan.kind, 0);
      }
      state.injected++;
      throw faultError(plan.kind, Number(ctx.faultItems ?? 0));
    },
    { step: 'finalizeRequest', priority: 'low', name: 'faultInjection' },
  );
  state.doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  return state;
}

/**
 * Runs `fn` with the API's document client replaced by a fault client (no fault without a plan: it only
 * counts), and returns what `fn` answered with the data calls, their outcomes and the faults injected.
 */
export async function withFaultClient<T>(plan: FaultPlan | undefined, fn: () => Promise<T>): Promise<{ res: T; calls: string[]; outcomes: string[]; injected: number }> {
  const fc = faultClient(plan);
  setDb(fc.doc);
  try {
    const res = await fn();
    return { res, calls: fc.calls, outcomes: fc.outcomes, injected: fc.injected };
  } finally {
    setDb(undefined);
    fc.destroy();
  }
}

/**
 * A crash: from the `from`-th data call on, every call fails before it reaches DynamoDB (the process died
 * there; nothing after it is written). Control calls (rate counter, API keys) go through, as in faultClient.
 * Returns what `fn` threw (or answered) and the names of the calls that reached DynamoDB.
 */
export async function withCrashAt<T>(from: number, fn: () => Promise<T>): Promise<{ res?: T; error?: unknown; calls: string[] }> {
  const client = new DynamoDBClient({ ...dynamoConfig(), maxAttempts: 1 });
  const calls: string[] = [];
  let count = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (isControlCall((args as { input?: Record<string, any> }).input)) return next(args);
      count++;
      if (count >= from) throw Object.assign(new Error(`crashed before data call ${count} (injected)`), { name: 'InjectedCrash' });
      calls.push(context.commandName ?? 'unknown');
      return next(args);
    },
    { step: 'initialize', priority: 'high', name: 'crashAt' },
  );
  setDb(DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }));
  try {
    return { res: await fn(), calls };
  } catch (error) {
    return { error, calls };
  } finally {
    setDb(undefined);
    client.destroy();
  }
}

/**
 * A crash right after a write: the first data call named `command` reaches DynamoDB and is applied, then
 * it and every later data call fail (the process died before it could answer; nothing after it is
 * written). No retries (maxAttempts 1): the applied call's own answer is lost with the process.
 * Control calls (rate counter, API keys) go through, as in faultClient.
 */
export async function withCrashAfter<T>(command: string, fn: () => Promise<T>): Promise<{ res: T; calls: string[]; applied: boolean }> {
  const client = new DynamoDBClient({ ...dynamoConfig(), maxAttempts: 1 });
  const calls: string[] = [];
  let applied = false;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (isControlCall((args as { input?: Record<string, any> }).input)) return next(args);
      if (applied) throw Object.assign(new Error('crashed after the write (injected)'), { name: 'InjectedCrash' });
      calls.push(context.commandName ?? 'unknown');
      const res = await next(args);
      if (context.commandName === command) {
        applied = true;
        throw Object.assign(new Error('crashed after the write (injected)'), { name: 'InjectedCrash' });
      }
      return res;
    },
    { step: 'initialize', priority: 'high', name: 'crashAfter' },
  );
  setDb(DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }));
  try {
    return { res: await fn(), calls, applied };
  } finally {
    setDb(undefined);
    client.destroy();
  }
}
