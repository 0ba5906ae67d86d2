import type { AnyEntity } from '../domain/entity';
import { timeEntries } from '../domain/entities/time-entries';
import type { Change } from './changes';
import type { StoredItem } from './db';
import type { AnyRecord } from './records';
import type { WriteOp } from './write';

/**
 * Writes an entity's records carry besides their own ops, locks and usage counters, planned per write by
 * the repository (shared/data/repository.ts). This is the port; the rules are bound from above: time
 * entries' running-timer rule and report rollups by shared/services/timers.ts (`bindCompanion` on import),
 * so shared/data holds no timer logic. An entity listed in `NEEDS_COMPANION` refuses to be written while
 * nothing is bound (a composition root that forgot the import fails loudly instead of skipping the rule).
 */
export interface CompanionPlan {
  ops: WriteOp[];
  /** Events of other records this write changes, before the record's own. */
  changes: Change[];
  /** The write is refused: `ops` is one check that fails (after the record's own conditions). */
  refused?: boolean;
}
export interface CompanionContext {
  workspaceId: string;
  before?: StoredItem;
  after?: StoredItem;
  /** The repository's view of an item: what its event and answer carry. */
  present: (item: StoredItem) => AnyRecord;
  /** The stored item of a record with new field values (keys and index keys rebuilt). */
  toItem: (rec: AnyRecord, internals: StoredItem) => StoredItem;
  /** The record fields of a stored item. */
  stored: (item: StoredItem) => AnyRecord;
  /** The record with its server-computed values (the declaration's `derived`). */
  derive: (rec: AnyRecord) => AnyRecord;
}
export type Companion = (ctx: CompanionContext) => Promise<CompanionPlan>;

/** Entities whose writes must not run without their companion. */
const NEEDS_COMPANION: ReadonlySet<AnyEntity> = new Set<AnyEntity>([timeEntries]);
const COMPANIONS = new Map<AnyEntity, Companion>();

/** Binds the companion of an entity's writes (called once, by the module that holds the rule). */
export function bindCompanion(entity: AnyEntity, companion: Companion): void {
  COMPANIONS.set(entity, companion);
}

export function companionOf(entity: AnyEntity): Companion | undefined {
  const companion = COMPANIONS.get(entity);
  if (!companion && NEEDS_COMPANION.has(entity)) {
    throw new Error(`No companion bound for ${entity.resource}: import shared/services/timers.ts in the entry point`);
  }
  return companion;
}
