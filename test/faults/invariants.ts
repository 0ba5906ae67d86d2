import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/data/db';
import { entityKey, indexKeys, keys } from '../../shared/data/keys';
import { counterAttr } from '../../shared/data/record-writes';
import { uniqueValue, type AnyEntity } from '../../shared/domain/entity';
import { ENTITIES as REGISTRY } from '../../shared/domain/registry';

/**
 * The consistency rules every multi-item change must keep (docs/data-model.md), checked on the stored
 * items of one workspace. If a change were half-written, one of these breaks:
 * - every usage counter `_usedBy<TYPE>` on a record equals the number of TYPE records naming it (exact,
 *   not "at least"), and a record named by others carries the counter;
 * - every unique lock belongs to exactly one live record with that normalized value (owner = its SK),
 *   and every such record has its lock;
 * - every record sits under the key its fields give (a moved time entry is not also at its old place),
 *   and its index attributes are exactly those its fields give.
 */
export const ENTITIES: readonly AnyEntity[] = REGISTRY;
const byType = new Map(ENTITIES.map((e) => [e.type, e]));

export async function workspaceItems(workspaceId: string): Promise<Record<string, unknown>[]> {
  const prefix = keys.workspacePartition(workspaceId);
  const out: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    // The table holds every workspace of the file (a fault test makes a fresh one per changed fixture): DynamoDB
    // keeps only this workspace's partitions (a superset: `ws-1` also matches `ws-10`; the exact test is below),
    // so the other workspaces' items are not sent, parsed and unmarshalled on each of the hundreds of snapshots.
    const res = await db().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'begins_with(PK, :ws)',
        ExpressionAttributeValues: { ':ws': prefix },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const it of res.Items ?? []) {
      const pk = String(it.PK);
      if (pk === prefix || pk.startsWith(`${prefix}#`)) out.push(it);
    }
    start = res.LastEvaluatedKey;
  } while (start);
  return out;
}

export function invariantViolations(workspaceId: string, items: Record<string, unknown>[]): string[] {
  const problems: string[] = [];
  const expectedCounters = new Map<string, number>(); // `${targetType}#${targetId}#${attr}` -> count
  const expectedLocks = new Map<string, string>(); // lock SK -> owner SK
  const records = new Map<string, Record<string, unknown>>(); // `${type}#${id}` -> item
  const name = (it: Record<string, unknown>) => `${String(it._type)} ${String(it.id)}`;

  for (const it of items) {
    const entity = byType.get(String(it._type));
    if (!entity) continue;
    const id = String(it.id);
    if (records.has(`${entity.type}#${id}`)) problems.push(`${name(it)} stored twice`);
    records.set(`${entity.type}#${id}`, it);
    const key = entityKey(entity, workspaceId, it);
    if (key.PK !== it.PK || key.SK !== it.SK) problems.push(`${name(it)} stored at ${String(it.PK)}/${String(it.SK)}, its fields say ${key.PK}/${key.SK}`);
    const idx = indexKeys(entity, workspaceId, it);
    const stored = Object.fromEntries(Object.entries(it).filter(([k]) => /^GSI\d+(PK|SK)$/.test(k)));
    if (JSON.stringify(Object.entries(stored).sort()) !== JSON.stringify(Object.entries(idx).sort())) {
      problems.push(`${name(it)} index attributes ${JSON.stringify(stored)} differ from its fields' ${JSON.stringify(idx)}`);
    }
    for (const ref of entity.references ?? []) {
      const v = it[ref.field];
      const ids = v === undefined || v === null ? [] : ref.many ? (v as string[]) : [String(v)];
      for (const target of ids) {
        const k = `${ref.target().type}#${target}#${counterAttr(entity.type)}`;
        expectedCounters.set(k, (expectedCounters.get(k) ?? 0) + 1);
      }
    }
    const rule = entity.unique;
    const value = rule && uniqueValue(rule, it);
    if (rule && value !== undefined) {
      const lock = keys.uniqueLock(workspaceId, rule.name, value).SK;
      if (expectedLocks.has(lock)) problems.push(`two records hold the unique value ${lock}`);
      expectedLocks.set(lock, String(it.SK));
    }
  }

  for (const [k, count] of expectedCounters) {
    const [type, id, attr] = k.split('#') as [string, string, string];
    const target = records.get(`${type}#${id}`);
    if (!target) problems.push(`${count} record(s) name ${type} ${id}, which does not exist (${attr})`);
    else if (Number(target[attr] ?? 0) !== count) problems.push(`${type} ${id} ${attr} = ${String(target[attr])}, but ${count} record(s) name it`);
  }
  for (const it of records.values()) {
    for (const [attr, v] of Object.entries(it)) {
      if (!attr.startsWith('_usedBy')) continue;
      if (!expectedCounters.has(`${String(it._type)}#${String(it.id)}#${attr}`) && Number(v) !== 0) problems.push(`${name(it)} ${attr} = ${String(v)}, but no record names it`);
    }
  }
  const locks = items.filter((it) => it._type === 'UNIQUE');
  for (const lock of locks) {
    const owner = expectedLocks.get(String(lock.SK));
    if (owner === undefined) problems.push(`orphan lock ${String(lock.SK)} (owner ${String(lock.owner)})`);
    else if (owner !== lock.owner) problems.push(`lock ${String(lock.SK)} owned by ${String(lock.owner)}, but held by ${owner}`);
  }
  for (const sk of expectedLocks.keys()) if (!locks.some((l) => l.SK === sk)) problems.push(`missing lock ${sk}`);
  return problems;
}

/** Fails with every broken rule listed. */
export async function assertWorkspaceInvariants(workspaceId: string): Promise<void> {
  expect(invariantViolations(workspaceId, await workspaceItems(workspaceId))).toEqual([]);
}
