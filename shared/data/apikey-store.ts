import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DEFAULT_LIMITS, generateApiKey, hashApiKey, isValidWorkspaceId, type ApiKeyRecord } from '../domain/apikeys';
import { ulid } from '../domain/ids';
import type { Scope } from '../domain/auth';
import { db, tableName, type StoredItem } from './db';
import { keys } from './keys';

/**
 * API key records. The item is keyed by SHA-256(key), so the authorizer resolves a key with one
 * GetItem; GSI1 lists a workspace's keys; GSI2 finds a key by its public id (revoke, update).
 * The key itself is returned once, by create, and never stored.
 */
const TYPE = 'APIKEY';

function toRecord(item: StoredItem): ApiKeyRecord {
  const rec: ApiKeyRecord = {
    id: String(item.id),
    workspaceId: String(item.workspaceId),
    name: String(item.name),
    scopes: (item.scopes as Scope[]) ?? [],
    perMinute: Number(item.perMinute),
    perHour: Number(item.perHour),
    createdAt: String(item.createdAt),
  };
  if (item.expiresAt) rec.expiresAt = String(item.expiresAt);
  if (item.lastUsedAt) rec.lastUsedAt = String(item.lastUsedAt);
  if (item.revokedAt) rec.revokedAt = String(item.revokedAt);
  return rec;
}

export interface NewKey {
  workspaceId: string;
  name: string;
  scopes: Scope[];
  perMinute?: number;
  perHour?: number;
  expiresAt?: string;
}

export async function createApiKey(input: NewKey): Promise<{ key: string; record: ApiKeyRecord }> {
  if (!isValidWorkspaceId(input.workspaceId)) throw new Error(`Invalid workspace id: ${JSON.stringify(input.workspaceId)}`);
  const key = generateApiKey();
  const hash = hashApiKey(key);
  const record: ApiKeyRecord = {
    id: `key_${ulid()}`,
    workspaceId: input.workspaceId,
    name: input.name,
    scopes: [...new Set(input.scopes)],
    perMinute: input.perMinute ?? DEFAULT_LIMITS.perMinute,
    perHour: input.perHour ?? DEFAULT_LIMITS.perHour,
    createdAt: new Date().toISOString(),
    ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
  };
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.apiKey(hash),
        ...keys.apiKeyByWorkspace(record.workspaceId, record.createdAt, record.id),
        ...keys.apiKeyById(record.id),
        _type: TYPE,
        ...record,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  return { key, record };
}

export async function findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: keys.apiKey(hash) }));
  return res.Item && res.Item._type === TYPE ? toRecord(res.Item) : undefined;
}

export async function listApiKeys(workspaceId: string): Promise<ApiKeyRecord[]> {
  const out: ApiKeyRecord[] = [];
  let start: StoredItem | undefined;
  do {
    const res = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.apiKeyByWorkspacePartition(workspaceId) },
        ScanIndexForward: false,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    out.push(...(res.Items ?? []).map(toRecord));
    start = res.LastEvaluatedKey;
  } while (start);
  return out;
}

/** The storage key of a key record, found by public id (GSI2). */
async function storageKeyById(id: string): Promise<{ PK: string; SK: string } | undefined> {
  const res = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.apiKeyByIdPartition(id) },
      Limit: 1,
    }),
  );
  const item = res.Items?.[0];
  return item ? { PK: String(item.PK), SK: String(item.SK) } : undefined;
}

/** Applies a change to a key found by id; undefined when no such key. */
async function updateById(id: string, set: Record<string, unknown>, condition?: string): Promise<ApiKeyRecord | undefined> {
  const Key = await storageKeyById(id);
  if (!Key) return undefined;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const parts = Object.entries(set).map(([k, v], i) => {
    names[`#a${i}`] = k;
    values[`:a${i}`] = v;
    return `#a${i} = :a${i}`;
  });
  try {
    const res = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key,
        UpdateExpression: `SET ${parts.join(', ')}`,
        ConditionExpression: ['attribute_exists(PK)', condition].filter(Boolean).join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return res.Attributes ? toRecord(res.Attributes) : undefined;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return findById(id);
    throw err;
  }
}

export async function findById(id: string): Promise<ApiKeyRecord | undefined> {
  const Key = await storageKeyById(id);
  if (!Key) return undefined;
  const res = await db().send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }));
  return res.Item ? toRecord(res.Item) : undefined;
}

/** Revokes a key (idempotent: a key revoked earlier keeps its first revokedAt). */
export function revokeApiKey(id: string, now = new Date()): Promise<ApiKeyRecord | undefined> {
  return updateById(id, { revokedAt: now.toISOString() }, 'attribute_not_exists(revokedAt)');
}

export function updateApiKeyLimits(id: string, limits: { perMinute?: number; perHour?: number }): Promise<ApiKeyRecord | undefined> {
  const set: Record<string, unknown> = {};
  if (limits.perMinute !== undefined) set.perMinute = limits.perMinute;
  if (limits.perHour !== undefined) set.perHour = limits.perHour;
  return updateById(id, set);
}

/** Records use; called by the authorizer, so it is as fresh as the authorizer cache allows. */
export async function touchLastUsed(hash: string, now = new Date()): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.apiKey(hash),
      UpdateExpression: 'SET lastUsedAt = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':now': now.toISOString() },
    }),
  );
}
