import { QueryCommand, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { TABLE, type IndexName } from './table';
import { decodeCursor, encodeCursor, type CursorKey } from './cursor';
import { db, tableName, type ExpressionValue, type StoredItem } from './db';
import * as settings from '../platform/settings';

/**
 * One page of a Query, with a signed cursor. Generic: any item collection of the table or of an index
 * (time entries, invoices, ...) pages through this function.
 *
 * How a page is filled (docs/data-model.md, "Time entries"):
 * - It asks DynamoDB for `limit + 1` items: the extra item only tells whether another page exists, so
 *   `hasMore` is exact, and it is never returned.
 * - The next cursor is the key of the LAST RETURNED item (not DynamoDB's LastEvaluatedKey), so the next
 *   page starts right after it: nothing is skipped or repeated, even when a Query call read further.
 * - Without a filter one Query call normally does it (a second one only when the 1 MB response cap cuts
 *   it short). With a filter, DynamoDB applies `Limit` before the filter, so the function keeps querying
 *   from where the previous call stopped, growing `Limit` (x2 per call, at most MAX_CALL_LIMIT) until it
 *   has `limit + 1` matches or reaches the end of the key range. The number of calls is bounded by
 *   `maxCalls`; when that budget runs out first, the page returns the matches found so far with
 *   `hasMore: true` and a cursor at the last item DynamoDB evaluated (still nothing skipped or repeated).
 *   Callers choose key conditions that make the filter cheap (the most selective index), so the budget is
 *   a safety bound, not the normal path.
 * - A cursor is verified (signature, workspace, same query) before anything is read.
 * - A page is bounded by bytes as well as by count (PAGE_MAX_BYTES): Lambda refuses a proxy result over
 *   6 MB (API Gateway then answers 502), and in the proxy result the body is a JSON string, so every `"`
 *   and `\` of the body is escaped once more (a body of quotes doubles). Items are added while the sum of
 *   their size escaped twice (`escapedSize`, of the stored item: an upper bound of the record as answered,
 *   as JSON or as a CSV row) stays within the bound; the page then ends early with `hasMore: true` and a
 *   cursor after its last item, so paging still reaches every item (always at least one per page).
 */
export interface Expression {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, ExpressionValue>;
}

export interface PageRequest {
  /** Workspace the cursor is bound to (also the caller's workspace: a cursor of another one is refused). */
  workspaceId: string;
  /** Index to query; absent: the table. */
  index?: IndexName;
  /** KeyConditionExpression with its names and values. */
  keyCondition: Expression;
  /** Optional FilterExpression on the rest (names and values must not clash with the key condition's). */
  filter?: Expression;
  /** Default false: descending sort key (newest first for time-ordered keys). */
  scanForward?: boolean;
  /** Page size (already validated by the caller: 1..200). */
  limit: number;
  /** The previous page's nextCursor. */
  cursor?: string;
  /** Extra values the cursor is bound to besides the query itself (rarely needed). */
  bind?: unknown;
  /** Upper bound of Query calls for one page (default 10). */
  maxCalls?: number;
  /** Ask DynamoDB for the consumed capacity (benchmarks, logs). */
  returnConsumedCapacity?: boolean;
}

export interface PageStats {
  /** Query calls made. */
  calls: number;
  /** Items DynamoDB read (before the filter). */
  scanned: number;
  /** Read capacity units reported by DynamoDB (when requested). */
  consumedCapacity?: number;
  /** The call budget ran out before the page was full. */
  budgetExhausted: boolean;
}

export interface Page {
  items: StoredItem[];
  nextCursor?: string;
  hasMore: boolean;
  stats: PageStats;
}

export const DEFAULT_MAX_CALLS = 10;

/**
 * Bytes a page's items may weigh in the proxy result (5 MiB): below Lambda's 6 MB response limit
 * (6,291,456 bytes) with 1 MiB left for the envelope (`{"items":[...],"nextCursor":...}`), the headers
 * and the statusCode. `MAX_PAGE_BYTES` overrides it (tests of the bound; never above this value).
 */
export const PAGE_MAX_BYTES = 5 * 1024 * 1024;
export const pageMaxBytes = (): number => {
  const v = Number(settings.maxPageBytes());
  return Number.isSafeInteger(v) && v > 0 ? Math.min(v, PAGE_MAX_BYTES) : PAGE_MAX_BYTES;
};
/** Per item: the comma, and what the answer adds to a stored item (its ETag). */
const ITEM_OVERHEAD_BYTES = 64;
/** What a value weighs in a Lambda proxy result once its JSON is the body: its JSON escaped a second time. */
export const escapedSize = (value: unknown): number => Buffer.byteLength(JSON.stringify(JSON.stringify(value)), 'utf8') - 2 + ITEM_OVERHEAD_BYTES;
/** How many of `items` (from the first) fit in `maxBytes` (at least one, so paging always moves on). */
export function fitting(items: readonly unknown[], maxBytes: number): number {
  let bytes = 0;
  for (let i = 0; i < items.length; i++) {
    bytes += escapedSize(items[i]);
    if (bytes > maxBytes && i > 0) return i;
  }
  return items.length;
}
export const MAX_CALL_LIMIT = 1000;

/** The attributes that locate an item in the table or index (the ExclusiveStartKey shape). */
export function positionAttributes(index?: IndexName): string[] {
  const attrs: string[] = [TABLE.partitionKey, TABLE.sortKey];
  if (index) {
    const def = TABLE.indexes.find((i) => i.name === index);
    if (!def) throw new Error(`Unknown index ${index}`);
    attrs.push(def.partitionKey, def.sortKey);
  }
  return attrs;
}

function mergeNames(a: Record<string, string> = {}, b: Record<string, string> = {}): Record<string, string> {
  for (const [k, v] of Object.entries(b)) if (k in a && a[k] !== v) throw new Error(`Expression attribute name ${k} is used twice with different meanings`);
  return { ...a, ...b };
}
function mergeValues(a: Record<string, ExpressionValue> = {}, b: Record<string, ExpressionValue> = {}): Record<string, ExpressionValue> {
  for (const k of Object.keys(b)) if (k in a) throw new Error(`Expression attribute value ${k} is used twice`);
  return { ...a, ...b };
}

export async function queryPage(req: PageRequest): Promise<Page> {
  const attrs = positionAttributes(req.index);
  const scanForward = req.scanForward ?? false;
  // What the cursor is bound to: everything that defines the result set, and nothing else (not the limit).
  const binding = {
    workspaceId: req.workspaceId,
    query: { i: req.index ?? null, k: req.keyCondition, f: req.filter ?? null, fwd: scanForward, x: req.bind ?? null },
  };
  let start: StoredItem | undefined = req.cursor ? await decodeCursor(req.cursor, binding, attrs) : undefined;

  const base: QueryCommandInput = {
    TableName: tableName(),
    ...(req.index ? { IndexName: req.index } : {}),
    KeyConditionExpression: req.keyCondition.expression,
    ...(req.filter ? { FilterExpression: req.filter.expression } : {}),
    ExpressionAttributeNames: mergeNames(req.keyCondition.names, req.filter?.names),
    ExpressionAttributeValues: mergeValues(req.keyCondition.values, req.filter?.values),
    ScanIndexForward: scanForward,
    ...(req.returnConsumedCapacity ? { ReturnConsumedCapacity: 'TOTAL' as const } : {}),
  };
  if (Object.keys(base.ExpressionAttributeNames!).length === 0) delete base.ExpressionAttributeNames;

  const need = req.limit + 1;
  const maxCalls = req.maxCalls ?? DEFAULT_MAX_CALLS;
  const matched: StoredItem[] = [];
  const stats: PageStats = { calls: 0, scanned: 0, budgetExhausted: false };
  let callLimit = 0;
  for (;;) {
    const missing = need - matched.length;
    callLimit = req.filter ? Math.min(MAX_CALL_LIMIT, Math.max(missing, callLimit * 2)) : missing;
    const res: QueryCommandOutput = await db().send(new QueryCommand({ ...base, Limit: callLimit, ...(start ? { ExclusiveStartKey: start } : {}) }));
    stats.calls++;
    stats.scanned += res.ScannedCount ?? 0;
    if (res.ConsumedCapacity?.CapacityUnits !== undefined) stats.consumedCapacity = (stats.consumedCapacity ?? 0) + res.ConsumedCapacity.CapacityUnits;
    matched.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
    if (matched.length >= need || !start) break;
    if (stats.calls >= maxCalls) {
      stats.budgetExhausted = true;
      break;
    }
  }

  const fit = fitting(matched.slice(0, req.limit), pageMaxBytes());
  if (fit < Math.min(req.limit, matched.length)) {
    // The byte bound ends the page first: continue right after its last item.
    const items = matched.slice(0, fit);
    return { items, hasMore: true, nextCursor: await encodeCursor(binding, keyOf(items[items.length - 1]!, attrs)), stats };
  }
  if (matched.length > req.limit) {
    const items = matched.slice(0, req.limit);
    return { items, hasMore: true, nextCursor: await encodeCursor(binding, keyOf(items[items.length - 1]!, attrs)), stats };
  }
  if (stats.budgetExhausted && start) {
    // Budget spent before the page was full: continue after the last item DynamoDB evaluated.
    return { items: matched, hasMore: true, nextCursor: await encodeCursor(binding, keyOf(start, attrs)), stats };
  }
  return { items: matched, hasMore: false, stats };
}

function keyOf(item: StoredItem, attrs: string[]): CursorKey {
  const key: CursorKey = {};
  for (const a of attrs) {
    const v = item[a];
    if (typeof v !== 'string') throw new Error(`Item has no string key attribute ${a}`);
    key[a] = v;
  }
  return key;
}
