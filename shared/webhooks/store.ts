import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ChangeEvent } from '../domain/changes';
import type { WebhookAttempt } from '../domain/webhook-attempt';
import { webhooks, type WebhookRecord } from '../domain/entities/webhooks';
import { ulid } from '../domain/ids';
import { db, queryAll, tableName } from '../data/db';
import { repository, type CreateValues, type FieldValues, type IfMatch } from '../data/repository';
import type { WriteOp } from '../data/write';
import { ITEM_TYPES } from '../data/item-types';
import { entityKey, keys } from '../data/keys';
import { queryPage } from '../data/paging';
import { getWebhookKeyRing, KEY_ID } from '../data/secrets';
import { TYPE_ATTRIBUTE as TYPE, VERSION_ATTRIBUTE } from '../data/table';

/**
 * Storage of webhook delivery (docs/data-model.md, "Webhooks"): the encrypted signing secrets, the
 * dispatcher's feed position per workspace, one delivery item per (endpoint, event) written once, the
 * attempt log, the directory of workspaces with webhooks and the local run's durable queue.
 */

/** Delivery items and attempts are kept as long as change events. */
const LOG_LIFETIME_S = 31 * 86_400;
const ttlIn = (seconds: number) => Math.floor(Date.now() / 1000) + seconds;

// ---- secrets: AES-256-GCM under a key of the webhook key ring (shared/data/secrets.ts), never the cursor secret ----

const derived = new Map<string, Buffer>();
/** The AES key of one key of the ring (HKDF of its material; cached by material). */
function aesKey(material: string): Buffer {
  let key = derived.get(material);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', material, 'timetrack-webhooks', 'webhook-secret-v2', 32));
    derived.set(material, key);
  }
  return key;
}
/** The material of key `id`: from the cached ring, else from the ring fetched again (a newer ring sealed it). */
async function keyMaterial(id: string): Promise<string> {
  const material = (await getWebhookKeyRing()).keys.get(id) ?? (await getWebhookKeyRing(true)).keys.get(id);
  if (material === undefined) throw new Error(`unreadable webhook secret: key ${id} is not in the webhook key ring (removed before every secret was re-encrypted?)`);
  return material;
}
/** The key id a sealed secret names (`v2.<key id>.…`). */
export function sealedKeyId(sealed: string): string | undefined {
  const [v, kid] = sealed.split('.');
  return v === 'v2' && kid !== undefined && KEY_ID.test(kid) ? kid : undefined;
}
/**
 * `v2.<key id>.<iv>.<tag>.<ciphertext>` (iv, tag, ciphertext base64url), sealed under the ring's current
 * key: the secret can be recovered to sign, never read from the table as it is, and the key id says which
 * key of the ring opens it (rotation keeps old ciphertexts readable).
 */
export async function encryptSecret(secret: string): Promise<string> {
  const ring = await getWebhookKeyRing();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', aesKey(ring.keys.get(ring.current)!), iv);
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v2', ring.current, ...[iv, cipher.getAuthTag(), data].map((p) => p.toString('base64url'))].join('.');
}
export async function decryptSecret(sealed: string): Promise<string> {
  const [v, kid, iv, tag, data] = sealed.split('.');
  if (v !== 'v2' || !kid || !KEY_ID.test(kid) || !iv || !tag || data === undefined) throw new Error('unreadable webhook secret');
  const decipher = createDecipheriv('aes-256-gcm', aesKey(await keyMaterial(kid)), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/** What `reencryptSecrets` did: secrets sealed again, and how many ciphertexts each key id still seals afterwards. */
export interface ReencryptReport {
  current: string;
  workspaces: number;
  webhooks: number;
  reencrypted: number;
  /** Ciphertexts per key id after the run: a key absent here (and not current) may be removed from the ring. */
  inUse: Record<string, number>;
}
/**
 * Seals every stored webhook secret (and a previous secret still kept) that another key than the ring's
 * current one seals, under the current key: one conditional UpdateItem per webhook (only when its sealed
 * values are still those read; `_v` bumped, so a concurrent update of the webhook re-reads). Workspaces
 * come from the webhook directory. Idempotent: run it again until `inUse` names only the current key.
 */
export async function reencryptSecrets(): Promise<ReencryptReport> {
  const ring = await getWebhookKeyRing();
  const report: ReencryptReport = { current: ring.current, workspaces: 0, webhooks: 0, reencrypted: 0, inUse: {} };
  const count = (sealed: string | undefined) => {
    const kid = sealed === undefined ? undefined : (sealedKeyId(sealed) ?? 'unknown');
    if (kid) report.inUse[kid] = (report.inUse[kid] ?? 0) + 1;
  };
  for (const workspaceId of await directory()) {
    report.workspaces++;
    for (const ep of await endpointsOf(workspaceId)) {
      report.webhooks++;
      const stale = (s: string | undefined) => s !== undefined && sealedKeyId(s) !== ring.current;
      if (!stale(ep.sealedSecret) && !stale(ep.sealedPrevSecret)) {
        count(ep.sealedSecret);
        count(ep.sealedPrevSecret);
        continue;
      }
      const secret = stale(ep.sealedSecret) ? await encryptSecret(await decryptSecret(ep.sealedSecret)) : ep.sealedSecret;
      const prev = ep.sealedPrevSecret !== undefined && stale(ep.sealedPrevSecret) ? await encryptSecret(await decryptSecret(ep.sealedPrevSecret)) : ep.sealedPrevSecret;
      try {
        await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: entityKey(webhooks, workspaceId, { id: ep.id }),
            UpdateExpression: `SET #s = :s, #v = #v + :one${prev !== undefined ? ', #p = :p' : ''}`,
            ConditionExpression: `#s = :was${ep.sealedPrevSecret !== undefined ? ' AND #p = :pwas' : ' AND attribute_not_exists(#p)'}`,
            ExpressionAttributeNames: { '#s': '_secret', '#p': '_prevSecret', '#v': VERSION_ATTRIBUTE },
            ExpressionAttributeValues: {
              ':s': secret,
              ':was': ep.sealedSecret,
              ':one': 1,
              ...(prev !== undefined ? { ':p': prev } : {}),
              ...(ep.sealedPrevSecret !== undefined ? { ':pwas': ep.sealedPrevSecret } : {}),
            },
          }),
        );
        report.reencrypted++;
        count(secret);
        count(prev);
      } catch (err) {
        if (!(err instanceof ConditionalCheckFailedException)) throw err;
        // changed meanwhile (rotated, deleted): counted as it was; the next run seals it again if needed
        count(ep.sealedSecret);
        count(ep.sealedPrevSecret);
      }
    }
  }
  return report;
}

// ---- endpoints as the delivery code needs them (internals included) ----

export interface Endpoint {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  readable: string[];
  activeSince: string;
  sealedSecret: string;
  sealedPrevSecret?: string;
  prevSecretUntil?: number;
  failedEvents: number;
  /** The API key that made (or last re-enabled) it: its scopes bound what it delivers (shared/webhooks/key-power.ts). */
  createdByKey?: string;
}
/** An endpoint's item as this store writes it: the record's fields and the internals the API never shows. */
type EndpointItem = WebhookRecord & {
  [TYPE]: typeof webhooks.type;
  _readable?: string[];
  _activeSince?: string;
  _secret: string;
  _prevSecret?: string;
  _prevSecretUntil?: number;
  _failedEvents?: number;
  _createdByKey?: string;
};
/** An item of the endpoint type is an endpoint's item (written by the repository and this store only). */
const isEndpointItem = (item: { readonly [TYPE]?: unknown }): item is EndpointItem => item[TYPE] === webhooks.type;
function endpointOf(item: EndpointItem): Endpoint {
  return {
    id: item.id,
    url: item.url,
    events: item.events ?? [],
    enabled: item.enabled !== false,
    readable: item._readable ?? [],
    activeSince: item._activeSince ?? item.createdAt,
    sealedSecret: item._secret,
    ...(item._prevSecret ? { sealedPrevSecret: String(item._prevSecret), prevSecretUntil: Number(item._prevSecretUntil ?? 0) } : {}),
    failedEvents: Number(item._failedEvents ?? 0),
    ...(item._createdByKey ? { createdByKey: String(item._createdByKey) } : {}),
  };
}
/** What a create of an endpoint stores besides its fields: the secret (sealed here), who made it and what it may send. */
export interface NewEndpoint {
  secret: string;
  /** The resources whose events it may send: those its creating key could read. */
  readable: readonly string[];
  createdByKey: string;
}
/**
 * Creates an endpoint: its record through the entity's repository (so its change event, bound and locks go
 * in the same transaction) with its internals (`_secret` sealed, `_readable`, `_activeSince`,
 * `_failedEvents`, `_createdByKey`), and lists the workspace in the dispatcher's directory.
 */
export async function createEndpoint(workspaceId: string, fields: CreateValues<typeof webhooks>, made: NewEndpoint) {
  await addToDirectory(workspaceId);
  return repository(webhooks).create(workspaceId, fields, {
    system: {
      internals: {
        _secret: await encryptSecret(made.secret),
        _readable: [...made.readable],
        _activeSince: new Date().toISOString(),
        _failedEvents: 0,
        _createdByKey: made.createdByKey,
      },
    },
  });
}
/**
 * Updates an endpoint's fields (If-Match as `ifMatch`); `resume`: re-enabled, it sends the events from now on
 * and forgets the failures that disabled it.
 */
export async function updateEndpoint(
  workspaceId: string,
  id: string,
  fields: FieldValues<typeof webhooks>,
  opts: { ifMatch?: IfMatch; resume?: { byKey?: string }; also?: readonly WriteOp[] },
) {
  // resuming: events from now on, the failures that disabled it forgotten; a key that resumes it becomes its key
  const internals = opts.resume ? { _activeSince: new Date().toISOString(), _failedEvents: 0, ...(opts.resume.byKey ? { _createdByKey: opts.resume.byKey } : {}) } : undefined;
  return repository(webhooks).update(workspaceId, { id }, fields, {
    ...(opts.ifMatch !== undefined ? { ifMatch: opts.ifMatch } : {}),
    ...(internals ? { system: { internals } } : {}),
    ...(opts.also ? { also: opts.also } : {}),
  });
}
/** Seals a new signing secret; the one it replaces still signs (as the previous secret) for `previousForMs`. */
export async function rotateEndpointSecret(workspaceId: string, before: Endpoint, secret: string, previousForMs: number): Promise<void> {
  await repository(webhooks).update(
    workspaceId,
    { id: before.id },
    {},
    { system: { internals: { _secret: await encryptSecret(secret), _prevSecret: before.sealedSecret, _prevSecretUntil: Date.now() + previousForMs } } },
  );
}

/** Every endpoint of a workspace (one Query of its `WEBHOOK#` items). */
export async function endpointsOf(workspaceId: string): Promise<Endpoint[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
    ExpressionAttributeValues: { ':pk': keys.workspacePartition(workspaceId), ':p': 'WEBHOOK#' },
    ConsistentRead: true,
  });
  return items.filter(isEndpointItem).map(endpointOf);
}
export async function endpoint(workspaceId: string, id: string): Promise<Endpoint | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: entityKey(webhooks, workspaceId, { id }), ConsistentRead: true }));
  return res.Item && isEndpointItem(res.Item) ? endpointOf(res.Item) : undefined;
}

/**
 * Counts an event that exhausted its retries (`_failedEvents` + 1) and returns the new count; a
 * delivered event resets the count (only written when it is not already 0).
 */
export async function countExhausted(workspaceId: string, id: string): Promise<number> {
  try {
    const res = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: entityKey(webhooks, workspaceId, { id }),
        UpdateExpression: 'ADD #f :one',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#f': '_failedEvents' },
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(res.Attributes?._failedEvents ?? 0);
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return 0; // deleted meanwhile
    throw err;
  }
}
export async function resetExhausted(workspaceId: string, id: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: entityKey(webhooks, workspaceId, { id }),
        UpdateExpression: 'SET #f = :zero',
        ConditionExpression: 'attribute_exists(PK) AND #f > :zero',
        ExpressionAttributeNames: { '#f': '_failedEvents' },
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    );
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
  }
}

// ---- the directory of workspaces with webhooks (what the local delivery loop wakes) ----

export async function addToDirectory(workspaceId: string): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...keys.webhookDirectory(workspaceId), [TYPE]: ITEM_TYPES.webhookDirectory } }));
}
export async function directory(): Promise<string[]> {
  const items = await queryAll({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': keys.webhookDirectoryPartition } });
  return items.map((item) => String(item.SK));
}

// ---- the dispatcher's position in each workspace's feed ----

export async function dispatchPosition(workspaceId: string): Promise<number> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: keys.dispatchPosition(workspaceId), ConsistentRead: true }));
  return Number(res.Item?.position ?? 0);
}
/** Moves the position forward (never back: a slower concurrent dispatcher cannot undo a faster one). */
export async function advanceDispatch(workspaceId: string, position: number): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.dispatchPosition(workspaceId),
        UpdateExpression: 'SET #p = :p, #t = :t',
        ConditionExpression: 'attribute_not_exists(#p) OR #p < :p',
        ExpressionAttributeNames: { '#p': 'position', '#t': TYPE },
        ExpressionAttributeValues: { ':p': position, ':t': ITEM_TYPES.webhookDispatch },
      }),
    );
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
  }
}
/** The last feed position taken in the workspace (0 when none). */
export async function lastFeedPosition(workspaceId: string): Promise<number> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: keys.changeSequence(workspaceId), ConsistentRead: true }));
  return Number(res.Item?.n ?? 0);
}

// ---- deliveries and attempts ----

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'dropped';
export interface Delivery {
  workspaceId: string;
  webhookId: string;
  event: ChangeEvent;
  status: DeliveryStatus;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due (ms since the epoch). */
  nextAttemptAt: number;
}

/**
 * Writes the delivery of an event to an endpoint unless it exists (the condition makes a re-dispatched
 * event a no-op). Returns the stored delivery either way.
 */
export async function ensureDelivery(workspaceId: string, webhookId: string, event: ChangeEvent): Promise<Delivery> {
  const fresh: Delivery = { workspaceId, webhookId, event, status: 'pending', attempts: 0, nextAttemptAt: Date.now() };
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.delivery(workspaceId, webhookId, event.id), [TYPE]: ITEM_TYPES.delivery, ...fresh, ttl: ttlIn(LOG_LIFETIME_S) },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return fresh;
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
    return (await getDelivery(workspaceId, webhookId, event.id))!;
  }
}
export async function getDelivery(workspaceId: string, webhookId: string, eventId: string): Promise<Delivery | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: keys.delivery(workspaceId, webhookId, eventId), ConsistentRead: true }));
  const it = res.Item;
  if (!it) return undefined;
  return {
    workspaceId,
    webhookId,
    event: it.event as ChangeEvent,
    status: it.status as DeliveryStatus,
    attempts: Number(it.attempts),
    nextAttemptAt: Number(it.nextAttemptAt),
  };
}

/** One attempt as the deliveries route lists it (its schema: shared/domain/webhooks.ts). */
export type Attempt = WebhookAttempt;

/**
 * Records an attempt (keyed by its start time: the log lists attempts newest first) and the delivery's new state in a pair of writes: the state
 * update is conditional on the attempt count read (two processes handling one message record one
 * outcome each; the state keeps the first). Returns false when another process moved it on first.
 */
export async function recordAttempt(d: Delivery, attempt: Attempt, next: Pick<Delivery, 'status' | 'nextAttemptAt'>): Promise<boolean> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.attempt(d.workspaceId, d.webhookId, ulid(Date.parse(attempt.at))), [TYPE]: ITEM_TYPES.attempt, ...attempt, ttl: ttlIn(LOG_LIFETIME_S) },
    }),
  );
  return setDeliveryState(d, { ...next, attempts: attempt.attempt });
}
export async function setDeliveryState(d: Delivery, next: Pick<Delivery, 'status' | 'nextAttemptAt'> & { attempts?: number }): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.delivery(d.workspaceId, d.webhookId, d.event.id),
        UpdateExpression: 'SET #s = :s, #n = :n, #a = :a REMOVE #l',
        ConditionExpression: '#a = :was AND #s = :pending',
        ExpressionAttributeNames: { '#s': 'status', '#n': 'nextAttemptAt', '#a': 'attempts', '#l': 'leaseUntil' },
        ExpressionAttributeValues: { ':s': next.status, ':n': next.nextAttemptAt, ':a': next.attempts ?? d.attempts, ':was': d.attempts, ':pending': 'pending' },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/**
 * Claims the next attempt of a delivery for `leaseMs`, so that two handlers of one delivery (a message
 * queued twice by dispatchers running at once, or redelivered while still being handled) do not both
 * POST: 'claimed'; 'moved' when the delivery is no longer at the attempt read (handled meanwhile); or the
 * milliseconds until another handler's claim ends (the caller queues the message again for then: if that
 * handler died, its claim lapses and the attempt is made).
 */
export async function claimAttempt(d: Delivery, leaseMs: number): Promise<'claimed' | 'moved' | number> {
  const now = Date.now();
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.delivery(d.workspaceId, d.webhookId, d.event.id),
        UpdateExpression: 'SET #l = :until',
        ConditionExpression: '#a = :was AND #s = :pending AND (attribute_not_exists(#l) OR #l < :now)',
        ExpressionAttributeNames: { '#l': 'leaseUntil', '#a': 'attempts', '#s': 'status' },
        ExpressionAttributeValues: { ':until': now + leaseMs, ':was': d.attempts, ':pending': 'pending', ':now': now },
      }),
    );
    return 'claimed';
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
    const res = await db().send(new GetCommand({ TableName: tableName(), Key: keys.delivery(d.workspaceId, d.webhookId, d.event.id), ConsistentRead: true }));
    const it = res.Item;
    if (!it || it.status !== 'pending' || Number(it.attempts) !== d.attempts) return 'moved';
    return Math.max(0, Number(it.leaseUntil ?? 0) - now);
  }
}

/** The attempt log of an endpoint, newest first, one signed-cursor page at a time. */
export async function attemptsPage(workspaceId: string, webhookId: string, limit: number, cursor?: string): Promise<{ items: Attempt[]; nextCursor?: string; hasMore: boolean }> {
  const page = await queryPage({
    workspaceId,
    keyCondition: { expression: 'PK = :pk AND begins_with(SK, :p)', values: { ':pk': keys.webhookLogPartition(workspaceId, webhookId), ':p': 'ATTEMPT#' } },
    scanForward: false,
    limit,
    ...(cursor !== undefined ? { cursor } : {}),
  });
  const items = page.items.map((it): Attempt => {
    const a: Attempt = { eventId: String(it.eventId), type: String(it.type), attempt: Number(it.attempt), at: String(it.at), durationMs: Number(it.durationMs) };
    if (it.statusCode !== undefined) a.statusCode = Number(it.statusCode);
    if (it.error !== undefined) a.error = String(it.error);
    if (it.nextRetryAt !== undefined) a.nextRetryAt = String(it.nextRetryAt);
    return a;
  });
  return { items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), hasMore: page.hasMore };
}
