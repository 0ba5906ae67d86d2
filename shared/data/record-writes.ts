import { pluralLabel, uniqueValue, WHOLE_LIST_MAX_BYTES, type AnyEntity } from '../domain/entity';
import { boundReached, conflict, invalidField } from '../domain/errors';
import { tableName, type ExpressionValue } from './db';
import { entityKey, keys } from './keys';
import { TYPE_ATTRIBUTE as TYPE, VERSION_ATTRIBUTE as VERSION } from './table';
import { StaleRead, type WriteOp } from './write';
import * as settings from '../platform/settings';
import { ITEM_TYPES } from './item-types';
import type { AnyRecord } from './records';

/**
 * The writes that travel with a record in its transaction (shared/data/repository.ts): its uniqueness
 * lock (a lock item per normalized value) and the usage counters on the records it names (`ADD` on the
 * referenced item, whose condition fails the whole write when that record does not exist). Given the
 * record before and after a create (no before), update or delete (no after), each returns the ops.
 */
/** Attribute of a referenced item counting the records of `referencingType` that name it. */
export const counterAttr = (referencingType: string) => `_usedBy${referencingType}`;

export function lockOps(entity: AnyEntity, workspaceId: string, before: AnyRecord | undefined, after: AnyRecord | undefined, ownerSK: unknown): WriteOp[] {
  const rule = entity.unique;
  if (!rule) return [];
  const oldValue = before ? uniqueValue(rule, before) : undefined;
  const newValue = after ? uniqueValue(rule, after) : undefined;
  if (oldValue === newValue) return [];
  const ops: WriteOp[] = [];
  // a retained lock (an issued invoice number) stays when the value changes or the record goes
  if (oldValue !== undefined && !(before && rule.retain?.(before))) {
    ops.push({ item: { Delete: { TableName: tableName(), Key: keys.uniqueLock(workspaceId, rule.name, oldValue, rule.field) } }, onConditionFail: () => new StaleRead() });
  }
  if (newValue !== undefined && after) {
    ops.push({
      item: {
        Put: {
          TableName: tableName(),
          Item: { ...keys.uniqueLock(workspaceId, rule.name, newValue, rule.field), [TYPE]: ITEM_TYPES.uniqueLock, owner: ownerSK },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      onConditionFail: () => conflict(rule.message(String(after[rule.field]))),
    });
  }
  return ops;
}

/** Usage-counter changes on referenced records for a create (before undefined), update or delete. */
export function referenceOps(entity: AnyEntity, workspaceId: string, before: AnyRecord | undefined, after: AnyRecord | undefined): WriteOp[] {
  const ops: WriteOp[] = [];
  for (const ref of entity.references ?? []) {
    const target = ref.target();
    const ids = (rec: AnyRecord | undefined): string[] => {
      const v = rec?.[ref.field];
      if (v === undefined || v === null) return [];
      return ref.many ? (v as string[]) : [String(v)];
    };
    const oldIds = new Set(ids(before));
    const newIds = new Set(ids(after));
    const counter = counterAttr(entity.type);
    const change = (id: string, delta: 1 | -1): WriteOp => ({
      item: {
        Update: {
          TableName: tableName(),
          Key: entityKey(target, workspaceId, { id }),
          UpdateExpression: 'ADD #c :d, #v :one',
          ConditionExpression: 'attribute_exists(PK) AND #t = :type',
          ExpressionAttributeNames: { '#c': counter, '#v': VERSION, '#t': TYPE },
          ExpressionAttributeValues: { ':d': delta, ':one': 1, ':type': target.type },
        },
      },
      onConditionFail: () => (delta === 1 ? invalidField(ref.field, `${target.kind} ${id} does not exist in this workspace`) : new StaleRead()),
    });
    for (const id of newIds) if (!oldIds.has(id)) ops.push(change(id, 1));
    for (const id of oldIds) if (!newIds.has(id)) ops.push(change(id, -1));
  }
  return ops;
}

/** The record bound of a whole list: its declared default, or the environment variable that overrides it. */
export function maxRecords(entity: AnyEntity): number | undefined {
  const bound = entity.list.bound;
  if (!bound) return undefined;
  const override = Number(settings.raw(bound.env));
  return Number.isInteger(override) && override > 0 ? override : bound.maxRecords;
}

/** The byte bound of every whole list: WHOLE_LIST_MAX_BYTES, or MAX_LIST_BYTES when set (tests lower it). */
export function maxListBytes(): number {
  const override = Number(settings.maxListBytes());
  return Number.isInteger(override) && override > 0 ? override : WHOLE_LIST_MAX_BYTES;
}

/** The JSON size of a record as the API returns it (what a whole list adds up). */
export const recordBytes = (rec: AnyRecord): number => Buffer.byteLength(JSON.stringify(rec), 'utf8');

/**
 * The bounded whole list's counter for a create (before undefined), update or delete (after undefined):
 * one UpdateItem in the record's transaction. It counts records and bytes exactly: a create or a growing
 * update whose condition fails (the count or the bytes would pass the bound) fails the whole write (409
 * naming the limit), so concurrent creates at the boundary can never overshoot.
 */
export function boundOps(entity: AnyEntity, workspaceId: string, before: AnyRecord | undefined, after: AnyRecord | undefined): WriteOp[] {
  const bound = entity.list.bound;
  const max = maxRecords(entity);
  if (!bound || max === undefined) return [];
  // moved to another user's list: out of one, into the other
  if (bound.per !== undefined && before && after && before[bound.per] !== after[bound.per]) {
    return [...boundOps(entity, workspaceId, before, undefined), ...boundOps(entity, workspaceId, undefined, after)];
  }
  const rec = (after ?? before)!;
  const perValue = bound.per === undefined ? undefined : String(rec[bound.per]);
  const count = (before ? -1 : 0) + (after ? 1 : 0);
  const bytes = (after ? recordBytes(after) : 0) - (before ? recordBytes(before) : 0);
  if (count === 0 && bytes === 0) return [];
  // only what grows is checked: a record added needs room for one more, bytes added need room for them
  const conditions: string[] = [];
  const values: Record<string, ExpressionValue> = { ':type': ITEM_TYPES.listBound, ':count': count, ':bytes': bytes };
  if (count > 0) {
    conditions.push('(attribute_not_exists(#n) OR #n < :max)');
    values[':max'] = max;
  }
  if (bytes > 0) {
    conditions.push('(attribute_not_exists(#b) OR #b <= :room)');
    values[':room'] = maxListBytes() - bytes;
  }
  const label = pluralLabel(entity).replace(/\(i?e?s\)$/, (m) => m.slice(1, -1));
  const scope = bound.per === undefined ? 'a workspace' : `one ${bound.per === 'userId' ? 'user' : bound.per}`;
  return [
    {
      item: {
        Update: {
          TableName: tableName(),
          Key: keys.listBound(workspaceId, entity.type, perValue),
          UpdateExpression: 'SET #t = :type ADD #n :count, #b :bytes',
          ...(conditions.length ? { ConditionExpression: conditions.join(' AND ') } : {}),
          ExpressionAttributeNames: { '#t': TYPE, '#n': 'n', '#b': 'bytes' },
          ExpressionAttributeValues: values,
        },
      },
      onConditionFail: () =>
        boundReached(
          `${entity.kind} limit reached: ${scope} may hold at most ${max} ${label} (${bound.env}) weighing at most ${maxListBytes() / 1_000_000} MB together (their JSON; MAX_LIST_BYTES), so that the whole list fits one answer; delete some first`,
        ),
    },
  ];
}
