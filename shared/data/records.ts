import type { AnyEntity, EntityRecord } from '../domain/entity';
import type { StoredItem } from './db';
import { entityKey, indexKeys } from './keys';
import { KEY_ATTRIBUTES, REVISION_ATTRIBUTE as REVISION, TYPE_ATTRIBUTE as TYPE } from './table';

/**
 * A record and its stored item, both ways (the one place that knows an entity item's layout): the record
 * as the API shows it (keys, index keys and `_` internals stripped, the exposed sort key and the ETag
 * added), the item a record is written as, and the record as stored (what an update merges into). Also
 * the revision behind the ETag and If-Match, and the order of whole lists.
 */

/** The record of any entity: id and timestamps typed, its other fields those of its declaration. */
export type AnyRecord = EntityRecord<AnyEntity>;

/**
 * The precondition of a write (If-Match): '*' = the record must exist; else the revisions it may be at.
 * The check is part of the conditional write itself, so of two writers holding the same ETag one wins.
 */
export type IfMatch = '*' | readonly number[];

/** The record's revision (0 for records stored before revisions existed). */
export const revisionOf = (item: StoredItem): number => Number(item[REVISION] ?? 0);
/** The record's strong ETag: its revision, quoted. */
export const etagOf = (item: StoredItem): string => `"${revisionOf(item)}"`;
/** Whether the stored item is at a revision the If-Match names. */
export const ifMatchHolds = (ifMatch: IfMatch, item: StoredItem) => ifMatch === '*' || ifMatch.includes(revisionOf(item));

/** Strips storage attributes (keys, indexes, `_` internals) and adds the exposed sort key and the ETag. */
export function presentItem<E extends AnyEntity>(entity: E, item: StoredItem): EntityRecord<E> {
  const out: AnyRecord = {};
  for (const [k, v] of Object.entries(item)) if (!k.startsWith('_') && !KEY_ATTRIBUTES.includes(k)) out[k] = v;
  if (entity.sortKeyField) out[entity.sortKeyField] = item.SK;
  out.etag = etagOf(item);
  return out as EntityRecord<E>;
}

/** The stored item of a record: its fields, the internals, its key, index keys and type tag. */
export function itemOf(entity: AnyEntity, workspaceId: string, rec: AnyRecord, internals: StoredItem): StoredItem {
  const stored = { ...rec };
  if (entity.sortKeyField) delete stored[entity.sortKeyField];
  delete stored.etag;
  return { ...stored, ...internals, ...entityKey(entity, workspaceId, rec), ...indexKeys(entity, workspaceId, rec), [TYPE]: entity.type };
}

/**
 * The record as stored: id, timestamps, declared fields and stored computed fields other than the
 * exposed sort key (no keys or internals). Derived values are computed again after the merge.
 */
export function storedRecord(entity: AnyEntity, item: StoredItem): AnyRecord {
  const rec: AnyRecord = { id: item.id, createdAt: item.createdAt, updatedAt: item.updatedAt };
  for (const name of Object.keys(entity.fields)) if (item[name] !== undefined) rec[name] = item[name];
  for (const name of Object.keys(entity.computed ?? {})) if (name !== entity.sortKeyField && item[name] !== undefined) rec[name] = item[name];
  return rec;
}

/** What the order of a whole list reads. */
interface Ordered {
  readonly id?: unknown;
  readonly name?: unknown;
}
/** Creation order: ids are ULIDs, which sort by creation time. */
export const byCreation = (a: Ordered, b: Ordered) => String(a.id).localeCompare(String(b.id));

/**
 * Created once (`localeCompare(b, 'en', options)` builds a collator on every call, ~11 µs each), and only
 * when a list is first sorted: the first collation of a process loads ICU's collation data (5-15 ms), which
 * a function whose requests never sort by name (a paged list, the change feed) would pay in its cold start.
 */
let nameCollator: Intl.Collator | undefined;

/** Name order (case-insensitive, then exact, then id): the order of whole lists. */
export function byName(a: Ordered, b: Ordered): number {
  const an = String(a.name ?? '');
  const bn = String(b.name ?? '');
  return (nameCollator ??= new Intl.Collator('en', { sensitivity: 'base' })).compare(an, bn) || an.localeCompare(bn) || String(a.id).localeCompare(String(b.id));
}
