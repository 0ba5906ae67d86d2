/**
 * Every storage key of the table is built here, and nowhere else: entity keys and index keys from the
 * composites of the entity declarations (shared/domain/entities/*), plus the keys of the items that are
 * not entities (uniqueness locks, API keys, rate counters). Every key of workspace data starts with
 * `WS#<workspaceId>`, so no Query or GetItem built from a caller's workspace can reach another's.
 * docs/data-model.md lists the access patterns these keys serve.
 */
import type { AnyEntity, EntityRecord, IndexSlot, KeyPart } from '../domain/entity';
import { invalid } from '../domain/errors';

export interface Key {
  PK: string;
  SK: string;
}
/**
 * What key values are built from: fields of a record of the entity by name (the record itself, a locator's
 * id and sortKey, a list's filter values), any of them possibly absent.
 */
export type Composites = Readonly<Partial<EntityRecord<AnyEntity>>>;
/** A key of the table or of one of its indexes: 'key' is the table's own. */
export type AccessPattern = 'key' | IndexSlot;

const ws = (workspaceId: string) => `WS#${workspaceId}`;

/**
 * DynamoDB refuses a partition key over 2048 bytes or a sort key over 1024 bytes (UTF-8) with an error
 * that would be a 500. Ids are limited in characters (128), but escaped non-ASCII ids and long names
 * can still overflow a composite key: such a key is refused here as a 400 naming the request fields it
 * comes from (nothing with such a key can exist, so nothing is hidden by refusing to look it up).
 */
export const MAX_PARTITION_KEY_BYTES = 2048;
export const MAX_SORT_KEY_BYTES = 1024;
function fit(value: string, max: number, fields: readonly string[]): string {
  if (Buffer.byteLength(value, 'utf8') <= max) return value;
  const message = 'too long to be stored (non-ASCII characters count several bytes)';
  throw invalid(
    `${fields.join(', ')}: ${message}`,
    fields.map((field) => ({ field, message })),
  );
}

/**
 * A composite value inside a key. Free-form values are escaped (encodeURIComponent turns `#` into `%23`),
 * so two different (userId, projectId) pairs can never build the same key; the record's id and fields
 * declared keySafe (normalized instants, dates) go in as they are.
 */
function keyValue(e: AnyEntity, field: string, value: unknown): string {
  const s = String(value);
  return field === 'id' || e.fields[field]?.keySafe ? s : encodeURIComponent(s);
}
/**
 * Fields a too-long key is blamed on: the caller's free-form composites among the first `count` (not
 * keySafe ones, and not the record's id when another composite is there to blame: `FAVORITE#<userId>#<id>`
 * blames userId).
 */
function blamed(e: AnyEntity, part: KeyPart, count = part.composite?.length ?? 0): string[] {
  const free = (part.composite ?? []).slice(0, count).filter((f) => !e.fields[f]?.keySafe);
  const others = free.filter((f) => f !== 'id');
  return others.length ? others : free;
}

/** The values of a key part, or undefined when the record lacks one of its composites. */
function partValues(e: AnyEntity, part: KeyPart, rec: Composites, count = part.composite?.length ?? 0): string[] | undefined {
  const out: string[] = part.prefix ? [part.prefix] : [];
  for (const f of (part.composite ?? []).slice(0, count)) {
    const v = rec[f];
    if (v === undefined || v === null || v === '') return undefined;
    out.push(keyValue(e, f, v));
  }
  return out;
}

function partitionValue(e: AnyEntity, part: KeyPart, workspaceId: string, rec: Composites): string | undefined {
  const values = partValues(e, part, rec);
  return values && fit([ws(workspaceId), ...values].join('#'), MAX_PARTITION_KEY_BYTES, blamed(e, part));
}
function sortValue(e: AnyEntity, part: KeyPart, rec: Composites): string | undefined {
  const values = partValues(e, part, rec);
  return values && fit(values.join('#'), MAX_SORT_KEY_BYTES, blamed(e, part));
}

/** The key parts of an access pattern of an entity. */
export function patternOf(e: AnyEntity, pattern: AccessPattern): { pk: KeyPart; sk: KeyPart } {
  const decl = pattern === 'key' ? e.key : e.indexes?.[pattern];
  if (!decl) throw new Error(`${e.type} has no access pattern ${pattern}`);
  return decl as { pk: KeyPart; sk: KeyPart };
}
/** Attribute names of an access pattern's keys: PK/SK, or GSI1PK/GSI1SK. */
export const keyAttributes = (pattern: AccessPattern) => (pattern === 'key' ? { pk: 'PK', sk: 'SK' } : { pk: `${pattern}PK`, sk: `${pattern}SK` });

/** The table key of a record (every composite present). */
export function entityKey<E extends AnyEntity>(e: E, workspaceId: string, rec: Readonly<Partial<EntityRecord<E>>>): Key {
  const PK = partitionValue(e, e.key.pk as KeyPart, workspaceId, rec);
  const SK = sortValue(e, e.key.sk as KeyPart, rec);
  if (PK === undefined || SK === undefined) throw new Error(`${e.type}: a key composite is missing`);
  return { PK, SK };
}

/** The index attributes of a record: one pair per declared index whose composites the record has. */
export function indexKeys<E extends AnyEntity>(e: E, workspaceId: string, rec: Readonly<Partial<EntityRecord<E>>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, idx] of Object.entries(e.indexes ?? {})) {
    if (!idx || (idx.only && !idx.only.when(rec))) continue;
    const pk = partitionValue(e, idx.pk as KeyPart, workspaceId, rec);
    const sk = sortValue(e, idx.sk as KeyPart, rec);
    if (pk === undefined || sk === undefined) continue;
    out[`${name}PK`] = pk;
    out[`${name}SK`] = sk;
  }
  return out;
}

/**
 * The key of the record an API locator names (its id, plus the fields its routes address it by: the
 * userId of a favorite, the sortKey of a time entry), or undefined when the locator cannot name a
 * record of this entity (then the answer is 404 without a read).
 */
export function locateKey(e: AnyEntity, workspaceId: string, loc: Readonly<Record<string, string | undefined>> & { id: string }): Key | undefined {
  if (e.sortKeyField) {
    // The exposed sort key is the item's SK: it addresses this record only if it ends with its id.
    const sk = loc[e.sortKeyField];
    if (!sk || loc.id.includes('#') || !sk.endsWith(`#${loc.id}`)) return undefined;
    const PK = partitionValue(e, e.key.pk as KeyPart, workspaceId, loc);
    return PK === undefined ? undefined : { PK, SK: fit(sk, MAX_SORT_KEY_BYTES, ['id']) };
  }
  const PK = partitionValue(e, e.key.pk as KeyPart, workspaceId, loc);
  const SK = sortValue(e, e.key.sk as KeyPart, loc);
  return PK === undefined || SK === undefined ? undefined : { PK, SK };
}

/**
 * The partition of an access pattern for the given field values (all of its partition composites), and
 * the sort-key prefix its leading sort composites fill (`FAVORITE#<userId>#`), for Queries.
 */
export function queryKeys(e: AnyEntity, pattern: AccessPattern, workspaceId: string, where: Composites): { pk: string; skPrefix: string } {
  const { pk, sk } = patternOf(e, pattern);
  const pkValue = partitionValue(e, pk, workspaceId, where);
  if (pkValue === undefined) throw new Error(`${e.type} ${pattern}: partition composites missing`);
  let leading = 0;
  for (const f of sk.composite ?? []) {
    if (where[f] === undefined) break;
    leading++;
  }
  const values = partValues(e, sk, where, leading) ?? [];
  const prefix = values.length ? `${values.join('#')}#` : '';
  return { pk: pkValue, skPrefix: fit(prefix, MAX_SORT_KEY_BYTES, blamed(e, sk, leading)) };
}

export const keys = {
  workspacePartition: ws,

  /** Uniqueness lock: one item per (scope, normalized value); written in the same transaction. */
  uniqueLock: (workspaceId: string, lockName: string, value: string, field = 'name'): Key => ({
    PK: ws(workspaceId),
    SK: fit(`UNIQUE#${lockName}#${value}`, MAX_SORT_KEY_BYTES, [field]),
  }),

  /** API keys are found by the SHA-256 of the key: the key itself is never stored. */
  apiKey: (keyHash: string): Key => ({ PK: `APIKEY#${keyHash}`, SK: 'APIKEY' }),
  /** GSI1: a workspace's keys, newest first. */
  apiKeyByWorkspace: (workspaceId: string, createdAt: string, id: string) => ({ GSI1PK: `${ws(workspaceId)}#APIKEYS`, GSI1SK: `${createdAt}#${id}` }),
  apiKeyByWorkspacePartition: (workspaceId: string) => `${ws(workspaceId)}#APIKEYS`,
  /** GSI2: a key by its public id (revoke, update). */
  apiKeyById: (id: string) => ({ GSI2PK: `APIKEYID#${id}`, GSI2SK: 'APIKEY' }),
  apiKeyByIdPartition: (id: string) => `APIKEYID#${id}`,

  /**
   * Rate-limit counter: one item per key per clock hour, SK = the hour's start (ISO 8601), holding the
   * hour count `h` and one count per minute of the hour (`m00`..`m59`); `ttl` = hour end + 1 h.
   * Written by shared/data/rate-counter.ts with one conditional UpdateItem per request (docs/rate-limits.md).
   */
  rateCounter: (keyId: string, hourStart: string): Key => ({ PK: `RATE#${keyId}`, SK: hourStart }),

  /**
   * A bounded whole list's counter (shared/data/record-writes.ts, boundOps): how many records of the type
   * the workspace holds (or one user holds: `per` value) and how many bytes of JSON they weigh.
   */
  listBound: (workspaceId: string, type: string, perValue?: string): Key => ({
    PK: `${ws(workspaceId)}#LISTBOUND`,
    SK: fit(perValue === undefined ? type : `${type}#${encodeURIComponent(perValue)}`, MAX_SORT_KEY_BYTES, ['userId']),
  }),

  /**
   * The change feed (shared/data/changes.ts): the workspace's event sequence counter, and one item per
   * position of the sequence (an event, or a void where a write failed), zero-padded so the sort key
   * orders as the number does. Counter and events sit in separate partitions (their heat adds up otherwise).
   */
  /**
   * An Idempotency-Key's record (shared/data/idempotency.ts): one item per (workspace, key), SK = the
   * SHA-256 of the key (base64url), so any key the header allows fits; `ttl` = 24 h after its write.
   */
  idempotency: (workspaceId: string, keyHash: string): Key => ({ PK: `${ws(workspaceId)}#IDEMPOTENCY`, SK: `KEY#${keyHash}` }),

  changeSequence: (workspaceId: string): Key => ({ PK: `${ws(workspaceId)}#CHANGESEQ`, SK: 'SEQ' }),
  changeLogPartition: (workspaceId: string) => `${ws(workspaceId)}#CHANGES`,
  change: (workspaceId: string, position: number): Key => ({ PK: `${ws(workspaceId)}#CHANGES`, SK: changePositionKey(position) }),

  /**
   * A user's running timer (shared/data/timers.ts): one item per user holding the sortKey of the user's
   * running time entry, written in the same transaction as every write that starts or stops one.
   */
  runningTimer: (workspaceId: string, userId: string): Key => ({ PK: ws(workspaceId), SK: fit(`RUNNING#${encodeURIComponent(userId)}`, MAX_SORT_KEY_BYTES, ['userId']) }),

  /**
   * Report rollups (shared/data/rollups.ts): one partition per dimension (`U` user, `P` project, `C`
   * client, `T` task, `X` the combination user+project+client+task+billable), one item per period and
   * value: SK `M#<YYYY-MM>#<value>` (a UTC month) or `D#<YYYY-MM-DD>#<value>` (a UTC day).
   */
  rollupPartition: (workspaceId: string, dimension: string) => `${ws(workspaceId)}#RU#${dimension}`,
  /** The workspace of a change-log partition key (`WS#<ws>#CHANGES`), e.g. from a stream record; else undefined. */
  workspaceOfChangeLog: (pk: string): string | undefined => (pk.startsWith('WS#') && pk.endsWith('#CHANGES') ? pk.slice(3, -'#CHANGES'.length) : undefined),

  /**
   * Webhook delivery (shared/webhooks/store.ts). Per endpoint, one partition holds its deliveries (one
   * item per event, SK `DELIVERY#<eventId>`: written once, so a re-dispatched event is not sent twice)
   * and its attempt log (SK `ATTEMPT#<ulid>`, newest last). Per workspace, the dispatcher's feed
   * position. Outside any workspace: the directory of workspaces with webhooks and the local run's
   * queue (what SQS is in AWS).
   */
  webhookLogPartition: (workspaceId: string, webhookId: string) => `${ws(workspaceId)}#WEBHOOK#${webhookId}`,
  delivery: (workspaceId: string, webhookId: string, eventId: string): Key => ({ PK: `${ws(workspaceId)}#WEBHOOK#${webhookId}`, SK: `DELIVERY#${eventId}` }),
  attempt: (workspaceId: string, webhookId: string, attemptId: string): Key => ({ PK: `${ws(workspaceId)}#WEBHOOK#${webhookId}`, SK: `ATTEMPT#${attemptId}` }),
  dispatchPosition: (workspaceId: string): Key => ({ PK: `${ws(workspaceId)}#WEBHOOKS`, SK: 'DISPATCH' }),
  webhookDirectory: (workspaceId: string): Key => ({ PK: 'WEBHOOKDIR', SK: workspaceId }),
  webhookDirectoryPartition: 'WEBHOOKDIR',
  localQueuePartition: 'LOCALQUEUE',

  /**
   * Invoicing (shared/invoicing/store-numbers.ts): the workspace's invoice-number sequence (`n`, the last
   * number given), and one job item per invoice being made or released (its entries being locked or
   * released in batches), in the workspace's own partition `WS#<ws>#INVOICEJOBS` (so `dynamodb:LeadingKeys`
   * binds every function that writes one to workspace partitions), and on GSI1 in one partition
   * (`INVOICEJOBS`, GSI1SK `<ws>#<invoiceId>`) so the sweep finds every stalled job with one Query.
   */
  invoiceSequence: (workspaceId: string): Key => ({ PK: ws(workspaceId), SK: 'INVOICESEQ' }),
  invoiceJob: (workspaceId: string, invoiceId: string): Key => ({ PK: `${ws(workspaceId)}#INVOICEJOBS`, SK: invoiceId }),
  invoiceJobIndex: (workspaceId: string, invoiceId: string) => ({ GSI1PK: 'INVOICEJOBS', GSI1SK: `${workspaceId}#${invoiceId}` }),
  /** The GSI1 partition of every open invoicing job (the sweep's Query). */
  invoiceJobsPartition: 'INVOICEJOBS',
  /**
   * The workspace's billing profile (shared/invoicing/store-profile.ts): one item in the workspace's own
   * partition, read with one GetItem (the PDF's "From", a new invoice's defaults, the snapshot at send).
   */
  billingProfile: (workspaceId: string): Key => ({ PK: ws(workspaceId), SK: 'BILLINGPROFILE' }),

  /**
   * The console (shared/data/members.ts, shared/data/audit.ts, shared/data/apikey-store.ts). A workspace's
   * members sit in one partition (`WS#<ws>#MEMBERS`, SK `MEMBER#<email>`) next to its owner counter (SK
   * `COUNT`); GSI1 `PERSON#<email>` lists a person's memberships with one Query. The audit log is one
   * partition per workspace, SK `<ISO time>#<ulid>` (newest last, read backwards). The active-key counter of
   * the 500-key bound sits beside the keys' GSI1 partition name. Local sign-in accounts (the embedded
   * OpenID Provider's, never used in AWS) are `ACCOUNT#<email>`.
   */
  memberPartition: (workspaceId: string) => `${ws(workspaceId)}#MEMBERS`,
  member: (workspaceId: string, email: string): Key => ({ PK: `${ws(workspaceId)}#MEMBERS`, SK: fit(`MEMBER#${email}`, MAX_SORT_KEY_BYTES, ['email']) }),
  memberCounter: (workspaceId: string): Key => ({ PK: `${ws(workspaceId)}#MEMBERS`, SK: 'COUNT' }),
  memberByPerson: (email: string, workspaceId: string) => ({ GSI1PK: `PERSON#${email}`, GSI1SK: ws(workspaceId) }),
  memberByPersonPartition: (email: string) => `PERSON#${email}`,
  auditPartition: (workspaceId: string) => `${ws(workspaceId)}#AUDIT`,
  audit: (workspaceId: string, at: string, id: string): Key => ({ PK: `${ws(workspaceId)}#AUDIT`, SK: `${at}#${id}` }),
  apiKeyCounter: (workspaceId: string): Key => ({ PK: `${ws(workspaceId)}#APIKEYS`, SK: 'COUNT' }),
  account: (email: string): Key => ({ PK: `ACCOUNT#${email}`, SK: 'ACCOUNT' }),
  /** A one-time set-password link of the local provider, by SHA-256 of its token (never the token). */
  invitation: (tokenHash: string): Key => ({ PK: `INVITATION#${tokenHash}`, SK: 'INVITATION' }),
};

/** Sort key of a feed position: `EVT#` + 15 digits (positions up to 10^15 keep their order). */
export const changePositionKey = (position: number) => `EVT#${String(position).padStart(15, '0')}`;

/** The indexes the API-key items use (shared/data/apikey-store.ts), besides the entities' ones. */
export const API_KEY_INDEXES = ['GSI1', 'GSI2'] as const satisfies readonly IndexSlot[];
