import type { AnyEntity } from '../domain/entity';
import { uniqueValue } from '../domain/entity';
import { conflict, invalidField } from '../domain/errors';
import { tableName } from './db';
import { entityKey, keys } from './keys';
import { TYPE_ATTRIBUTE as TYPE, VERSION_ATTRIBUTE as VERSION } from './table';
import { StaleRead, type WriteOp } from './write';

/**
 * The writes that travel with a record in its transaction (shared/data/repository.ts): its uniqueness
 * lock (a lock item per normalized value) and the usage counters on the records it names (`ADD` on the
 * referenced item, whose condition fails the whole write when that record does not exist). Given the
 * record before and after a create (no before), update or delete (no after), each returns the ops.
 */
/** Attribute of a referenced item counting the records of `referencingType` that name it. */
export const counterAttr = (referencingType: string) => `_usedBy${referencingType}`;

export function lockOps(
  entity: AnyEntity,
  workspaceId: string,
  before: Readonly<Record<string, unknown>> | undefined,
  after: Readonly<Record<string, unknown>> | undefined,
  ownerSK: unknown,
): WriteOp[] {
  const rule = entity.unique;
  if (!rule) return [];
  const oldValue = before ? uniqueValue(rule, before) : undefined;
  const newValue = after ? uniqueValue(rule, after) : undefined;
  if (oldValue === newValue) return [];
  const ops: WriteOp[] = [];
  if (oldValue !== undefined) {
    ops.push({ item: { Delete: { TableName: tableName(), Key: keys.uniqueLock(workspaceId, rule.name, oldValue, rule.field) } }, onConditionFail: () => new StaleRead() });
  }
  if (newValue !== undefined && after) {
    ops.push({
      item: {
        Put: {
          TableName: tableName(),
          Item: { ...keys.uniqueLock(workspaceId, rule.name, newValue, rule.field), [TYPE]: 'UNIQUE', owner: ownerSK },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      onConditionFail: () => conflict(rule.message(String(after[rule.field]))),
    });
  }
  return ops;
}

/** Usage-counter changes on referenced records for a create (before undefined), update or delete. */
export function referenceOps(
  entity: AnyEntity,
  workspaceId: string,
  before: Readonly<Record<string, unknown>> | undefined,
  after: Readonly<Record<string, unknown>> | undefined,
): WriteOp[] {
  const ops: WriteOp[] = [];
  for (const ref of entity.references ?? []) {
    const target = ref.target();
    const ids = (rec: Readonly<Record<string, unknown>> | undefined): string[] => {
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
