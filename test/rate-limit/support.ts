import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { InitializeHandler, InitializeHandlerArguments, InitializeHandlerOutput, HandlerExecutionContext, MetadataBearer } from '@smithy/types';
import { db, tableName } from '../../shared/data/db';
import { counterKey, setRateLimitClock } from '../../shared/data/rate-counter';

/** One DynamoDB call as the SDK client saw it (before marshalling). */
export interface DynamoCall {
  command: string;
  pk?: string;
}

let seq = 0;
type AnyInput = { Key?: { PK?: unknown } };
type Middleware = (next: InitializeHandler<object, MetadataBearer>, context: HandlerExecutionContext) => InitializeHandler<object, MetadataBearer>;

/** Adds an initialize-step middleware to the shared document client; returns its remover. */
export function addClientMiddleware(fn: (input: AnyInput, context: HandlerExecutionContext) => void): () => void {
  const name = `rate-limit-test-${++seq}`;
  const mw: Middleware =
    (next, context) =>
    async (args: InitializeHandlerArguments<object>): Promise<InitializeHandlerOutput<MetadataBearer>> => {
      fn(args.input as AnyInput, context);
      return next(args);
    };
  (db().middlewareStack as unknown as { add(m: Middleware, o: { step: 'initialize'; name: string }): void }).add(mw, { step: 'initialize', name });
  return () => {
    (db().middlewareStack as unknown as { remove(n: string): boolean }).remove(name);
  };
}

/** Records every DynamoDB call made through db() until stop(). */
export function recordDynamoCalls() {
  const calls: DynamoCall[] = [];
  const stop = addClientMiddleware((input, context) => {
    const pk = input.Key?.PK;
    calls.push({ command: context.commandName ?? '?', ...(typeof pk === 'string' ? { pk } : {}) });
  });
  return { calls, stop, reset: () => calls.splice(0, calls.length) };
}

/** A controllable clock for the limiter (and, when wanted, the local gateway's authorizer cache). */
export function fakeClock(start: number) {
  let t = start;
  setRateLimitClock(() => t);
  return {
    now: () => t,
    set: (ms: number) => void (t = ms),
    advance: (ms: number) => void (t += ms),
  };
}

export const at = (iso: string) => Date.parse(iso);

/** The raw counter item of a key for the hour starting at hourStart (ms). */
export async function counterItem(keyId: string, hourStart: number): Promise<Record<string, unknown> | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: counterKey(keyId, hourStart), ConsistentRead: true }));
  return res.Item;
}

/** Waits, when needed, so that the next `seconds` seconds do not cross a minute boundary (real-clock tests). */
export async function awayFromMinuteEnd(seconds = 5): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((r) => setTimeout(r, left + 50));
}

/** Parses `"minute";r=4;t=37, "hour";r=999;t=3577` into { minute: { r: 4, t: 37 }, hour: {...} }. */
export function parseRateLimit(v: string | undefined): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const item of (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, ...params] = item.split(';');
    out[JSON.parse(name!) as string] = Object.fromEntries(
      params.map((p) => {
        const [k, val] = p.split('=');
        return [k!, Number(val)];
      }),
    );
  }
  return out;
}
