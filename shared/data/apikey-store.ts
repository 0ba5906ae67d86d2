import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_LIMITS, generateApiKey, hashApiKey, isValidWorkspaceId, keyPrefixOf, keyState, type ApiKeyRecord } from '../domain/apikeys';
import { boundReached, busy, conflict } from '../domain/errors';
import { ulid } from '../domain/ids';
import type { Scope } from '../domain/auth';
import { db, queryAll, tableName, type ExpressionValue, type StoredItem } from './db';
import { keys } from './keys';
import { auditOp, diff } from './audit';
import { writeAll, type WriteOp } from './write';
import * as settings from '../platform/settings';
import { ITEM_TYPES } from './item-types';

/**
 * API key records, shared by the admin CLI and the console: a key made either way shows in both. The item
 * is keyed by SHA-256(key), so the authorizer resolves a key with one GetItem; GSI1 lists a workspace's keys;
 * GSI2 finds a key by its public id. The key itself is returned once, by create and roll, and never stored.
 *
 * The 500-active-key bound (MAX_ACTIVE_KEYS) is counted exactly by a counter item (`WS#<ws>#APIKEYS`/`COUNT`,
 * attribute `active`) changed in the same transaction as the key: create and roll add one under the
 * condition `active < bound`, revoke takes one off. A key that expired keeps its slot until a create meets
 * the bound, which then releases the slots of expired keys (marking each `released`, one transaction per
 * key, so a key is never released twice) and tries once more.
 */
const TYPE = ITEM_TYPES.apiKey;
export const MAX_ACTIVE_KEYS = () => settings.maxActiveKeys();

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
  if (item.prefix) rec.prefix = String(item.prefix);
  if (item.createdBy) rec.createdBy = String(item.createdBy);
  if (item.expiresAt) rec.expiresAt = String(item.expiresAt);
  if (item.lastUsedAt) rec.lastUsedAt = String(item.lastUsedAt);
  if (item.revokedAt) rec.revokedAt = String(item.revokedAt);
  if (item.replaces) rec.replaces = String(item.replaces);
  if (item.replacedBy) rec.replacedBy = String(item.replacedBy);
  if ('preRollExpiresAt' in item) rec.preRollExpiresAt = item.preRollExpiresAt === null ? null : String(item.preRollExpiresAt);
  return rec;
}

export interface NewKey {
  workspaceId: string;
  name: string;
  scopes: Scope[];
  perMinute?: number;
  perHour?: number;
  expiresAt?: string;
  /** A person's e-mail (console) or `admin-cli`. */
  createdBy?: string;
  /** The key it succeeds (a roll). */
  replaces?: string;
}

/** Who makes a change (a person's e-mail; `admin-cli` for the operator's CLI): named in its audit entry. */
export const ADMIN_CLI = 'admin-cli';
const AUDITED = ['name', 'scopes', 'perMinute', 'perHour', 'expiresAt'] as const;

const boundMessage = () => `A workspace may hold at most ${MAX_ACTIVE_KEYS()} active API keys; revoke one first (expired keys free their slot by themselves)`;

/** Add one to the workspace's active-key counter, under the bound. */
function countOne(workspaceId: string): WriteOp {
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: keys.apiKeyCounter(workspaceId),
        UpdateExpression: 'SET #t = :t ADD #a :one',
        ConditionExpression: 'attribute_not_exists(#a) OR #a < :max',
        ExpressionAttributeNames: { '#a': 'active', '#t': '_type' },
        ExpressionAttributeValues: { ':one': 1, ':max': MAX_ACTIVE_KEYS(), ':t': ITEM_TYPES.apiKeyCount },
      },
    },
    onConditionFail: () => new BoundReached(),
  };
}
function uncountOne(workspaceId: string): WriteOp {
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: keys.apiKeyCounter(workspaceId),
        UpdateExpression: 'ADD #a :minus',
        ConditionExpression: '#a > :zero',
        ExpressionAttributeNames: { '#a': 'active' },
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      },
    },
    onConditionFail: () => new Error('active-key counter already at zero'),
  };
}
class BoundReached extends Error {}

function newKeyItem(input: NewKey): { key: string; record: ApiKeyRecord; op: WriteOp } {
  if (!isValidWorkspaceId(input.workspaceId)) throw new Error(`Invalid workspace id: ${JSON.stringify(input.workspaceId)}`);
  const key = generateApiKey();
  const record: ApiKeyRecord = {
    id: `key_${ulid()}`,
    workspaceId: input.workspaceId,
    name: input.name,
    prefix: keyPrefixOf(key),
    scopes: [...new Set(input.scopes)],
    perMinute: input.perMinute ?? DEFAULT_LIMITS.perMinute,
    perHour: input.perHour ?? DEFAULT_LIMITS.perHour,
    createdAt: new Date().toISOString(),
    ...(input.createdBy ? { createdBy: input.createdBy } : {}),
    ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
    ...(input.replaces ? { replaces: input.replaces } : {}),
  };
  const op: WriteOp = {
    item: {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.apiKey(hashApiKey(key)),
          ...keys.apiKeyByWorkspace(record.workspaceId, record.createdAt, record.id),
          ...keys.apiKeyById(record.id),
          _type: TYPE,
          ...record,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    onConditionFail: () => new Error('API key collision'),
  };
  return { key, record, op };
}

/**
 * Runs a write that adds a key under the bound; at the bound, releases the slots of expired keys and tries
 * once more; still at the bound: 409 CONFLICT.
 */
async function underBound(workspaceId: string, write: () => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (!(err instanceof BoundReached)) throw err;
      if (attempt > 0 || (await releaseExpired(workspaceId)) === 0) throw boundReached(boundMessage());
    }
  }
}

/** Releases the counter slots of the workspace's expired keys; returns how many it released. */
async function releaseExpired(workspaceId: string, now = new Date()): Promise<number> {
  let released = 0;
  for (const item of await listItems(workspaceId)) {
    if (item.released || item.revokedAt || keyState(toRecord(item), now) !== 'expired') continue;
    try {
      await writeAll([
        {
          item: {
            Update: {
              TableName: tableName(),
              Key: { PK: item.PK, SK: item.SK },
              UpdateExpression: 'SET released = :t',
              ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(released) AND attribute_not_exists(revokedAt)',
              ExpressionAttributeValues: { ':t': true },
            },
          },
          onConditionFail: () => new AlreadyReleased(),
        },
        uncountOne(workspaceId),
      ]);
      released++;
    } catch (err) {
      if (!(err instanceof AlreadyReleased)) throw err;
    }
  }
  return released;
}
class AlreadyReleased extends Error {}

/** Creates a key under the bound, with its audit entry (actor: `createdBy`, else `admin-cli`). */
export async function createApiKey(input: NewKey): Promise<{ key: string; record: ApiKeyRecord }> {
  const made = newKeyItem(input);
  const r = made.record;
  const audit = auditOp({
    workspaceId: r.workspaceId,
    actor: input.createdBy ?? ADMIN_CLI,
    action: 'api-key.created',
    target: { type: 'api-key', id: r.id },
    changes: Object.fromEntries([['prefix', { to: r.prefix }], ...AUDITED.filter((f) => r[f] !== undefined).map((f) => [f, { to: r[f] }])]),
  });
  await underBound(input.workspaceId, () => writeAll([countOne(input.workspaceId), made.op, audit]));
  return { key: made.key, record: r };
}

export async function findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: keys.apiKey(hash) }));
  return res.Item && res.Item._type === TYPE ? toRecord(res.Item) : undefined;
}

async function listItems(workspaceId: string): Promise<StoredItem[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.apiKeyByWorkspacePartition(workspaceId) },
    ScanIndexForward: false,
  });
  return items.filter((i) => i._type === TYPE);
}

/** A workspace's keys, newest first (GSI1; at most a few pages: the bound keeps the active ones to 500). */
export async function listApiKeys(workspaceId: string): Promise<ApiKeyRecord[]> {
  return (await listItems(workspaceId)).map(toRecord);
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

async function itemById(id: string): Promise<StoredItem | undefined> {
  const Key = await storageKeyById(id);
  if (!Key) return undefined;
  const res = await db().send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }));
  return res.Item;
}

export async function findById(id: string): Promise<ApiKeyRecord | undefined> {
  const item = await itemById(id);
  return item ? toRecord(item) : undefined;
}

/** A key of this workspace by id; undefined for an unknown id or another workspace's key. */
export async function findInWorkspace(workspaceId: string, id: string): Promise<ApiKeyRecord | undefined> {
  const rec = await findById(id);
  return rec && rec.workspaceId === workspaceId ? rec : undefined;
}

/** The key changed under us (read-modify-write raced another writer). */
export class KeyChanged extends Error {}

/**
 * Revokes a key (idempotent: a key revoked earlier keeps its first revokedAt) and frees its slot under the
 * bound, with the extra ops (the audit entry) in the same transaction. Undefined when no such key.
 */
export async function revokeApiKey(id: string, now = new Date(), actor = ADMIN_CLI): Promise<ApiKeyRecord | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const item = await itemById(id);
    if (!item) return undefined;
    if (item.revokedAt) return toRecord(item);
    const counted = !item.released;
    try {
      await writeAll([
        {
          item: {
            Update: {
              TableName: tableName(),
              Key: { PK: item.PK, SK: item.SK },
              UpdateExpression: 'SET revokedAt = :now',
              ConditionExpression: `attribute_exists(PK) AND attribute_not_exists(revokedAt) AND ${counted ? 'attribute_not_exists(released)' : 'released = :t'}`,
              ExpressionAttributeValues: { ':now': now.toISOString(), ...(counted ? {} : { ':t': true }) },
            },
          },
          onConditionFail: () => new KeyChanged(),
        },
        ...(counted ? [uncountOne(String(item.workspaceId))] : []),
        auditOp(
          {
            workspaceId: String(item.workspaceId),
            actor,
            action: 'api-key.revoked',
            target: { type: 'api-key', id },
            changes: { revokedAt: { from: null, to: now.toISOString() } },
          },
          now,
        ),
      ]);
      return toRecord({ ...item, revokedAt: now.toISOString() });
    } catch (err) {
      if (!(err instanceof KeyChanged)) throw err;
    }
  }
  throw new Error('revoke: the key kept changing');
}

export interface KeyChange {
  name?: string;
  scopes?: Scope[];
  perMinute?: number;
  perHour?: number;
  /** null clears the expiry. */
  expiresAt?: string | null;
}

/**
 * Applies a change to a key (its audit entry in the same transaction); undefined when no such key. A change
 * that makes a key active again whose slot under the bound was released (it had expired, or its roll's
 * grace had ended) takes a slot in the same transaction: at the bound it is 409, like a create.
 */
export async function updateApiKey(id: string, change: KeyChange, actor = ADMIN_CLI): Promise<ApiKeyRecord | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const item = await itemById(id);
    if (!item) return undefined;
    const before = toRecord(item);
    const after = { ...before, ...change, expiresAt: change.expiresAt === null ? undefined : (change.expiresAt ?? before.expiresAt) } as ApiKeyRecord;
    const changes = diff(before, after, AUDITED);
    if (Object.keys(changes).length === 0) return before;
    const released = Boolean(item.released);
    const revives = released && !before.revokedAt && keyState(after) === 'active';
    const names: Record<string, string> = {};
    const values: Record<string, ExpressionValue> = {};
    const sets: string[] = [];
    const removes: string[] = [];
    Object.entries(change).forEach(([k, v], i) => {
      if (v === undefined) return;
      names[`#a${i}`] = k;
      if (v === null) removes.push(`#a${i}`);
      else {
        values[`:a${i}`] = v;
        sets.push(`#a${i} = :a${i}`);
      }
    });
    if (revives) removes.push('released');
    values[':v'] = item.createdAt;
    if (released) values[':t'] = true;
    const ops: WriteOp[] = [
      {
        item: {
          Update: {
            TableName: tableName(),
            Key: { PK: item.PK, SK: item.SK },
            UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].filter(Boolean).join(' '),
            // the slot state read is the one written against (a create releasing expired slots meanwhile: read again)
            ConditionExpression: `attribute_exists(PK) AND createdAt = :v AND ${released ? 'released = :t' : 'attribute_not_exists(released)'}`,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          },
        },
        onConditionFail: () => new KeyChanged(),
      },
      auditOp({ workspaceId: before.workspaceId, actor, action: 'api-key.updated', target: { type: 'api-key', id }, changes }),
    ];
    try {
      if (revives) await underBound(before.workspaceId, () => writeAll([countOne(before.workspaceId), ...ops]));
      else await writeAll(ops);
      return await findById(id);
    } catch (err) {
      if (!(err instanceof KeyChanged)) throw err;
    }
  }
  throw busy('The key kept changing; retry');
}

export function updateApiKeyLimits(id: string, limits: { perMinute?: number; perHour?: number }): Promise<ApiKeyRecord | undefined> {
  return updateApiKey(id, limits);
}

/**
 * Rolls a key: a new key with the old one's name, scopes, limits and expiry, and the old key's expiry moved
 * to now + `graceSeconds` (never later than its own), in one transaction. The pair says so: the new key
 * `replaces` the old, the old is `replacedBy` the new. The old key keeps the expiry it had before its first
 * roll (`preRollExpiresAt`), so rolling it again during its grace (its successor revoked or lost) gives a
 * successor that expiry, not the grace's end. A key whose successor is active cannot be rolled again (409:
 * roll the successor), and the old key's update is conditional on the successor it had when read: of
 * concurrent rolls exactly one commits, the others are 409. The new key takes a slot under the bound; the old one keeps its
 * slot until it is revoked or its slot is released after expiry. Undefined when no such key.
 */
export async function rollApiKey(
  id: string,
  graceSeconds: number,
  createdBy: string,
  now = new Date(),
): Promise<{ key: string; record: ApiKeyRecord; previous: ApiKeyRecord } | undefined> {
  const item = await itemById(id);
  if (!item) return undefined;
  const old = toRecord(item);
  const state = keyState(old, now);
  if (state !== 'active') throw conflict(`Only an active key can be rolled; this one is ${state}`);
  const wanted = now.getTime() + graceSeconds * 1000;
  const oldExpiresAt = new Date(old.expiresAt ? Math.min(wanted, Date.parse(old.expiresAt)) : wanted).toISOString();
  if (old.replacedBy) {
    // one live successor at a time: rolling again is for a successor lost or revoked during the grace
    const successor = await findById(old.replacedBy);
    if (successor && keyState(successor, now) === 'active')
      throw conflict(`This key was already rolled: its successor ${successor.prefix ?? successor.id} is active; roll that one, or revoke it first`);
  }
  const firstRoll = old.preRollExpiresAt === undefined;
  const successorExpiresAt = firstRoll ? old.expiresAt : (old.preRollExpiresAt ?? undefined);
  const made = newKeyItem({
    workspaceId: old.workspaceId,
    name: old.name,
    scopes: old.scopes,
    perMinute: old.perMinute,
    perHour: old.perHour,
    createdBy,
    replaces: old.id,
    ...(successorExpiresAt ? { expiresAt: successorExpiresAt } : {}),
  });
  try {
    await underBound(old.workspaceId, () =>
      writeAll([
        countOne(old.workspaceId),
        made.op,
        {
          item: {
            Update: {
              TableName: tableName(),
              Key: { PK: item.PK, SK: item.SK },
              UpdateExpression: `SET expiresAt = :e, replacedBy = :new${firstRoll ? ', preRollExpiresAt = :pre' : ''}`,
              ConditionExpression: `attribute_exists(PK) AND attribute_not_exists(revokedAt) AND ${old.replacedBy ? 'replacedBy = :prev' : 'attribute_not_exists(replacedBy)'}`,
              ExpressionAttributeValues: {
                ':e': oldExpiresAt,
                ':new': made.record.id,
                ...(firstRoll ? { ':pre': old.expiresAt ?? null } : {}),
                ...(old.replacedBy ? { ':prev': old.replacedBy } : {}),
              },
            },
          },
          onConditionFail: () => new KeyChanged(),
        },
        auditOp({
          workspaceId: old.workspaceId,
          actor: createdBy,
          action: 'api-key.rolled',
          target: { type: 'api-key', id: old.id },
          changes: {
            expiresAt: { from: old.expiresAt ?? null, to: oldExpiresAt },
            replacedBy: { from: old.replacedBy ?? null, to: made.record.id },
            newKeyId: { to: made.record.id },
            newKeyPrefix: { to: made.record.prefix },
          },
        }),
      ]),
    );
  } catch (err) {
    if (err instanceof KeyChanged) throw conflict('This key was rolled or revoked meanwhile; read it again');
    throw err;
  }
  return {
    key: made.key,
    record: made.record,
    previous: toRecord({ ...item, expiresAt: oldExpiresAt, replacedBy: made.record.id, ...(firstRoll ? { preRollExpiresAt: old.expiresAt ?? null } : {}) }),
  };
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

/** Test helper and admin use: the number the bound counts (0 when the workspace has no counter yet). */
export async function activeKeyCount(workspaceId: string): Promise<number> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: keys.apiKeyCounter(workspaceId), ConsistentRead: true }));
  return Number(res.Item?.active ?? 0);
}
