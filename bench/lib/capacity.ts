/**
 * DynamoDB item sizes and capacity units, computed the way DynamoDB bills them
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html):
 * - size = sum over attributes of (name bytes + value bytes); strings are UTF-8 bytes, numbers about
 *   1 byte per 2 significant digits + 1, booleans and null 1 byte, lists and maps 3 bytes + 1 per element;
 * - reads: 1 unit per 4 KB, strongly consistent; half of that eventually consistent (Query sums the sizes
 *   of every item it reads, before any filter, then rounds up); a read of nothing still costs the minimum;
 * - writes: 1 unit per 1 KB of the larger of the old and new item; 2x inside a transaction;
 *   every global secondary index the item is in (before or after) adds its own writes.
 * Used where DynamoDB Local reports capacity wrongly (it ignores item sizes for batch and transaction
 * calls); unit-tested in test/bench/helpers.test.ts. Pure: no I/O.
 */

/** Size in bytes of one attribute value (native JS form, as the document client reads and writes it). */
export function valueSize(v: unknown): number {
  if (v === null || v === undefined || typeof v === 'boolean') return 1;
  if (typeof v === 'string') return Buffer.byteLength(v, 'utf8');
  if (typeof v === 'number' || typeof v === 'bigint') return numberSize(v);
  if (v instanceof Uint8Array) return v.byteLength;
  if (v instanceof Set) return [...v].reduce((s: number, x) => s + valueSize(x), 0);
  if (Array.isArray(v)) return 3 + v.reduce((s: number, x) => s + 1 + valueSize(x), 0);
  if (typeof v === 'object') return 3 + Object.entries(v as Record<string, unknown>).reduce((s, [k, x]) => s + 1 + Buffer.byteLength(k, 'utf8') + valueSize(x), 0);
  return 1;
}

/** DynamoDB's number size: 1 byte per 2 significant digits (leading and trailing zeros trimmed) + 1. */
export function numberSize(n: number | bigint): number {
  const digits = (typeof n === 'bigint' ? n.toString() : Math.abs(n).toExponential().split('e')[0]!).replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

/** Size in bytes of an item: attribute names + values. */
export function itemSize(item: Record<string, unknown> | undefined): number {
  if (!item) return 0;
  return Object.entries(item).reduce((s, [k, v]) => s + Buffer.byteLength(k, 'utf8') + valueSize(v), 0);
}

/** Read units for `bytes` read in one request (GetItem: one item; Query: all items read, summed). */
export function readUnits(bytes: number, consistent: boolean): number {
  const blocks = Math.max(1, Math.ceil(bytes / 4096));
  return consistent ? blocks : blocks / 2;
}

/** Write units for one item write of `bytes` (the larger of the old and new item). */
export function writeUnits(bytes: number, transactional = false): number {
  return Math.max(1, Math.ceil(bytes / 1024)) * (transactional ? 2 : 1);
}

/** The global secondary index keys of an item: index name -> "PK\u0000SK", for indexes it appears in. */
export function indexKeysOf(item: Record<string, unknown> | undefined, indexes: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (!item) return out;
  for (const ix of indexes) {
    const pk = item[`${ix}PK`];
    const sk = item[`${ix}SK`];
    if (pk !== undefined && sk !== undefined) out.set(ix, `${String(pk)}\u0000${String(sk)}`);
  }
  return out;
}

/**
 * Write units of one item write, table plus indexes (projection ALL), from the item before and after.
 * An index entry that stays at the same key is one write; one that moves is a delete plus a put; one
 * that appears or disappears is one write. `failed`: the condition failed, nothing was written (DynamoDB
 * still charges the table write, not the indexes).
 */
export function itemWriteUnits(
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
  indexes: readonly string[],
  opts: { transactional?: boolean; failed?: boolean } = {},
): { table: number; indexes: number } {
  const sb = itemSize(before);
  const sa = itemSize(after);
  const table = writeUnits(Math.max(sb, sa), opts.transactional);
  if (opts.failed) return { table, indexes: 0 };
  const kb = indexKeysOf(before, indexes);
  const ka = indexKeysOf(after, indexes);
  let ix = 0;
  for (const name of indexes) {
    const b = kb.get(name);
    const a = ka.get(name);
    if (b === undefined && a === undefined) continue;
    if (b !== undefined && a !== undefined && b === a) ix += writeUnits(Math.max(sb, sa));
    else ix += (b !== undefined ? writeUnits(sb) : 0) + (a !== undefined ? writeUnits(sa) : 0);
  }
  return { table, indexes: ix };
}
