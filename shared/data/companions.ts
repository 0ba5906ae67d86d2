import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { AnyEntity, EntityRecord } from '../domain/entity';
import { timeEntries } from '../domain/entities/time-entries';
import type { Change } from './changes';
import { db, tableName, type StoredItem } from './db';
import { REVISION_ATTRIBUTE as REVISION, TYPE_ATTRIBUTE as TYPE, VERSION_ATTRIBUTE as VERSION } from './table';
import type { AnyRecord } from './records';
import { StaleRead, type WriteOp } from './write';

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
/** Another record of the entity that a companion read (a user's other running entry) and the writes it may make of it. */
export interface OtherRecord<E extends AnyEntity> {
  record: EntityRecord<E>;
  /**
   * The record with new field values (derived values computed again, version and revision + 1): the Put,
   * guarded by the version read (else the write is retried: StaleRead), and the record as it will be shown.
   */
  rewrite(set: Partial<EntityRecord<E>>): { op: WriteOp; record: EntityRecord<E> };
  /** A check that fails while the record exists, refusing the write with `error` (put it after the write's own conditions). */
  refusal(error: () => Error): WriteOp;
}
/** What a companion sees of a write: the records before and after it, as the API shows them (typed from the declaration). */
export interface CompanionContext<E extends AnyEntity = AnyEntity> {
  workspaceId: string;
  /** The record before the write (update, delete). */
  before?: EntityRecord<E>;
  /** The record the write leaves (create, update). */
  after?: EntityRecord<E>;
  /** The record of the entity at this sort key in the written record's partition (strongly consistent), or undefined. */
  readSibling(sortKey: string): Promise<OtherRecord<E> | undefined>;
}
export type Companion<E extends AnyEntity = AnyEntity> = (ctx: CompanionContext<E>) => Promise<CompanionPlan>;

/** What the context needs of the entity's repository (shared/data/repository.ts). */
export interface RecordPort<E extends AnyEntity> {
  readonly entity: E;
  present(item: StoredItem): EntityRecord<E>;
  stored(item: StoredItem): StoredItem;
  derive(rec: AnyRecord): AnyRecord;
  toItem(workspaceId: string, rec: AnyRecord, internals: StoredItem): StoredItem;
}

/** The context of a write of `before` (stored item, or none) into `after` (stored item, or none). */
export function companionContext<E extends AnyEntity>(
  repo: RecordPort<E>,
  workspaceId: string,
  before: StoredItem | undefined,
  after: StoredItem | undefined,
): CompanionContext<E> {
  const partition = (after ?? before)?.PK;
  const other = (item: StoredItem): OtherRecord<E> => ({
    record: repo.present(item),
    rewrite(set) {
      const rec = repo.derive({ ...repo.stored(item), ...set });
      const version = Number(item[VERSION] ?? 0);
      const internals = Object.fromEntries(Object.entries(item).filter(([k]) => k.startsWith('_') && k !== TYPE));
      const written = repo.toItem(workspaceId, rec, { ...internals, [VERSION]: version + 1, [REVISION]: Number(item[REVISION] ?? 0) + 1 });
      const guard = { ConditionExpression: '#v = :v', ExpressionAttributeNames: { '#v': VERSION }, ExpressionAttributeValues: { ':v': version } };
      return { op: { item: { Put: { TableName: tableName(), Item: written, ...guard } }, onConditionFail: () => new StaleRead() }, record: repo.present(written) };
    },
    refusal: (error) => ({
      item: { ConditionCheck: { TableName: tableName(), Key: { PK: item.PK, SK: item.SK }, ConditionExpression: 'attribute_not_exists(PK)' } },
      onConditionFail: error,
    }),
  });
  return {
    workspaceId,
    ...(before ? { before: repo.present(before) } : {}),
    ...(after ? { after: repo.present(after) } : {}),
    async readSibling(sortKey) {
      if (partition === undefined) return undefined;
      const res = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: partition, SK: sortKey }, ConsistentRead: true }));
      return res.Item && res.Item[TYPE] === repo.entity.type ? other(res.Item) : undefined;
    },
  };
}

/** Entities whose writes must not run without their companion. */
const NEEDS_COMPANION: ReadonlySet<AnyEntity> = new Set<AnyEntity>([timeEntries]);
const COMPANIONS = new Map<AnyEntity, Companion>();

/** Binds the companion of an entity's writes (called once, by the module that holds the rule). */
export function bindCompanion<E extends AnyEntity>(entity: E, companion: Companion<E>): void {
  COMPANIONS.set(entity, companion as Companion);
}

/** The companion bound to the entity (the map holds each under its own entity: bindCompanion's pairing). */
export function companionOf<E extends AnyEntity>(entity: E): Companion<E> | undefined {
  const companion = COMPANIONS.get(entity) as Companion<E> | undefined;
  if (!companion && NEEDS_COMPANION.has(entity)) {
    throw new Error(`No companion bound for ${entity.resource}: import shared/services/timers.ts in the entry point`);
  }
  return companion;
}
