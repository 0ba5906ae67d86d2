import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { TABLE } from '../../shared/data/table';
import { itemSize, itemWriteUnits, readUnits } from './capacity';

/**
 * Counts every DynamoDB call of a document client with a middleware on its stack, and the capacity
 * each one consumes:
 * - `reported`: what DynamoDB (Local) returns for ReturnConsumedCapacity (added to every call that
 *   takes it: measurement only, nothing else about the call changes);
 * - `computed`: from item sizes (./capacity.ts): the items a read returned (for a Query with a filter,
 *   the same Query without the filter, re-run on a separate, uncounted client, gives the items it read),
 *   and for every write the item before and after (read on the uncounted client around the call).
 *   DynamoDB Local reports 1 unit per transaction or batch regardless of items and sizes, so the computed
 *   figure is the one the benchmark uses; the reported one is kept for comparison.
 * Calls on a rate-limit counter (`RATE#...` keys) are tagged `rate`. Command names are DynamoDB's
 * operation names (GetItem, Query, TransactWriteItems, ...): the document client's commands run the
 * low-level client's, whose stack this middleware joins (before the document marshalling, so inputs
 * and outputs are plain JS values).
 */
export interface Call {
  command: string;
  rate: boolean;
  ok: boolean;
  ms: number;
  /** Read and write units computed from item sizes. */
  rcu: number;
  wcu: number;
  /** Capacity DynamoDB Local reported (all units, read or write). */
  reported: number;
  /** Items read (Query: before the filter). */
  itemsRead: number;
  /** The change feed's share: this call takes a feed position (or, a keyed create's BatchGetItem, reads the counter for its transaction to take it); WCU of feed items (position counter, event) written. */
  feedPosition: boolean;
  feedWcu: number;
  /** Of a write: the report rollup items it wrote (`WS#<ws>#RU#...`, shared/data/rollups.ts) and their write units. */
  rollupItems: number;
  rollupWcu: number;
  /** On an Idempotency-Key record (`WS#<ws>#IDEMPOTENCY`, shared/api/idempotency.ts). */
  idempotency: boolean;
}

/** Items of the change feed (shared/data/keys.ts: the position counter and the events). */
const isFeedKey = (k: Key | undefined) => typeof k?.PK === 'string' && (k.PK.endsWith('#CHANGES') || k.PK.endsWith('#CHANGESEQ'));

const INDEXES = TABLE.indexes.map((i) => i.name);
type Item = Record<string, unknown>;
type Key = { PK: unknown; SK: unknown };
type Args = { input: Record<string, unknown> };
type Next = (a: Args) => Promise<{ output: Record<string, unknown> }>;

/** A key attribute as a plain value: commands of the low-level client (Powertools idempotency) carry { S: '...' }. */
const plain = (v: unknown): unknown => (v && typeof v === 'object' && 'S' in v ? (v as { S: unknown }).S : v);
const keyOf = (k: Item | undefined): Key | undefined => (k && k.PK !== undefined ? ({ PK: plain(k.PK), SK: plain(k.SK) } as Key) : undefined);
const isRateKey = (k: Key | undefined) => typeof k?.PK === 'string' && k.PK.startsWith('RATE#');
const isIdempotencyKey = (k: Key | undefined) => typeof k?.PK === 'string' && k.PK.endsWith('#IDEMPOTENCY');

export class DynamoCounter {
  readonly calls: Call[] = [];
  private readonly raw: DynamoDBDocumentClient;
  enabled = true;

  constructor(clientConfig: DynamoDBClientConfig) {
    this.raw = DynamoDBDocumentClient.from(new DynamoDBClient(clientConfig), { marshallOptions: { removeUndefinedValues: true } });
  }

  /** Installs the counter on a document client (the API's shared one: `db()`). */
  install(doc: DynamoDBDocumentClient): this {
    (doc.middlewareStack as unknown as { add: (mw: unknown, o: object) => void }).add(
      (next: Next, context: { commandName?: string }) => (args: Args) => this.observe(next, args, (context.commandName ?? '?').replace(/Command$/, '')),
      { step: 'initialize', name: 'benchDynamoCounter' },
    );
    return this;
  }

  /** Takes the counter off the document client again (a second run in the same process installs it anew). */
  uninstall(doc: DynamoDBDocumentClient): void {
    (doc.middlewareStack as unknown as { remove: (name: string) => boolean }).remove('benchDynamoCounter');
  }

  reset(): Call[] {
    return this.calls.splice(0);
  }

  destroy(): void {
    this.raw.destroy();
  }

  private async getItem(table: string, key: Key): Promise<Item | undefined> {
    return (await this.raw.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;
  }

  /** The items one write call touches: [table, key, transactional] for each. */
  private writeTargets(command: string, input: Record<string, unknown>): Array<{ table: string; key: Key; tx: boolean }> {
    const out: Array<{ table: string; key: Key; tx: boolean }> = [];
    const push = (table: unknown, k: Item | undefined, tx: boolean) => {
      const key = keyOf(k);
      if (key && typeof table === 'string') out.push({ table, key, tx });
    };
    if (command === 'PutItem') push(input.TableName, input.Item as Item, false);
    else if (command === 'UpdateItem' || command === 'DeleteItem') push(input.TableName, input.Key as Item, false);
    else if (command === 'TransactWriteItems') {
      for (const t of (input.TransactItems as Array<Record<string, Record<string, unknown>>>) ?? []) {
        const op = t.Put ?? t.Update ?? t.Delete ?? t.ConditionCheck;
        if (!op) continue;
        push(op.TableName, (t.Put ? op.Item : op.Key) as Item, true);
      }
    } else if (command === 'BatchWriteItem') {
      for (const [table, reqs] of Object.entries((input.RequestItems as Record<string, Array<Record<string, Record<string, unknown>>>>) ?? {})) {
        for (const r of reqs) push(table, (r.PutRequest?.Item ?? r.DeleteRequest?.Key) as Item, false);
      }
    }
    return out;
  }

  private async observe(next: Next, args: Args, command: string): Promise<{ output: Record<string, unknown> }> {
    if (!this.enabled) return next(args);
    const input = args.input;
    const targets = this.writeTargets(command, input);
    const rate = isRateKey(keyOf(input.Key as Item)) || isRateKey(keyOf(input.Item as Item));
    const befores = await Promise.all(targets.map((t) => this.getItem(t.table, t.key)));
    if (!('ReturnConsumedCapacity' in input) && command !== 'BatchGetItem') input.ReturnConsumedCapacity = 'TOTAL';
    // a keyed create reads the feed counter (with the key's record) and takes its position in its transaction
    const batchKeys = command === 'BatchGetItem' ? Object.values((input.RequestItems as Record<string, { Keys?: Item[] }>) ?? {}).flatMap((r) => r.Keys ?? []) : [];
    const isCounter = (k: Item | undefined) => String(keyOf(k)?.PK).endsWith('#CHANGESEQ');
    const feedPosition = (command === 'UpdateItem' && isCounter(input.Key as Item)) || batchKeys.some(isCounter);
    const idempotency = isIdempotencyKey(keyOf(input.Key as Item)) || isIdempotencyKey(keyOf(input.Item as Item));
    const call: Call = { command, rate, ok: true, ms: 0, rcu: 0, wcu: 0, reported: 0, itemsRead: 0, feedPosition, feedWcu: 0, rollupItems: 0, rollupWcu: 0, idempotency };
    this.calls.push(call);
    const start = performance.now();
    let output: Record<string, unknown> | undefined;
    let failed: Set<number> | undefined;
    try {
      const res = await next(args);
      output = res.output;
      return res;
    } catch (err) {
      call.ok = false;
      const e = err as { name?: string; CancellationReasons?: Array<{ Code?: string }> };
      if (e.name === 'ConditionalCheckFailedException') failed = new Set([0]);
      else if (e.name === 'TransactionCanceledException') failed = new Set(targets.map((_, i) => i)); // nothing is written
      throw err;
    } finally {
      call.ms = performance.now() - start;
      const cc = output?.ConsumedCapacity as { CapacityUnits?: number } | Array<{ CapacityUnits?: number }> | undefined;
      call.reported = (Array.isArray(cc) ? cc : cc ? [cc] : []).reduce((s, c) => s + (c.CapacityUnits ?? 0), 0);
      if (command === 'GetItem') {
        call.itemsRead = output?.Item ? 1 : 0;
        call.rcu = readUnits(itemSize(output?.Item as Item | undefined), input.ConsistentRead === true);
      } else if (command === 'BatchGetItem') {
        // each key asked for is a read of its own, rounded up per item (a missing one still costs the minimum)
        for (const [table, ask] of Object.entries((input.RequestItems as Record<string, { Keys?: Item[]; ConsistentRead?: boolean }>) ?? {})) {
          const got = ((output?.Responses as Record<string, Item[]> | undefined)?.[table] ?? []).map((it) => ({ key: keyOf(it), size: itemSize(it) }));
          for (const k of ask.Keys ?? []) {
            const key = keyOf(k);
            const found = got.find((g) => g.key?.PK === key?.PK && g.key?.SK === key?.SK);
            if (found) call.itemsRead++;
            call.rcu += readUnits(found?.size ?? 0, ask.ConsistentRead === true);
          }
        }
      } else if (command === 'Query' || command === 'Scan') {
        let items = (output?.Items as Item[] | undefined) ?? [];
        if (input.FilterExpression && output) items = await this.unfiltered(input);
        call.itemsRead = items.length;
        call.rcu = readUnits(
          items.reduce((s, it) => s + itemSize(it), 0),
          input.ConsistentRead === true,
        );
      } else if (targets.length > 0) {
        const afters = await Promise.all(targets.map((t) => this.getItem(t.table, t.key)));
        targets.forEach((t, i) => {
          const u = itemWriteUnits(befores[i], afters[i], INDEXES, { transactional: t.tx, failed: failed?.has(i) ?? false });
          call.wcu += u.table + u.indexes;
          if (isFeedKey(t.key)) call.feedWcu += u.table + u.indexes;
          if (typeof t.key.PK === 'string' && t.key.PK.includes('#RU#')) {
            call.rollupItems++;
            call.rollupWcu += u.table + u.indexes;
          }
        });
      }
    }
  }

  /** The items a filtered Query read: the same Query (start key and Limit) without its filter. */
  private async unfiltered(input: Record<string, unknown>): Promise<Item[]> {
    const names = { ...(input.ExpressionAttributeNames as Record<string, string>) };
    const values = { ...(input.ExpressionAttributeValues as Record<string, unknown>) };
    const keyExpr = String(input.KeyConditionExpression);
    for (const n of Object.keys(names)) if (!keyExpr.includes(n)) delete names[n];
    for (const v of Object.keys(values)) if (!keyExpr.includes(v)) delete values[v];
    const res = await this.raw.send(
      new QueryCommand({
        TableName: input.TableName as string,
        ...(input.IndexName ? { IndexName: input.IndexName as string } : {}),
        KeyConditionExpression: keyExpr,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ...(input.ScanIndexForward !== undefined ? { ScanIndexForward: input.ScanIndexForward as boolean } : {}),
        ...(input.Limit !== undefined ? { Limit: input.Limit as number } : {}),
        ...(input.ExclusiveStartKey ? { ExclusiveStartKey: input.ExclusiveStartKey as Item } : {}),
      }),
    );
    return res.Items ?? [];
  }
}

/** Totals of a list of calls, split into the rate-limit counter and the route's own (data) calls. */
export function summarize(calls: readonly Call[]) {
  const data = calls.filter((c) => !c.rate);
  const rate = calls.filter((c) => c.rate);
  const sum = (cs: readonly Call[], f: (c: Call) => number) => cs.reduce((s, c) => s + f(c), 0);
  return {
    dataCalls: data.length,
    rateCalls: rate.length,
    commands: data.map((c) => c.command),
    scans: calls.filter((c) => c.command === 'Scan').length,
    rcu: sum(calls, (c) => c.rcu),
    wcu: sum(calls, (c) => c.wcu),
    dataRcu: sum(data, (c) => c.rcu),
    dataWcu: sum(data, (c) => c.wcu),
    reported: sum(calls, (c) => c.reported),
    itemsRead: sum(data, (c) => c.itemsRead),
    feedCalls: data.filter((c) => c.feedPosition).length,
    feedWcu: sum(data, (c) => c.feedWcu),
  };
}
