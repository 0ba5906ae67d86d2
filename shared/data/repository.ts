import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { ApiError, conflict, fieldError, notFound, validationError } from '../api/errors';
import { ulid } from '../domain/ids';
import type { FieldSpecs } from '../api/schemas';
import { KEY_ATTRIBUTES } from './table';
import { db, tableName } from './db';
import { keys, type Key } from './keys';
import { StaleRead, writeAll, type WriteOp } from './write';

/**
 * The one CRUD implementation every resource uses. An entity declares its key layout, uniqueness
 * rule, outgoing references and the counters others keep on it; this class turns that into
 * conditional writes and transactions:
 * - create: Put (attribute_not_exists) + uniqueness lock + `ADD usage counter` on every referenced
 *   item (condition attribute_exists, so a missing reference fails the whole write: 400 on the field);
 * - update of plain fields only (none that a key, index key, lock, reference, derived value or
 *   cross-field rule depends on: see `coupledFields`): one UpdateItem (SET/REMOVE the sent fields,
 *   bump `_v`), no read;
 * - any other update: read, merge, validate, then Put guarded by the item's version (`_v`); a changed
 *   key moves the item (Delete old + Put new in the same transaction); locks and counters follow;
 * - delete: refused with 409 while a usage counter is above zero; the version guard makes the check
 *   and the delete atomic against a concurrent reference (every counter change bumps `_v`). A record
 *   of an entity without locks is first deleted by one conditional Delete (no references of its own,
 *   counters zero); when that condition fails, the item it returns drives the transactional path.
 * The data calls per route, and why some need two, are measured in bench/dynamo-work.ts.
 */
export type Rec = Record<string, unknown> & { id: string; createdAt: string; updatedAt: string };

export interface Reference {
  /** Field of this entity holding the id (or ids, when many) of another entity. */
  field: string;
  target: () => Entity;
  many?: boolean;
}

export interface UniqueRule {
  /** Name of the lock family, e.g. CLIENTNAME. */
  name: string;
  /** The fields `value` reads. */
  fields: string[];
  /** The normalized unique value of a record, or undefined when the record takes no lock. */
  value: (rec: Record<string, unknown>) => string | undefined;
  message: (rec: Record<string, unknown>) => string;
}

/** A field unique per workspace, compared trimmed and case-insensitively (names, invoice numbers). */
export function uniqueIgnoringCase(name: string, field: string, describe: (value: string) => string): UniqueRule {
  return {
    name,
    fields: [field],
    value: (rec) => String(rec[field]).trim().toLowerCase(),
    message: (rec) => `${describe(String(rec[field]))} already exists in this workspace`,
  };
}

/** A locator names one stored record as the API addresses it (id, plus sortKey or userId). */
export type Locator = { id: string } & Record<string, string | undefined>;

export interface EntityConfig {
  /** Human name used in messages: "Client" → "Client not found". */
  kind: string;
  /** Item type tag and default sort-key prefix, e.g. CLIENT. */
  type: string;
  fields: FieldSpecs;
  unique?: UniqueRule;
  references?: Reference[];
  /** Storage key of a record (default: workspace partition, `${type}#${id}`). */
  key?: (workspaceId: string, rec: Record<string, unknown>) => Key;
  /** Key to read for a locator; undefined means "cannot exist" (404). Default: key({ id }). */
  locate?: (workspaceId: string, loc: Locator) => Key | undefined;
  /** Extra index attributes of a record (GSI keys). */
  indexKeys?: (workspaceId: string, rec: Record<string, unknown>) => Record<string, string>;
  /** Server-computed fields (e.g. durationMinutes), applied after every merge. */
  derive?: (rec: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Cross-field and cross-record rules; throw ApiError. On update, `before` is the stored record and
   * `patch` the fields the request sent (to tell a field sent unchanged from one not sent).
   */
  validate?: (workspaceId: string, rec: Record<string, unknown>, before?: Rec, patch?: Record<string, unknown>) => Promise<void>;
  /** Refuse a delete on the record's own state (e.g. a paid invoice). */
  assertDeletable?: (rec: Rec) => void;
  /** Extra response fields computed from the stored item (e.g. sortKey). */
  present?: (item: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Every entity type whose references keep a usage counter on this one (test/resources/entities.test.ts
   * checks the list against all references), with how the 409 for a referenced record names them.
   */
  usedBy?: Record<string, string>;
  /**
   * Fields that `key`, `indexKeys`, `derive` or `validate` read, besides the unique rule's fields, the
   * reference fields and immutable fields (always coupled). An update that sends only other fields is
   * applied in place by one UpdateItem, without reading the record; test/resources/entities.test.ts
   * checks that changing any other field changes no key, index key, lock value or derived value.
   */
  coupledFields?: string[];
}

/** A create found its own item already stored: an earlier attempt of the same write succeeded. */
class AlreadyWritten extends Error {
  constructor() {
    super('already written');
    this.name = 'AlreadyWritten';
  }
}

const VERSION = '_v';
const TYPE = '_type';
/** Attribute of a referenced item counting the records of `referencingType` that name it. */
export const counterAttr = (referencingType: string) => `_usedBy${referencingType}`;
const MAX_STALE_RETRIES = 6;
const NOT_READ = Symbol('not read yet');
const DELETED = Symbol('deleted');
/** DynamoDB's limit of actions in one TransactWriteItems. */
const MAX_TRANSACTION_ITEMS = 100;

export class Entity {
  /** Fields an update cannot apply without the stored record (see EntityConfig.coupledFields). */
  readonly coupled: ReadonlySet<string>;

  constructor(readonly cfg: EntityConfig) {
    this.coupled = new Set([
      ...(cfg.coupledFields ?? []),
      ...(cfg.unique?.fields ?? []),
      ...(cfg.references ?? []).map((r) => r.field),
      ...Object.entries(cfg.fields).filter(([, spec]) => spec.immutable).map(([name]) => name),
    ]);
  }

  key(workspaceId: string, rec: Record<string, unknown>): Key {
    return this.cfg.key ? this.cfg.key(workspaceId, rec) : keys.entity(workspaceId, this.cfg.type, String(rec.id));
  }

  private locate(workspaceId: string, loc: Locator): Key | undefined {
    return this.cfg.locate ? this.cfg.locate(workspaceId, loc) : this.key(workspaceId, loc);
  }

  /** Strips storage attributes (keys, indexes, `_` internals) and adds computed response fields. */
  present(item: Record<string, unknown>): Rec {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(item)) if (!k.startsWith('_') && !KEY_ATTRIBUTES.includes(k)) out[k] = v;
    return { ...out, ...(this.cfg.present?.(item) ?? {}) } as Rec;
  }

  /** The stored item of a record (keys, index keys, type tag); public for bulk loaders such as the seed. */
  toItem(workspaceId: string, rec: Record<string, unknown>, internals: Record<string, unknown>) {
    return { ...rec, ...internals, ...this.key(workspaceId, rec), ...(this.cfg.indexKeys?.(workspaceId, rec) ?? {}), [TYPE]: this.cfg.type };
  }

  /** Reads the stored item of a locator (strongly consistent), or undefined. */
  async getItem(workspaceId: string, loc: Locator): Promise<Record<string, unknown> | undefined> {
    const key = this.locate(workspaceId, loc);
    if (!key) return undefined;
    const res = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
    const item = res.Item;
    if (!item || item[TYPE] !== this.cfg.type || item.id !== loc.id) return undefined;
    return item;
  }

  async get(workspaceId: string, loc: Locator): Promise<Rec> {
    const item = await this.getItem(workspaceId, loc);
    if (!item) throw notFound(this.cfg.kind);
    return this.present(item);
  }

  async create(workspaceId: string, input: Record<string, unknown>): Promise<Rec> {
    const now = new Date().toISOString();
    let rec: Record<string, unknown> = {};
    for (const [name, spec] of Object.entries(this.cfg.fields)) {
      const v = input[name] ?? spec.default;
      if (v !== undefined && v !== null) rec[name] = v;
    }
    rec = { ...rec, id: ulid(), createdAt: now, updatedAt: now };
    rec = this.derive(rec);
    await this.cfg.validate?.(workspaceId, rec);
    const item = this.toItem(workspaceId, rec, { [VERSION]: 1 });
    const ops: WriteOp[] = [
      {
        item: { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
        // The key holds the id just generated: only this request can have written it. The condition fails
        // when the SDK re-sent a write whose answer was lost (timeout after DynamoDB applied it): done.
        onConditionFail: () => new AlreadyWritten(),
      },
      ...this.lockOps(workspaceId, undefined, rec, item.SK),
      ...this.referenceOps(workspaceId, undefined, rec),
    ];
    try {
      await writeAll(ops);
    } catch (err) {
      if (!(err instanceof AlreadyWritten)) throw err;
    }
    return this.present(item);
  }

  /** Merge update: fields not sent keep their value, null clears an optional field. */
  async update(workspaceId: string, loc: Locator, patch: Record<string, unknown>): Promise<Rec> {
    const sent = Object.keys(this.cfg.fields).filter((name) => name in patch);
    if (!sent.some((name) => this.coupled.has(name))) return this.updateInPlace(workspaceId, loc, patch, sent);
    for (let attempt = 0; ; attempt++) {
      const before = await this.getItem(workspaceId, loc);
      if (!before) throw notFound(this.cfg.kind);
      const current = this.present(before);
      let rec = this.stored(before);
      for (const [name, spec] of Object.entries(this.cfg.fields)) {
        if (!(name in patch)) continue;
        const v = patch[name];
        if (spec.immutable && v !== undefined && v !== current[name]) throw fieldError(name, 'cannot be changed');
        if (v === null || v === undefined) delete rec[name];
        else rec[name] = v;
      }
      rec.updatedAt = new Date().toISOString();
      rec = this.derive(rec);
      await this.cfg.validate?.(workspaceId, rec, current, patch);
      const internals = Object.fromEntries(Object.entries(before).filter(([k]) => k.startsWith('_') && k !== TYPE));
      const version = Number(before[VERSION] ?? 0);
      const item = this.toItem(workspaceId, rec, { ...internals, [VERSION]: version + 1 });
      const oldKey = this.key(workspaceId, current);
      const moved = oldKey.PK !== item.PK || oldKey.SK !== item.SK;
      const guard = { ConditionExpression: '#v = :v', ExpressionAttributeNames: { '#v': VERSION }, ExpressionAttributeValues: { ':v': version } };
      const ops: WriteOp[] = moved
        ? [
            { item: { Delete: { TableName: tableName(), Key: oldKey, ...guard } }, onConditionFail: () => new StaleRead() },
            { item: { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' } }, onConditionFail: () => conflict(`${this.cfg.kind} already exists at that position`) },
          ]
        : [{ item: { Put: { TableName: tableName(), Item: item, ...guard } }, onConditionFail: () => new StaleRead() }];
      ops.push(...this.lockOps(workspaceId, current, rec, item.SK), ...this.referenceOps(workspaceId, current, rec));
      if (ops.length > MAX_TRANSACTION_ITEMS) throw this.tooManyChanges(ops.length, current, rec);
      try {
        await writeAll(ops);
        return this.present(item);
      } catch (err) {
        if (err instanceof StaleRead && attempt < MAX_STALE_RETRIES) continue;
        if (err instanceof StaleRead) throw conflict(`The ${this.cfg.kind.toLowerCase()} is being changed by another request; retry`);
        throw err;
      }
    }
  }

  /**
   * Update sending only plain fields: one UpdateItem, no read. Nothing it changes is read by a key, an
   * index key, a lock, a counter, a derived value or a rule, so the stored record stays valid; the
   * version bump makes a concurrent read-merge-write (which may have read the old values) retry.
   */
  private async updateInPlace(workspaceId: string, loc: Locator, patch: Record<string, unknown>, sent: string[]): Promise<Rec> {
    const key = this.locate(workspaceId, loc);
    if (!key) throw notFound(this.cfg.kind);
    const names: Record<string, string> = { '#t': TYPE, '#id': 'id', '#v': VERSION, '#u': 'updatedAt' };
    const values: Record<string, unknown> = { ':type': this.cfg.type, ':id': loc.id, ':one': 1, ':u': new Date().toISOString() };
    const set = ['#u = :u'];
    const remove: string[] = [];
    sent.forEach((name, i) => {
      names[`#f${i}`] = name;
      const v = patch[name];
      if (v === null || v === undefined) remove.push(`#f${i}`);
      else {
        values[`:f${i}`] = v;
        set.push(`#f${i} = :f${i}`);
      }
    });
    try {
      const res = await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: `SET ${set.join(', ')} ADD #v :one${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
          ConditionExpression: 'attribute_exists(PK) AND #t = :type AND #id = :id',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return this.present(res.Attributes ?? {});
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) throw notFound(this.cfg.kind);
      throw err;
    }
  }

  async delete(workspaceId: string, loc: Locator): Promise<{ deleted: true; id: string }> {
    // The stored item when a failed one-call delete already returned it (else read below).
    let known: Record<string, unknown> | undefined | typeof NOT_READ = NOT_READ;
    if (this.deletesInOneCall()) {
      const key = this.locate(workspaceId, loc);
      if (!key) throw notFound(this.cfg.kind);
      const outcome = await this.deleteIfUnattached(key, loc);
      if (outcome === DELETED) return { deleted: true, id: loc.id };
      known = outcome;
    }
    for (let attempt = 0; ; attempt++) {
      const before = known !== NOT_READ ? known : await this.getItem(workspaceId, loc);
      known = NOT_READ;
      if (!before) throw notFound(this.cfg.kind);
      const current = this.present(before);
      this.cfg.assertDeletable?.(current);
      const users = Object.entries(before)
        .filter(([k, v]) => k.startsWith('_usedBy') && Number(v) > 0)
        .map(([k, v]) => `${Number(v)} ${this.cfg.usedBy?.[k.slice('_usedBy'.length)] ?? k.slice('_usedBy'.length).toLowerCase()}`);
      if (users.length > 0) {
        throw conflict(`${this.cfg.kind} is still used by ${users.join(', ')}; archive it or remove those references first`);
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
        ...this.lockOps(workspaceId, current, undefined, String(before.SK)),
        ...this.referenceOps(workspaceId, current, undefined),
      ];
      try {
        await writeAll(ops);
        return { deleted: true, id: current.id };
      } catch (err) {
        if (err instanceof StaleRead && attempt < MAX_STALE_RETRIES) continue;
        if (err instanceof StaleRead) throw conflict(`The ${this.cfg.kind.toLowerCase()} is being changed by another request; retry`);
        throw err;
      }
    }
  }

  /**
   * One conditional Delete can remove a record only when nothing else must change with it: its entity
   * has no uniqueness lock (whose key is the record's own value) and no state rule (assertDeletable).
   */
  private deletesInOneCall(): boolean {
    return !this.cfg.unique && !this.cfg.assertDeletable;
  }

  /**
   * Deletes the record if it names no other record (no usage counter to decrement) and no record names
   * it (every counter zero or absent): DELETED. Otherwise returns the stored item the failed condition
   * reports (ReturnValuesOnConditionCheckFailure), so the transactional path starts without a read, or
   * undefined when there is no such record.
   */
  private async deleteIfUnattached(key: Key, loc: Locator): Promise<Record<string, unknown> | undefined | typeof DELETED> {
    const names: Record<string, string> = { '#t': TYPE, '#id': 'id' };
    const conditions = ['attribute_exists(PK)', '#t = :type', '#id = :id'];
    (this.cfg.references ?? []).forEach((ref, i) => {
      names[`#r${i}`] = ref.field;
      conditions.push(`attribute_not_exists(#r${i})`);
    });
    const counters = Object.keys(this.cfg.usedBy ?? {});
    counters.forEach((type, i) => {
      names[`#c${i}`] = counterAttr(type);
      conditions.push(`(attribute_not_exists(#c${i}) OR #c${i} = :zero)`);
    });
    try {
      await db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: key,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ':type': this.cfg.type, ':id': loc.id, ...(counters.length ? { ':zero': 0 } : {}) },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return DELETED;
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
      if (!err.Item) {
        // Nothing there. When the SDK had to send the Delete again (an attempt whose answer was lost, e.g.
        // a timeout after DynamoDB applied it), the record was most likely removed by this very request:
        // report the delete done, as the caller asked for exactly this end state (docs/decisions.md).
        return (err.$metadata?.attempts ?? 1) > 1 ? DELETED : undefined;
      }
      const item = unmarshall(err.Item);
      return item[TYPE] === this.cfg.type && item.id === loc.id ? item : undefined;
    }
  }

  /**
   * Whole (unpaginated) list of one item collection, following LastEvaluatedKey to the end, sorted by
   * name. `skPrefix` narrows the collection (default: all of this type in the workspace partition).
   */
  async listAll(workspaceId: string, opts: { skPrefix?: string; filter?: Record<string, string> } = {}): Promise<Rec[]> {
    const names: Record<string, string> = { '#pk': 'PK', '#sk': 'SK' };
    const values: Record<string, unknown> = { ':pk': keys.workspacePartition(workspaceId), ':sk': opts.skPrefix ?? keys.entityPrefix(this.cfg.type) };
    const filters: string[] = [];
    for (const [i, [field, value]] of Object.entries(opts.filter ?? {}).entries()) {
      names[`#f${i}`] = field;
      values[`:f${i}`] = value;
      filters.push(`#f${i} = :f${i}`);
    }
    const input: QueryCommandInput = {
      TableName: tableName(),
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
    };
    const out: Rec[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const res = await db().send(new QueryCommand({ ...input, ...(start ? { ExclusiveStartKey: start } : {}) }));
      for (const item of res.Items ?? []) if (item[TYPE] === this.cfg.type) out.push(this.present(item));
      start = res.LastEvaluatedKey;
    } while (start);
    return out.sort(byName);
  }

  /**
   * An update whose counter moves do not fit one transaction (e.g. replacing 50 tags by 50 others:
   * 100 counter changes + the item) cannot be atomic: refuse it (400 naming the reference fields)
   * rather than fail with a 500 or split it and risk counters that no longer match the records.
   */
  private tooManyChanges(writes: number, before: Record<string, unknown>, after: Record<string, unknown>): ApiError {
    const changed = (this.cfg.references ?? []).map((r) => r.field).filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]));
    const message = `this update changes too many references at once (${writes} writes; at most ${MAX_TRANSACTION_ITEMS} fit in one atomic write): make the change in two requests`;
    return validationError(`${changed.join(', ')}: ${message}`, changed.map((field) => ({ field, message })));
  }

  /** The record as stored: id, timestamps and declared fields (no keys, internals or computed fields). */
  private stored(item: Record<string, unknown>): Record<string, unknown> {
    const rec: Record<string, unknown> = { id: item.id, createdAt: item.createdAt, updatedAt: item.updatedAt };
    for (const name of Object.keys(this.cfg.fields)) if (item[name] !== undefined) rec[name] = item[name];
    return rec;
  }

  private derive(rec: Record<string, unknown>) {
    return this.cfg.derive ? this.cfg.derive(rec) : rec;
  }

  private lockOps(workspaceId: string, before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined, ownerSK: unknown): WriteOp[] {
    const rule = this.cfg.unique;
    if (!rule) return [];
    const oldValue = before ? rule.value(before) : undefined;
    const newValue = after ? rule.value(after) : undefined;
    if (oldValue === newValue) return [];
    const ops: WriteOp[] = [];
    if (oldValue !== undefined) {
      ops.push({ item: { Delete: { TableName: tableName(), Key: keys.uniqueLock(workspaceId, rule.name, oldValue) } }, onConditionFail: () => new StaleRead() });
    }
    if (newValue !== undefined && after) {
      ops.push({
        item: {
          Put: {
            TableName: tableName(),
            Item: { ...keys.uniqueLock(workspaceId, rule.name, newValue), [TYPE]: 'UNIQUE', owner: ownerSK },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        onConditionFail: () => conflict(rule.message(after)),
      });
    }
    return ops;
  }

  /** Usage-counter changes on referenced records for a create (before undefined), update or delete. */
  private referenceOps(workspaceId: string, before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): WriteOp[] {
    const ops: WriteOp[] = [];
    for (const ref of this.cfg.references ?? []) {
      const target = ref.target();
      const ids = (rec: Record<string, unknown> | undefined): string[] => {
        const v = rec?.[ref.field];
        if (v === undefined || v === null) return [];
        return ref.many ? (v as string[]) : [String(v)];
      };
      const oldIds = new Set(ids(before));
      const newIds = new Set(ids(after));
      const counter = counterAttr(this.cfg.type);
      const change = (id: string, delta: 1 | -1): WriteOp => ({
        item: {
          Update: {
            TableName: tableName(),
            Key: target.key(workspaceId, { id }),
            UpdateExpression: 'ADD #c :d, #v :one',
            ConditionExpression: 'attribute_exists(PK) AND #t = :type',
            ExpressionAttributeNames: { '#c': counter, '#v': VERSION, '#t': TYPE },
            ExpressionAttributeValues: { ':d': delta, ':one': 1, ':type': target.cfg.type },
          },
        },
        onConditionFail: () =>
          delta === 1 ? fieldError(ref.field, `${target.cfg.kind} ${id} does not exist in this workspace`) : new StaleRead(),
      });
      for (const id of newIds) if (!oldIds.has(id)) ops.push(change(id, 1));
      for (const id of oldIds) if (!newIds.has(id)) ops.push(change(id, -1));
    }
    return ops;
  }
}

/** Created once: `localeCompare(b, 'en', options)` builds a collator on every call (~11 µs each). */
const nameCollator = new Intl.Collator('en', { sensitivity: 'base' });

export function byName(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const an = String(a.name ?? '');
  const bn = String(b.name ?? '');
  return nameCollator.compare(an, bn) || an.localeCompare(bn) || String(a.id).localeCompare(String(b.id));
}

