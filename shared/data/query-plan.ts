import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { AnyEntity } from '../domain/entity';
import { tableName, type ExpressionValue } from './db';
import { keyAttributes, patternOf, queryKeys, type AccessPattern } from './keys';
import type { Expression } from './paging';
import type { IndexName } from './table';

/**
 * Which Query serves a list: of the access patterns an entity lists through (`list.via` of its
 * declaration), the one whose partition and leading sort-key composites the given filters fill best
 * (first declared wins a tie); a date range becomes a BETWEEN on its sort key, and filters the pattern
 * does not cover become a FilterExpression on the already narrowed Query. Examples (time entries):
 * userId+projectId -> GSI4 (user+project); projectId+clientId -> GSI2 (project) + filter clientId;
 * no filter -> the table's own key. docs/data-model.md states each combination's cost.
 */
export interface QueryPlan {
  index?: IndexName;
  /** Human description (docs, benchmark): "GSI4 (user+project)", "table + filter clientId". */
  access: string;
  keyCondition: Expression;
  filter?: Expression;
}

/** Filters by equality; undefined values are no filter. */
export type Where = Readonly<Record<string, string | undefined>>;

export function planQuery(e: AnyEntity, workspaceId: string, where: Where, range?: { lo: string; hi: string }): QueryPlan {
  const given = Object.fromEntries(Object.entries(where).filter(([, v]) => v !== undefined)) as Record<string, string>;
  let best: { pattern: AccessPattern; score: number; covered: Set<string> } | undefined;
  for (const pattern of e.list.via) {
    const { pk, sk } = patternOf(e, pattern);
    const pkFields = pk.composite ?? [];
    if (!pkFields.every((f) => f in given)) continue;
    // A sparse index (running entries) serves exactly the lists that ask for its records, and wins there.
    const only = pattern === 'key' ? undefined : e.indexes?.[pattern]?.only;
    if (only && !(only.param in given)) continue;
    const covered = new Set<string>(pkFields);
    if (only) {
      covered.add(only.param);
      best = { pattern, score: Number.MAX_SAFE_INTEGER, covered };
      continue;
    }
    for (const f of sk.composite ?? []) {
      if (!(f in given)) break;
      covered.add(f);
    }
    if (!best || covered.size > best.score) best = { pattern, score: covered.size, covered };
  }
  if (!best) throw new Error(`${e.type}: no access pattern can list it`);
  const { pk: pkValue, skPrefix } = queryKeys(e, best.pattern, workspaceId, given);
  const attrs = keyAttributes(best.pattern);
  const names: Record<string, string> = { '#pk': attrs.pk };
  const values: Record<string, ExpressionValue> = { ':pk': pkValue };
  let expression = '#pk = :pk';
  if (range) {
    if (skPrefix) throw new Error(`${e.type}: a range and a sort-key prefix in one Query`);
    names['#sk'] = attrs.sk;
    Object.assign(values, { ':lo': range.lo, ':hi': range.hi });
    expression += ' AND #sk BETWEEN :lo AND :hi';
  } else if (skPrefix) {
    names['#sk'] = attrs.sk;
    values[':sk'] = skPrefix;
    expression += ' AND begins_with(#sk, :sk)';
  }
  const rest = Object.keys(given).filter((f) => !best.covered.has(f));
  const ref = (f: string) => placeholder(f, names);
  const index = best.pattern === 'key' ? undefined : (best.pattern as IndexName);
  const label = index ? `${index} (${e.indexes?.[index]?.access ?? index})` : 'table';
  return {
    ...(index ? { index } : {}),
    access: label + (rest.length ? ` + filter ${rest.join(', ')}` : ''),
    keyCondition: { expression, names, values },
    ...(rest.length
      ? {
          filter: {
            expression: rest.map((f) => filterExpression(filterOf(e, f).op, ref(f), given[f])).join(' AND '),
            names: Object.fromEntries(rest.map((f) => [`#${ref(f)}`, filterOf(e, f).field ?? f])),
            // `exists` filters compare with no value
            values: Object.fromEntries(
              Object.entries(given)
                .filter(([f]) => rest.includes(f) && filterOf(e, f).op !== 'exists')
                .map(([f, v]) => [`:${ref(f)}`, filterOf(e, f).type === 'boolean' ? v === 'true' : v]),
            ),
          },
        }
      : {}),
  };
}

/**
 * The Query of a plan (table, index, key condition, filter), for reads that follow it to the end with
 * `queryAll` (shared/data/db.ts); add `ScanIndexForward`, `ReturnConsumedCapacity` and the like by spreading.
 */
export function queryInputOf(plan: QueryPlan): QueryCommandInput {
  return {
    TableName: tableName(),
    ...(plan.index ? { IndexName: plan.index } : {}),
    KeyConditionExpression: plan.keyCondition.expression,
    ExpressionAttributeNames: { ...plan.keyCondition.names, ...plan.filter?.names },
    ExpressionAttributeValues: { ...plan.keyCondition.values, ...plan.filter?.values },
    ...(plan.filter ? { FilterExpression: plan.filter.expression } : {}),
  };
}

/** The condition of one filter: equality, list membership, or whether the field is set (`exists`, true/false). */
function filterExpression(op: 'eq' | 'contains' | 'exists' | undefined, p: string, value: string | undefined): string {
  if (op === 'contains') return `contains(#${p}, :${p})`;
  if (op === 'exists') return value === 'true' ? `attribute_exists(#${p})` : `attribute_not_exists(#${p})`;
  return `#${p} = :${p}`;
}

/** How a list parameter filters (list.filters of the declaration): equality on the field of its name by default. */
const filterOf = (e: AnyEntity, param: string) => e.list.filters?.[param] ?? {};

/**
 * The placeholder of a filter field: its name without a trailing `Id` (`clientId` -> `#client`, `:client`).
 * A cursor is signed over the query's text, so these names are those the first version used: cursors
 * handed out before stay valid. A name the key condition already uses would change its meaning: refused.
 */
function placeholder(field: string, keyNames: Readonly<Record<string, string>>): string {
  const p = field.replace(/Id$/, '') || field;
  if (`#${p}` in keyNames || ['pk', 'sk', 'lo', 'hi'].includes(p)) throw new Error(`filter field ${field} clashes with a key placeholder`);
  return p;
}
