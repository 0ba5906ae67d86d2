import { changeOf, changeResource, type ChangeResource } from '../domain/changes';
import { type AnyEntity, type EntityRecord, type Lookup } from '../domain/entity';
import { busy, conflict, invalid, invalidField, notFound, preconditionFailed, type DomainError } from '../domain/errors';
import { LIMITS, type CreateInput, type UpdateInput } from '../domain/fields';
import { ulid } from '../domain/ids';
import { usedBy } from '../domain/registry';
import { queryAll, tableName, type StoredItem } from './db';
import { entityKey, locateKey, type Key } from './keys';
import { queryPage, type PageStats } from './paging';
import { planQuery, queryInputOf, type Where } from './query-plan';
import { REVISION_ATTRIBUTE as REVISION, TYPE_ATTRIBUTE as TYPE, VERSION_ATTRIBUTE as VERSION } from './table';
import { writeWithChange, type Change } from './changes';
import { companionContext, companionOf, type CompanionPlan } from './companions';
import { byCreation, byName, etagOf, ifMatchHolds, itemOf, presentItem, revisionOf, storedRecord, type AnyRecord, type IfMatch } from './records';
import { boundOps, counterAttr, lockOps, referenceOps } from './record-writes';
import { contentionBudget, isContention, StaleRead, writeAll, type WriteOp } from './write';
import { commitKept, consistentGet, keptItems } from './idempotency';

/**
 * The one CRUD implementation every entity uses: it turns an entity declaration (shared/domain/entity.ts)
 * into conditional writes and transactions, each with its change event (shared/data/changes.ts):
 * - create: Put (attribute_not_exists) + uniqueness lock + `ADD usage counter` on every referenced
 *   item (condition attribute_exists, so a missing reference fails the whole write: 400 on the field);
 * - update: read, merge, derive, check the rules that read a sent field, then Put guarded by the item's
 *   version (`_v`); a changed key moves the item (Delete old + Put new in the same transaction); locks and
 *   counters follow;
 * - delete: refused with 409 while a usage counter is above zero; the version guard makes the check
 *   and the delete atomic against a concurrent reference (every counter change bumps `_v`).
 * Every write is one transaction with its change event, and every update and delete is guarded by the
 * version it read: so two writes of one record commit one after the other, and their events take feed
 * positions in that order (the position is taken after the read; docs/data-model.md, "Change feed").
 * - lists: the whole collection (sorted by name) or one page (newest first, signed cursor), through the
 *   access pattern shared/data/query-plan.ts picks.
 * Refusals are domain errors (shared/domain/errors.ts); the API layer maps them to statuses.
 * The data calls per route are measured in bench/dynamo-work.ts.
 */

export type { StoredItem };
export { byName, etagOf, type IfMatch };
/** A locator names one stored record as the API addresses it (id, plus sortKey or userId). */
export type Locator = { id: string } & Readonly<Record<string, string | undefined>>;
/** Field values of an update: a declared field's value, or null to clear it (the input of its update schema). */
export type FieldValues<E extends AnyEntity> = UpdateInput<E['fields']>;
/** Field values of a create: required fields required, the rest optional (the input of its create schema). */
export type CreateValues<E extends AnyEntity> = CreateInput<E['fields']>;

/** How many pages a refused delete reads to name a held record that uses it (Repository.heldUser). */
const HELD_USER_PAGES = 5;

export interface PageQuery {
  where?: Where;
  range?: { lo: string; hi: string };
  limit?: number;
  cursor?: string;
  returnConsumedCapacity?: boolean;
}
export interface RecordPage<R> {
  items: R[];
  nextCursor?: string;
  hasMore: boolean;
  stats: PageStats;
  access: string;
}

export interface WriteOptions<E extends AnyEntity = AnyEntity> {
  ifMatch?: IfMatch;
  /** Checked on the record as read, before anything is written (e.g. "must be running" for a stop). */
  assert?: (current: EntityRecord<E>) => void;
  /**
   * Server-set state that no request body can send: computed fields (a webhook's `disabledReason`) and
   * `_` internals (its encrypted secret), merged over the record and the internals it carries.
   */
  system?: { set?: Readonly<Partial<EntityRecord<E>>>; internals?: StoredItem };
  /**
   * Updates and deletes: the stored item the caller has just read (GetItem) for its own checks. The first
   * attempt writes against it, guarded by its version as always; a retry (a change in between) reads again.
   */
  read?: StoredItem;
  /**
   * Updates and deletes: writes and checks that join this write's transaction, none without the other (the
   * console's audit entry of an invoice change; a condition check that no release of the invoice still runs).
   */
  also?: readonly WriteOp[];
}
/** The stored item to write against: the caller's read on the first attempt (when it is this record), else a fresh one. */
const readFirst = (opts: Pick<WriteOptions, 'read'>, loc: Locator, attempt: number, read: () => Promise<StoredItem | undefined>) =>
  attempt === 0 && opts.read && opts.read.id === loc.id ? Promise.resolve(opts.read) : read();

/** A create found its own item already stored: an earlier attempt of the same write succeeded. */
class AlreadyWritten extends Error {
  constructor() {
    super('already written');
    this.name = 'AlreadyWritten';
  }
}

/**
 * A write that met other writers (a stale read, a transaction conflict) re-reads and tries again after a
 * full-jitter backoff, for as long as its budget lasts (shared/data/write.ts, WRITE_CONTENTION_BUDGET_MS);
 * past it the answer is 503 with Retry-After, never 409 (issue 22 item 2): contention is not a conflict.
 */
const contended = (what: string) => busy(`Other requests kept changing ${what} for the whole retry budget; retry after a short wait`);
/** DynamoDB's limit of actions in one TransactWriteItems. */
const MAX_TRANSACTION_ITEMS = 100;

/** Reads a record of another entity for a rule (strongly consistent). */
const lookupFor =
  (workspaceId: string): Lookup =>
  async (entity, id) => {
    const item = await repository(entity).getItem(workspaceId, { id });
    return item && (repository(entity).present(item) as never);
  };

export class Repository<E extends AnyEntity> {
  /** The entities whose references count on this one's records, with their 409 labels. */
  readonly usedBy: ReturnType<typeof usedBy>;
  /** The entity's name in change types (`time-entry`). */
  readonly changeResource: ChangeResource;

  constructor(readonly entity: E) {
    this.usedBy = usedBy(entity);
    this.changeResource = changeResource(entity);
  }

  key(workspaceId: string, rec: AnyRecord): Key {
    return entityKey<AnyEntity>(this.entity, workspaceId, rec);
  }

  /** Strips storage attributes (keys, indexes, `_` internals) and adds the exposed sort key and the ETag. */
  present(item: StoredItem): EntityRecord<E> {
    return presentItem(this.entity, item);
  }

  /** The stored item of a record (keys, index keys, type tag); public for bulk loaders such as the seed. */
  toItem(workspaceId: string, rec: AnyRecord, internals: StoredItem): StoredItem {
    return itemOf(this.entity, workspaceId, rec, internals);
  }

  /** Server-computed values of the declaration (normalized instants, durations). */
  derive(rec: AnyRecord): AnyRecord {
    return this.entity.derived ? this.entity.derived.apply(rec) : rec;
  }

  /**
   * The declaration's rules, with reads of other records in the workspace. On update, `before` is the
   * stored record and `patch` the fields the request sent; rules that read none of them are skipped.
   */
  async check(workspaceId: string, rec: AnyRecord, before?: AnyRecord, patch?: FieldValues<AnyEntity>): Promise<void> {
    const lookup = lookupFor(workspaceId);
    for (const rule of this.entity.rules ?? []) {
      if (patch && !rule.reads.some((f) => f in patch)) continue;
      await rule.check(rec, { lookup, ...(before ? { before } : {}), ...(patch ? { patch } : {}) });
    }
  }

  /** Reads the stored item of a locator (strongly consistent), or undefined. */
  async getItem(workspaceId: string, loc: Locator): Promise<StoredItem | undefined> {
    const key = locateKey(this.entity, workspaceId, loc);
    if (!key) return undefined;
    // in a request with an Idempotency-Key, its first read also reads the key's record (shared/data/idempotency.ts)
    const item = await consistentGet(key);
    if (!item || item[TYPE] !== this.entity.type || item.id !== loc.id) return undefined;
    return item;
  }

  async get(workspaceId: string, loc: Locator): Promise<EntityRecord<E>> {
    const item = await this.getItem(workspaceId, loc);
    if (!item) throw notFound(this.entity.kind);
    return this.present(item);
  }

  async create(workspaceId: string, input: CreateValues<E>, opts: Pick<WriteOptions, 'system'> = {}): Promise<EntityRecord<E>> {
    const now = new Date().toISOString();
    const values: CreateValues<AnyEntity> = input;
    let rec: AnyRecord = {};
    for (const [name, spec] of Object.entries(this.entity.fields)) {
      const v = values[name] ?? spec.default;
      if (v !== undefined && v !== null) rec[name] = v;
    }
    rec = this.derive({ ...rec, ...opts.system?.set, id: ulid(), createdAt: now, updatedAt: now });
    await this.check(workspaceId, rec);
    const item = this.toItem(workspaceId, rec, { ...opts.system?.internals, [VERSION]: 1, [REVISION]: 1 });
    const ops: WriteOp[] = [
      {
        item: { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
        // The key holds the id just generated: only this request can have written it. The condition fails
        // when the SDK re-sent a write whose answer was lost (timeout after DynamoDB applied it): done.
        onConditionFail: () => new AlreadyWritten(),
      },
      ...lockOps(this.entity, workspaceId, undefined, rec, item.SK),
      ...referenceOps(this.entity, workspaceId, undefined, rec),
    ];
    const created = this.present(item);
    ops.push(...boundOps(this.entity, workspaceId, undefined, created));
    const budget = contentionBudget();
    for (let attempt = 0; ; attempt++) {
      // Re-planned on every attempt: what travels with the record (a running timer to stop) may have changed.
      const plan = await this.companion(workspaceId, undefined, item);
      const all = [...ops, ...plan.ops];
      const writes = all.length + plan.changes.length + 1 + keptItems();
      if (writes > MAX_TRANSACTION_ITEMS) throw this.tooManyChanges(writes, {}, rec);
      try {
        await this.commit(workspaceId, all, [...plan.changes, changeOf(this.entity, 'created', String(rec.id), created)], created);
      } catch (err) {
        if (isContention(err)) {
          if (await budget.wait(attempt)) continue;
          throw contended(`what this ${this.entity.kind.toLowerCase()} refers to`);
        }
        if (!(err instanceof AlreadyWritten)) throw err;
      }
      return created;
    }
  }

  /**
   * A record another one holds (an invoiced time entry: `heldBy`) is refused every update and delete (409
   * naming the holder, read by id). Checked on the record as read; the write is guarded by the version
   * read, and the holder's lock bumps it, so a lock landing in between sends the write round to this check.
   */
  private async assertNotHeld(workspaceId: string, current: AnyRecord): Promise<void> {
    const held = this.entity.heldBy;
    const holderId = held ? current[held.field] : undefined;
    if (!held || typeof holderId !== 'string') return;
    const holder = await repository(held.target()).getItem(workspaceId, { id: holderId });
    throw conflict(held.message(current, holder && repository(held.target()).present(holder)));
  }

  /**
   * On a refused delete: one record that uses this one and is held (an invoiced time entry), in its
   * holder's words ("... is on invoice INV-000003 (sent) ..."), so the 409 names what keeps it. Only on
   * the refusal path, and only for users counted on it: a Query narrowed by the reference and the held filter,
   * at most a few pages.
   */
  private async heldUser(workspaceId: string, before: StoredItem): Promise<string | undefined> {
    const id = String(before.id);
    for (const user of this.usedBy.filter((u) => Number(before[counterAttr(u.type)] ?? 0) > 0)) {
      const held = user.entity.heldBy;
      const filters = user.entity.list.filters ?? {};
      const heldParam = held && Object.entries(filters).find(([, f]) => f.field === held.field)?.[0];
      if (!held || !heldParam) continue;
      const users = repository(user.entity);
      for (const field of user.fields) {
        const param = Object.entries(filters).find(([, f]) => f.field === field)?.[0] ?? field;
        let cursor: string | undefined;
        for (let pages = 0; pages < HELD_USER_PAGES; pages++) {
          const page = await users.page(workspaceId, { where: { [param]: id, [heldParam]: 'true' }, limit: 1, ...(cursor ? { cursor } : {}) });
          const rec = page.items[0];
          if (rec) {
            const holder = typeof rec[held.field] === 'string' ? await repository(held.target()).getItem(workspaceId, { id: String(rec[held.field]) }) : undefined;
            return held.message(rec, holder && repository(held.target()).present(holder));
          }
          if (!page.nextCursor) break;
          cursor = page.nextCursor;
        }
      }
    }
    return undefined;
  }

  /** The writes and events that travel with a write of this entity's records (shared/data/companions.ts). */
  private async companion(workspaceId: string, before: StoredItem | undefined, after: StoredItem | undefined): Promise<CompanionPlan> {
    const companion = companionOf(this.entity);
    if (!companion) return { ops: [], changes: [] as Change[] };
    return companion(companionContext(this, workspaceId, before, after));
  }

  /** Merge update: fields not sent keep their value, null clears an optional field. */
  async update(workspaceId: string, loc: Locator, input: FieldValues<E>, opts: WriteOptions<E> = {}): Promise<EntityRecord<E>> {
    const patch: FieldValues<AnyEntity> = input;
    const budget = contentionBudget();
    for (let attempt = 0; ; attempt++) {
      const before = await readFirst(opts, loc, attempt, () => this.getItem(workspaceId, loc));
      if (!before) throw notFound(this.entity.kind);
      // Checked on what was read; the write below is guarded by the version read, so a change in between
      // (which bumps it) sends this loop round again, to this check.
      if (opts.ifMatch && !ifMatchHolds(opts.ifMatch, before)) throw preconditionFailed(this.entity.kind);
      const record = this.present(before);
      const current: AnyRecord = record;
      await this.assertNotHeld(workspaceId, current);
      opts.assert?.(record);
      let rec = this.stored(before);
      for (const [name, spec] of Object.entries(this.entity.fields)) {
        if (!(name in patch)) continue;
        const v = patch[name];
        if (spec.immutable && v !== undefined && v !== current[name]) throw invalidField(name, 'cannot be changed');
        if (v === null || v === undefined) delete rec[name];
        else rec[name] = v;
      }
      Object.assign(rec, opts.system?.set);
      rec.updatedAt = new Date().toISOString();
      rec = this.derive(rec);
      await this.check(workspaceId, rec, current, patch);
      const internals = Object.fromEntries(Object.entries(before).filter(([k]) => k.startsWith('_') && k !== TYPE));
      const version = Number(before[VERSION] ?? 0);
      const item = this.toItem(workspaceId, rec, { ...internals, ...opts.system?.internals, [VERSION]: version + 1, [REVISION]: revisionOf(before) + 1 });
      const oldKey = this.key(workspaceId, current);
      const moved = oldKey.PK !== item.PK || oldKey.SK !== item.SK;
      const guard = { ConditionExpression: '#v = :v', ExpressionAttributeNames: { '#v': VERSION }, ExpressionAttributeValues: { ':v': version } };
      const ops: WriteOp[] = moved
        ? [
            { item: { Delete: { TableName: tableName(), Key: oldKey, ...guard } }, onConditionFail: () => new StaleRead() },
            {
              item: { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
              onConditionFail: () => conflict(`${this.entity.kind} already exists at that position`),
            },
          ]
        : [{ item: { Put: { TableName: tableName(), Item: item, ...guard } }, onConditionFail: () => new StaleRead() }];
      const updated = this.present(item);
      ops.push(
        ...lockOps(this.entity, workspaceId, current, rec, item.SK),
        ...referenceOps(this.entity, workspaceId, current, rec),
        ...boundOps(this.entity, workspaceId, current, updated),
        ...(opts.also ?? []),
      );
      const plan = await this.companion(workspaceId, before, item);
      ops.push(...plan.ops);
      // the record's ops, what travels with them, and one event per changed record
      const writes = ops.length + plan.changes.length + 1 + keptItems();
      if (writes > MAX_TRANSACTION_ITEMS) throw this.tooManyChanges(writes, current, rec);
      const previousSortKey = moved && this.entity.sortKeyField ? String(current[this.entity.sortKeyField]) : undefined;
      try {
        await this.commit(workspaceId, ops, [...plan.changes, changeOf(this.entity, 'updated', String(rec.id), updated, previousSortKey)], updated);
        return updated;
      } catch (err) {
        if (isContention(err)) {
          if (await budget.wait(attempt)) continue;
          throw contended(`this ${this.entity.kind.toLowerCase()}`);
        }
        throw err;
      }
    }
  }

  async delete(workspaceId: string, loc: Locator, opts: WriteOptions = {}): Promise<{ deleted: true; id: string }> {
    const budget = contentionBudget();
    for (let attempt = 0; ; attempt++) {
      const before = await readFirst(opts, loc, attempt, () => this.getItem(workspaceId, loc));
      if (!before) throw notFound(this.entity.kind);
      if (opts.ifMatch && !ifMatchHolds(opts.ifMatch, before)) throw preconditionFailed(this.entity.kind);
      const current = this.present(before);
      await this.assertNotHeld(workspaceId, current);
      this.entity.assertDeletable?.(current);
      const users = this.usedBy.filter((u) => Number(before[counterAttr(u.type)] ?? 0) > 0).map((u) => `${Number(before[counterAttr(u.type)])} ${u.label}`);
      if (users.length > 0) {
        const held = await this.heldUser(workspaceId, before);
        throw conflict(`${this.entity.kind} is still used by ${users.join(', ')}; archive it or remove those references first${held ? `. ${held}` : ''}`);
      }
      const version = Number(before[VERSION] ?? 0);
      const ops: WriteOp[] = [
        {
          item: {
            Delete: {
              TableName: tableName(),
              Key: this.key(workspaceId, current),
              ConditionExpression: '#v = :v',
              ExpressionAttributeNames: { '#v': VERSION },
              ExpressionAttributeValues: { ':v': version },
            },
          },
          onConditionFail: () => new StaleRead(),
        },
        ...lockOps(this.entity, workspaceId, current, undefined, String(before.SK)),
        ...referenceOps(this.entity, workspaceId, current, undefined),
        ...boundOps(this.entity, workspaceId, current, undefined),
        ...(await this.companion(workspaceId, before, undefined)).ops,
        ...(opts.also ?? []),
      ];
      try {
        const deleted = { deleted: true as const, id: String(before.id) };
        await this.commit(workspaceId, ops, changeOf(this.entity, 'deleted', String(before.id), current), deleted);
        return deleted;
      } catch (err) {
        if (isContention(err)) {
          if (await budget.wait(attempt)) continue;
          throw contended(`this ${this.entity.kind.toLowerCase()}`);
        }
        throw err;
      }
    }
  }

  /**
   * The whole (unpaginated) collection, following LastEvaluatedKey to the end, sorted by name. `where`
   * narrows it: by the key where the declaration's composites allow (one user's favorites), else by a
   * filter on the narrowed Query (a project's tasks).
   */
  async listAll(workspaceId: string, where: Where = {}): Promise<Array<EntityRecord<E>>> {
    const items = await queryAll(queryInputOf(planQuery(this.entity, workspaceId, where)));
    const out = items.filter((item) => item[TYPE] === this.entity.type).map((item) => this.present(item));
    return this.entity.list.order === 'created' ? out.sort(byCreation) : out.sort(byName);
  }

  /** One page, newest first (descending sort key), with a signed cursor bound to the workspace and query. */
  async page(workspaceId: string, q: PageQuery = {}): Promise<RecordPage<EntityRecord<E>>> {
    const where = await this.narrowed(workspaceId, q.where ?? {});
    if (!where) return { items: [], hasMore: false, stats: { calls: 0, scanned: 0, budgetExhausted: false }, access: 'none (no record can match)' };
    const plan = planQuery(this.entity, workspaceId, where, q.range);
    const page = await queryPage({
      workspaceId,
      ...(plan.index ? { index: plan.index } : {}),
      keyCondition: plan.keyCondition,
      ...(plan.filter ? { filter: plan.filter } : {}),
      scanForward: false,
      limit: q.limit ?? LIMITS.pageDefault,
      ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
      ...(q.returnConsumedCapacity ? { returnConsumedCapacity: true } : {}),
    });
    return {
      items: page.items.map((item) => this.present(item)),
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      hasMore: page.hasMore,
      stats: page.stats,
      access: plan.access,
    };
  }

  /**
   * The filters with those they imply (list.implies: a task's project), so the Query reads the narrower
   * partition; undefined when nothing can match (the named record does not exist, or it contradicts
   * another filter). One consistent GetItem per implying filter.
   */
  async narrowed(workspaceId: string, where: Where): Promise<Where | undefined> {
    const out: Record<string, string | undefined> = { ...where };
    for (const rule of this.entity.list.implies ?? []) {
      const id = where[rule.param];
      if (id === undefined) continue;
      const target = await repository(rule.target()).getItem(workspaceId, { id });
      const implied = target?.[rule.field];
      if (typeof implied !== 'string') return undefined;
      if (out[rule.field] !== undefined && out[rule.field] !== implied) return undefined;
      out[rule.field] = implied;
    }
    return out;
  }

  /**
   * An update whose counter moves do not fit one transaction (e.g. replacing 50 tags by 50 others:
   * 100 counter changes + the item) cannot be atomic: refuse it (400 naming the reference fields)
   * rather than fail with a 500 or split it and risk counters that no longer match the records.
   */
  private tooManyChanges(writes: number, before: AnyRecord, after: AnyRecord): DomainError {
    const changed = (this.entity.references ?? []).map((r) => r.field).filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]));
    const message = `this update changes too many references at once (${writes} writes; at most ${MAX_TRANSACTION_ITEMS} fit in one atomic write): make the change in two requests`;
    return invalid(
      `${changed.join(', ')}: ${message}`,
      changed.map((field) => ({ field, message })),
    );
  }

  /**
   * The one write path of every record: its ops with the change events in one transaction
   * (shared/data/changes.ts), or the ops alone for an entity declared `changes: false`. In a request with an
   * Idempotency-Key, the key's record joins the transaction, holding the answer `result` gives
   * (shared/data/idempotency.ts): the write and its answer commit together or not at all.
   */
  private async commit(workspaceId: string, ops: WriteOp[], changes: Change | Change[], result: unknown): Promise<void> {
    await commitKept(result, ops, async (all) => {
      if (this.entity.changes === false) await writeAll(all);
      else await writeWithChange(workspaceId, all, Array.isArray(changes) ? changes : [changes]);
    });
  }

  /** The record as stored, without keys or internals (shared/data/records.ts): what an update merges into. */
  stored(item: StoredItem): AnyRecord {
    return storedRecord(this.entity, item);
  }
}

const repositories = new Map<AnyEntity, Repository<AnyEntity>>();
/** The repository of an entity declaration (one per declaration and process). */
export function repository<E extends AnyEntity>(entity: E): Repository<E> {
  let r = repositories.get(entity);
  if (!r) repositories.set(entity, (r = new Repository<AnyEntity>(entity)));
  return r as Repository<E>;
}
