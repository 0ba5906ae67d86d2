import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException, type AttributeValue, type CancellationReason } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { db, tableName, type StoredItem } from './db';
import { ITEM_TYPES } from './item-types';
import { keys, type Key } from './keys';
import { TABLE_TTL_ATTRIBUTE as TTL, TYPE_ATTRIBUTE as TYPE } from './table';
import type { WriteOp } from './write';

/**
 * The storage side of Idempotency-Key (the HTTP side is shared/api/idempotency.ts): the key's record is
 * written IN the transaction of the write it guards (Stripe's "atomic phases"), so the change and the answer
 * it gave commit together or not at all. There is no in-progress record and no second write:
 * - the record: `WS#<ws>#IDEMPOTENCY` / `KEY#<SHA-256 of the key>`, holding the request's fingerprint, the
 *   answer (status, body, headers) and `ttl` = 24 h after the write. It is written with the condition "no
 *   live record of this key" (absent, or its `ttl` passed: DynamoDB's TTL deletes late, so expiry is
 *   checked, never assumed);
 * - the write that carries it: the request's first record transaction (shared/data/repository.ts, `commit`,
 *   through `commitKept`); a write of its own (the console's) adds it with `commitKept` too;
 * - a repeat: the request's first consistent read of a record (an update's, a delete's, a rule's lookup)
 *   is a BatchGetItem of that record and the key's record: a live record answers at once (`KeyTaken`), so a
 *   repeated PUT or DELETE costs that one read. A write that reads no record first (a create) reads the
 *   change feed's counter that way instead of taking its position with an UpdateItem (shared/data/changes.ts,
 *   `claimPositions`), so its repeat costs one read too. A concurrent repeat learns it at the commit: the
 *   transaction is cancelled on the record's condition, and DynamoDB returns the record with the
 *   cancellation (ReturnValuesOnConditionCheckFailure), so no second effect and no extra read;
 * - an answer that no transaction carries (a refusal decided by the data, 404/409/412; an effect outside the
 *   table, a webhook ping) is kept by one conditional PutItem (`keep`), which answers `KeyTaken` the same way.
 * Everything is per request, through AsyncLocalStorage: outside a keyed request none of this runs.
 */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;

/** What is kept and replayed: the status, body and the headers that describe the resource (ETag). */
export interface KeptAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}
/** A live record of a key: what the request that wrote it sent (its fingerprint) and what it answered. */
export interface KeptRecord {
  fingerprint: string;
  answer: KeptAnswer;
}

/** The key has a live record (written by an earlier or a concurrent request): answer from it, never run again. */
export class KeyTaken extends Error {
  /** The record when DynamoDB returned it with the refusal; else the caller reads it (`KeyedWrite.read`). */
  constructor(readonly record: KeptRecord | undefined) {
    super('idempotency key taken');
    this.name = 'KeyTaken';
  }
}

/** What a keyed request declares before it runs. */
export interface KeyedRequest {
  workspaceId: string;
  key: string;
  /** The request as the key binds it (method, path, query, body, conditions), hashed by the API layer. */
  fingerprint: string;
  /** The answer a record write's result gives (the route's success status, the record, its ETag). */
  answerOf: (result: unknown) => KeptAnswer;
}

/** The answer of a claimed key whose work still runs (`KeyedWrite.claim`). */
export const PENDING: KeptAnswer = { status: 0, body: null, headers: {} };
export const isPending = (answer: KeptAnswer): boolean => answer.status === PENDING.status;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const isLive = (item: StoredItem | undefined): item is StoredItem => !!item && item[TYPE] === ITEM_TYPES.idempotency && Number(item[TTL]) >= nowSeconds();
const recordOf = (item: StoredItem): KeptRecord => ({ fingerprint: String(item.fingerprint), answer: JSON.parse(String(item.answer)) as KeptAnswer });
/** The record DynamoDB returned with a failed condition (low-level attribute values: errors are not unmarshalled), if it is live. */
const returned = (item: Record<string, AttributeValue> | undefined): KeptRecord | undefined => {
  const native = item && (typeof (item as StoredItem).PK === 'string' ? (item as StoredItem) : (unmarshall(item) as StoredItem));
  return isLive(native) ? recordOf(native) : undefined;
};
/** No live record of the key: none, or one whose 24 hours have passed (TTL deletion may lag by days). */
const NOT_LIVE = { ConditionExpression: 'attribute_not_exists(PK) OR #ttl < :now', ExpressionAttributeNames: { '#ttl': TTL } };

/** The state of one keyed request. */
export class KeyedWrite {
  /** The request's first consistent read has asked for the record (it was not live then). */
  checked = false;
  /** The answer a committed write (a transaction, or `keep`) holds for this key. */
  committed: KeptAnswer | undefined;
  readonly key: Key;

  constructor(readonly request: KeyedRequest) {
    this.key = keys.idempotency(request.workspaceId, createHash('sha256').update(request.key, 'utf8').digest('base64url'));
  }

  /** Runs `fn` as this keyed request: the reads and record writes it makes take the key into account. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return storage.run(this, fn);
  }

  item(answer: KeptAnswer): StoredItem {
    return { ...this.key, [TYPE]: ITEM_TYPES.idempotency, fingerprint: this.request.fingerprint, answer: JSON.stringify(answer), [TTL]: nowSeconds() + IDEMPOTENCY_WINDOW_SECONDS };
  }

  /** The record's op for a transaction writing `answer`, refused (`KeyTaken`, with the record) when the key is live. */
  op(answer: KeptAnswer): WriteOp {
    return {
      item: {
        Put: { TableName: tableName(), Item: this.item(answer), ...NOT_LIVE, ExpressionAttributeValues: { ':now': nowSeconds() }, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' },
      },
      onConditionFail: (reason?: CancellationReason) => new KeyTaken(returned(reason?.Item)),
    };
  }

  /** Keeps an answer no transaction carried: one conditional PutItem; `KeyTaken` when the key is live. */
  async keep(answer: KeptAnswer): Promise<void> {
    if (this.committed) return;
    try {
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: this.item(answer),
          ...NOT_LIVE,
          ExpressionAttributeValues: { ':now': nowSeconds() },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) throw new KeyTaken(returned(err.Item));
      throw err;
    }
    this.committed = answer;
  }

  /** Takes back a kept answer whose effect then failed (so the key stays usable); only this request's own. */
  async forget(): Promise<void> {
    if (!this.committed) return;
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: this.key,
        ConditionExpression: 'fingerprint = :f AND answer = :a',
        ExpressionAttributeValues: { ':f': this.request.fingerprint, ':a': JSON.stringify(this.committed) },
      }),
    );
    this.committed = undefined;
  }

  /**
   * Claims the key before work no record transaction carries (the console's actions, which write through
   * their own stores): a record with no answer yet (`PENDING`), live for `seconds` only, so a claim whose
   * request crashed frees the key soon; `KeyTaken` (with the record) when the key is live.
   */
  async claim(seconds: number): Promise<void> {
    try {
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...this.item(PENDING), [TTL]: nowSeconds() + seconds },
          ...NOT_LIVE,
          ExpressionAttributeValues: { ':now': nowSeconds() },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) throw new KeyTaken(returned(err.Item));
      throw err;
    }
  }

  /** Settles this request's own claim with its answer, kept for the whole window. */
  async settle(answer: KeptAnswer): Promise<void> {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: this.key,
        UpdateExpression: 'SET answer = :a, #ttl = :t',
        ConditionExpression: 'fingerprint = :f AND answer = :p',
        ExpressionAttributeNames: { '#ttl': TTL },
        ExpressionAttributeValues: { ':a': JSON.stringify(answer), ':t': nowSeconds() + IDEMPOTENCY_WINDOW_SECONDS, ':f': this.request.fingerprint, ':p': JSON.stringify(PENDING) },
      }),
    );
    this.committed = answer;
  }

  /** Gives this request's own claim back (its work failed in a way a retry may not): the key stays usable. */
  async release(): Promise<void> {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: this.key,
        ConditionExpression: 'fingerprint = :f AND answer = :p',
        ExpressionAttributeValues: { ':f': this.request.fingerprint, ':p': JSON.stringify(PENDING) },
      }),
    );
  }

  /** The key's live record, if any (one consistent GetItem). */
  async read(): Promise<KeptRecord | undefined> {
    const res = await db().send(new GetCommand({ TableName: tableName(), Key: this.key, ConsistentRead: true }));
    return isLive(res.Item) ? recordOf(res.Item) : undefined;
  }
}

const storage = new AsyncLocalStorage<KeyedWrite>();
/** The keyed request this code runs in, if any. */
export const currentKeyedWrite = (): KeyedWrite | undefined => storage.getStore();

/**
 * Commits `ops` (through `commit`: writeAll, writeWithChange) with the key's record first among them, the
 * record holding the answer `result` gives, when this runs in a keyed request whose record no write holds
 * yet; else commits `ops` alone. First, so a failed record condition is the reason reported (writeAll
 * reports the first failed op): the request then answers from the record (`KeyTaken`).
 */
export async function commitKept<T>(result: unknown, ops: readonly WriteOp[], commit: (ops: WriteOp[]) => Promise<T>): Promise<T> {
  const keyed = storage.getStore();
  if (!keyed || keyed.committed) return commit([...ops]);
  const answer = keyed.request.answerOf(result);
  const out = await commit([keyed.op(answer), ...ops]);
  keyed.committed = answer;
  return out;
}

/** How many items `commitKept` adds to a transaction here (0 or 1): counted against its 100-item limit. */
export const keptItems = (): number => {
  const keyed = storage.getStore();
  return keyed && !keyed.committed ? 1 : 0;
};

/** A keyed request whose key no read or write has looked at yet: its next `consistentGet` also reads the key's record. */
export const keyedUnread = (): boolean => {
  const keyed = storage.getStore();
  return !!keyed && !keyed.checked && !keyed.committed;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sameKey = (a: StoredItem, b: Key) => a.PK === b.PK && a.SK === b.SK;

/**
 * A strongly consistent read of one item. The first such read of a keyed request also reads the key's
 * record, in the same call (BatchGetItem): a live record throws `KeyTaken` before anything is written.
 */
export async function consistentGet(key: Key): Promise<StoredItem | undefined> {
  const keyed = storage.getStore();
  if (!keyed || keyed.checked || keyed.committed) {
    return (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
  }
  keyed.checked = true;
  const table = tableName();
  const found: StoredItem[] = [];
  let pending: Key[] = [key, keyed.key];
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await sleep(Math.random() * 10 * 2 ** Math.min(attempt, 6));
    const res = await db().send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }));
    found.push(...(res.Responses?.[table] ?? []));
    pending = (res.UnprocessedKeys?.[table]?.Keys ?? []) as Key[];
    if (pending.length > 0 && attempt >= 5) {
      // still throttled after a few rounds: the keys one by one, with the SDK's own retries
      for (const k of pending) {
        const item = (await db().send(new GetCommand({ TableName: table, Key: k, ConsistentRead: true }))).Item;
        if (item) found.push(item);
      }
      pending = [];
    }
  }
  const record = found.find((i) => sameKey(i, keyed.key));
  if (isLive(record)) throw new KeyTaken(recordOf(record));
  return found.find((i) => sameKey(i, key));
}
