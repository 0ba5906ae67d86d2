import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { invoices as invoiceEntity } from '../domain/entities/invoices';
import { timeEntries as timeEntryEntity } from '../domain/entities/time-entries';
import { conflict } from '../domain/errors';
import { sequenceOf } from './rules';
import { writeWithChange, type Change } from '../data/changes';
import { db, queryAll, tableName, type StoredItem } from '../data/db';
import { keys } from '../data/keys';
import { planQuery, queryInputOf, type Where } from '../data/query-plan';
import { lockOps, referenceOps } from '../data/record-writes';
import { repository } from '../data/repository';
import { REVISION_ATTRIBUTE as REVISION, TYPE_ATTRIBUTE as TYPE, VERSION_ATTRIBUTE as VERSION } from '../data/table';
import type { WriteOp } from '../data/write';
import { ITEM_TYPES } from '../data/item-types';

/**
 * The storage side of invoices made from time (docs/data-model.md, "Invoices from time"). The service
 * (shared/invoicing/service.ts) orchestrates; every write here is one transaction with its change events.
 *
 * - A **job item** (`WS#<ws>#INVOICEJOBS` / `<invoiceId>`, on GSI1 `INVOICEJOBS` / `<ws>#<invoiceId>`) exists while an invoice's entries are being locked
 *   (kind `create`, state `locking`) or released (state `releasing`). It counts the entries that carry the
 *   invoice's id (`locked`): every lock or release batch moves that count in its own transaction, under
 *   the condition that the job is in the state the writer holds. So the count is exact whatever fails.
 * - **Lock** (`lockBatch`): up to 49 entries per transaction, each `SET invoiceId` guarded by the version
 *   read and `attribute_not_exists(invoiceId)`, each with its `time-entry.updated` event, plus the job's
 *   `ADD locked` (49 + 49 + 1 = 99 actions of the 100 allowed).
 * - **Commit** (`commitInvoice`): one transaction puts the invoice (status draft), its number lock, the
 *   client's usage counter, the number sequence and the `invoice.created` event, and deletes the job under
 *   the condition `state = locking AND locked = <entries on the invoice>`. Before it, the invoice does not
 *   exist; after it, every one of its entries is locked and no job remains.
 * - **Release** (`releaseBatch`): `REMOVE invoiceId` guarded by the version read and `invoiceId = <id>`,
 *   each with its event, plus the job's `ADD locked -n` (state `releasing`).
 */
export const ENTRY_BATCH = 49;
const JOB_TYPE = ITEM_TYPES.invoiceJob;
const SEQUENCE_TYPE = ITEM_TYPES.invoiceSequence;
const invoices = () => repository(invoiceEntity);
const entries = () => repository(timeEntryEntity);

export type JobKind = 'create' | 'release';
export type JobState = 'locking' | 'releasing';
export interface InvoiceJob {
  workspaceId: string;
  invoiceId: string;
  kind: JobKind;
  state: JobState;
  clientId: string;
  /** The sort-key range of the invoice's period (its entries are the client's entries in it). */
  lo: string;
  hi: string;
  /** Entries that carry the invoice's id, counted by the same transactions that lock and release them. */
  locked: number;
  /** A job older than this (ms) whose writer did not finish is the sweep's (shared/invoicing/service.ts). */
  leaseUntil: number;
  createdAt: string;
  /** Who opened it (a random id): tells a writer's own Put, sent twice, from another writer's job. */
  token: string;
  /** A create made in steps (the console): the request it makes the invoice from, and the entries it found first. */
  request?: Record<string, unknown>;
  expected?: number;
  /** A release job: what it releases for (the invoice says `releasing` until the release ends; absent on jobs of before issue 32). */
  action?: 'void' | 'delete';
}

/** An entry of a batch is no longer as read (edited, locked or released by another writer): re-read it. */
export class EntriesChanged extends Error {
  constructor() {
    super('an entry changed since it was read');
    this.name = 'EntriesChanged';
  }
}
/** The job is gone or in another state (the sweep took it over): this writer must stop. */
export class JobLost extends Error {
  constructor() {
    super('the invoice job was taken over');
    this.name = 'JobLost';
  }
}
/** The number the sequence gave is taken (an invoice numbered by hand): resynchronise the sequence. */
export class NumberTaken extends Error {
  /** The sequence value whose number is taken (the sequence moves past it). */
  constructor(readonly n: number) {
    super('invoice number taken');
    this.name = 'NumberTaken';
  }
}
/** The sequence moved since it was read (another invoice was committed): read it again. */
export class SequenceMoved extends Error {
  constructor() {
    super('invoice sequence moved');
    this.name = 'SequenceMoved';
  }
}

// ------------------------------------------------------------------ jobs
const jobOf = (item: StoredItem): InvoiceJob => ({
  workspaceId: String(item.workspaceId),
  invoiceId: String(item.invoiceId),
  kind: item.kind as JobKind,
  state: item.state as JobState,
  clientId: String(item.clientId),
  lo: String(item.lo),
  hi: String(item.hi),
  locked: Number(item.locked ?? 0),
  leaseUntil: Number(item.leaseUntil ?? 0),
  createdAt: String(item.createdAt),
  token: String(item.token),
  ...(item.request && typeof item.request === 'object' ? { request: item.request as Record<string, unknown> } : {}),
  ...(typeof item.expected === 'number' ? { expected: item.expected } : {}),
  ...(item.action === 'void' || item.action === 'delete' ? { action: item.action } : {}),
});

/** Opens a job; 409 when one is open for the invoice (another void or delete of it is in progress). */
export async function openJob(job: InvoiceJob): Promise<void> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.invoiceJob(job.workspaceId, job.invoiceId), ...keys.invoiceJobIndex(job.workspaceId, job.invoiceId), [TYPE]: JOB_TYPE, ...job },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
    // our own Put, applied once already (its answer was lost and the SDK sent it again)?
    const stored = await readJob(job.workspaceId, job.invoiceId);
    if (stored?.token === job.token) return;
    throw conflict(`Invoice ${job.invoiceId} is being voided or deleted by another request; retry in a moment`);
  }
}

export async function readJob(workspaceId: string, invoiceId: string): Promise<InvoiceJob | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: keys.invoiceJob(workspaceId, invoiceId), ConsistentRead: true }));
  return res.Item && jobOf(res.Item);
}

/**
 * Moves a job from `locking` to `releasing` (its invoice will not be made): conditional on the state, and,
 * when `expiredAt` is given, on the lease having run out by then (the sweep does not take a live writer's job).
 * False when the job is not in `locking` (gone, or taken over already).
 */
export async function abandonJob(workspaceId: string, invoiceId: string, expiredAt?: number): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invoiceJob(workspaceId, invoiceId),
        UpdateExpression: 'SET #s = :releasing',
        ConditionExpression: `#s = :locking${expiredAt !== undefined ? ' AND #l < :now' : ''}`,
        ExpressionAttributeNames: { '#s': 'state', ...(expiredAt !== undefined ? { '#l': 'leaseUntil' } : {}) },
        ExpressionAttributeValues: { ':releasing': 'releasing', ':locking': 'locking', ...(expiredAt !== undefined ? { ':now': expiredAt } : {}) },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/** Extends a job's lease while its writer (a step of a create or of a release) works on it; false when it is no longer in `state`. */
export async function renewJob(workspaceId: string, invoiceId: string, leaseUntil: number, state: JobState = 'locking'): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invoiceJob(workspaceId, invoiceId),
        UpdateExpression: 'SET #l = :lease',
        ConditionExpression: '#s = :state',
        ExpressionAttributeNames: { '#s': 'state', '#l': 'leaseUntil' },
        ExpressionAttributeValues: { ':state': state, ':lease': leaseUntil },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/** Deletes a job once no entry carries its invoice's id (`locked = 0`), or unconditionally (`force`: a release job whose void never happened). */
export async function closeJob(workspaceId: string, invoiceId: string, force = false): Promise<boolean> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.invoiceJob(workspaceId, invoiceId),
        // (already gone counts as closed: a Delete sent twice after its answer was lost)
        ...(force
          ? {}
          : { ConditionExpression: 'attribute_not_exists(PK) OR #l = :zero', ExpressionAttributeNames: { '#l': 'locked' }, ExpressionAttributeValues: { ':zero': 0 } }),
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/** The job's count is not 0 yet (the client index has not shown every entry that carries the invoice's id). */
export class EntriesRemain extends Error {
  constructor() {
    super('entries still carry the invoice id');
    this.name = 'EntriesRemain';
  }
}

/** A write of the transaction that ends a release: the job deleted, on the condition that no entry carries its invoice's id any more. */
export const closeJobOp = (workspaceId: string, invoiceId: string): WriteOp => ({
  item: {
    Delete: {
      TableName: tableName(),
      Key: keys.invoiceJob(workspaceId, invoiceId),
      ConditionExpression: '#s = :releasing AND #l = :zero',
      ExpressionAttributeNames: { '#s': 'state', '#l': 'locked' },
      ExpressionAttributeValues: { ':releasing': 'releasing', ':zero': 0 },
    },
  },
  onConditionFail: () => new EntriesRemain(),
});

/**
 * A condition for a write's transaction: no job is open for this invoice (its key is the invoice's, so this is
 * one ConditionCheck rather than a Query of the workspace's jobs); `onOpen` is the error when one is.
 */
export const noJobOp = (workspaceId: string, invoiceId: string, onOpen: () => Error): WriteOp => ({
  item: { ConditionCheck: { TableName: tableName(), Key: keys.invoiceJob(workspaceId, invoiceId), ConditionExpression: 'attribute_not_exists(PK)' } },
  onConditionFail: onOpen,
});

/**
 * Every open job: one workspace's (its partition, read strongly consistent), or all of them (GSI1's
 * `INVOICEJOBS` partition, eventually consistent: a job a moment old may be missed, and the next sweep
 * finds it; every change the sweep makes is conditioned on the job's state and lease). What the sweep reads.
 */
export async function listJobs(workspaceId?: string): Promise<InvoiceJob[]> {
  const items = await queryAll(
    workspaceId === undefined
      ? { TableName: tableName(), IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': keys.invoiceJobsPartition } }
      : { TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': keys.invoiceJob(workspaceId, '').PK }, ConsistentRead: true },
  );
  return items.map(jobOf);
}

const jobOp = (workspaceId: string, invoiceId: string, state: JobState, delta: number): WriteOp => ({
  item: {
    Update: {
      TableName: tableName(),
      Key: keys.invoiceJob(workspaceId, invoiceId),
      UpdateExpression: 'ADD #l :d',
      ConditionExpression: '#s = :s',
      ExpressionAttributeNames: { '#l': 'locked', '#s': 'state' },
      ExpressionAttributeValues: { ':d': delta, ':s': state },
    },
  },
  onConditionFail: () => new JobLost(),
});

// ------------------------------------------------------------------ entries
/** The client's time entries in a sort-key range matching `where`, through the client index (GSI3) + filter. */
async function clientEntries(workspaceId: string, where: Where, range: { lo: string; hi: string }): Promise<StoredItem[]> {
  const items = await queryAll(queryInputOf(planQuery(timeEntryEntity, workspaceId, where, range)));
  return items.filter((item) => item[TYPE] === timeEntryEntity.type);
}

/** An entry that can go on an invoice of the client: billable, stopped (and longer than 0 minutes), on no invoice. */
export const invoiceable = (item: StoredItem, clientId: string, range: { lo: string; hi: string }): boolean =>
  item.clientId === clientId &&
  item.billable === true &&
  typeof item.durationMinutes === 'number' &&
  item.durationMinutes > 0 &&
  (item.invoiceId === undefined || item.invoiceId === null) &&
  String(item.SK) >= range.lo &&
  String(item.SK) <= range.hi;

/** The entries an invoice of the client for the range would take (GSI3, filter billable and not invoiced). */
export async function candidateEntries(workspaceId: string, clientId: string, range: { lo: string; hi: string }): Promise<StoredItem[]> {
  const items = await clientEntries(workspaceId, { clientId, billable: 'true', invoiced: 'false' }, range);
  return items.filter((i) => invoiceable(i, clientId, range));
}

/**
 * The entries that carry an invoice's id (GSI3 over the invoice's period, filter invoiceId); with `max`, the
 * first pages holding at least that many (a release step reads only what it can release).
 */
export async function entriesOfInvoice(workspaceId: string, invoiceId: string, clientId: string, range: { lo: string; hi: string }, max?: number): Promise<StoredItem[]> {
  if (max === undefined) return clientEntries(workspaceId, { clientId, invoiceId }, range);
  const input = queryInputOf(planQuery(timeEntryEntity, workspaceId, { clientId, invoiceId }, range));
  const out: StoredItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db().send(new QueryCommand({ ...input, ...(start ? { ExclusiveStartKey: start } : {}) }));
    out.push(...(res.Items ?? []).filter((item) => item[TYPE] === timeEntryEntity.type));
    start = res.LastEvaluatedKey;
  } while (start && out.length < max);
  return out;
}

/**
 * The stored entries of these keys, read strongly consistent: one GetItem each, at once (a batch is at most
 * ENTRY_BATCH). GetItem, not BatchGetItem: the functions' roles grant GetItem on the table (issue 32).
 */
export async function rereadEntries(items: readonly StoredItem[]): Promise<StoredItem[]> {
  const read = await Promise.all(items.map((it) => db().send(new GetCommand({ TableName: tableName(), Key: { PK: it.PK, SK: it.SK }, ConsistentRead: true }))));
  return read.flatMap((res) => (res.Item ? [res.Item] : []));
}

/** The entry item after a lock or release: invoiceId set or removed, a new revision. */
function moved(item: StoredItem, invoiceId: string | undefined, now: string): StoredItem {
  const after: StoredItem = { ...item, updatedAt: now, [VERSION]: Number(item[VERSION] ?? 0) + 1, [REVISION]: Number(item[REVISION] ?? 0) + 1 };
  if (invoiceId === undefined) delete after.invoiceId;
  else after.invoiceId = invoiceId;
  return after;
}

/**
 * Locks (invoiceId given) or releases (undefined) a batch of at most ENTRY_BATCH entries in one transaction,
 * each guarded by the version read (and by not being invoiced / by carrying this invoice's id), each with
 * its `time-entry.updated` event, with the job's count moved by the batch's size. Returns the items after.
 * EntriesChanged when an entry is not as read; JobLost when the job is not in the state expected.
 */
async function moveBatch(workspaceId: string, job: { invoiceId: string; state: JobState }, items: readonly StoredItem[], lock: boolean): Promise<StoredItem[]> {
  if (items.length === 0) return [];
  if (items.length > ENTRY_BATCH) throw new Error(`at most ${ENTRY_BATCH} entries per batch`);
  const now = new Date().toISOString();
  const afters = items.map((item) => moved(item, lock ? job.invoiceId : undefined, now));
  const ops: WriteOp[] = items.map((item) => ({
    item: {
      Update: {
        TableName: tableName(),
        Key: { PK: item.PK, SK: item.SK },
        UpdateExpression: lock ? 'SET #inv = :inv, #u = :now ADD #v :one, #rv :one' : 'REMOVE #inv SET #u = :now ADD #v :one, #rv :one',
        ConditionExpression: lock ? '#v = :v AND attribute_not_exists(#inv)' : '#v = :v AND #inv = :inv',
        ExpressionAttributeNames: { '#inv': 'invoiceId', '#u': 'updatedAt', '#v': VERSION, '#rv': REVISION },
        ExpressionAttributeValues: { ':inv': job.invoiceId, ':now': now, ':one': 1, ':v': Number(item[VERSION] ?? 0) },
      },
    },
    onConditionFail: () => new EntriesChanged(),
  }));
  ops.push(jobOp(workspaceId, job.invoiceId, job.state, lock ? items.length : -items.length));
  const changes: Change[] = afters.map((after) => ({ type: 'time-entry.updated', resourceId: String(after.id), data: entries().present(after) }));
  await writeWithChange(workspaceId, ops, changes);
  return afters;
}
export const lockBatch = (workspaceId: string, invoiceId: string, items: readonly StoredItem[]) => moveBatch(workspaceId, { invoiceId, state: 'locking' }, items, true);
export const releaseBatch = (workspaceId: string, invoiceId: string, items: readonly StoredItem[]) => moveBatch(workspaceId, { invoiceId, state: 'releasing' }, items, false);

// ------------------------------------------------------------------ numbers and the commit
/** The last number the workspace's sequence gave (0 before the first). */
export async function readSequence(workspaceId: string): Promise<number | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: keys.invoiceSequence(workspaceId), ConsistentRead: true }));
  return res.Item ? Number(res.Item.n) : undefined;
}

/**
 * The highest sequence number among the workspace's invoice-number locks (numbers `INV-<6+ digits>`,
 * given by hand or by the seed): one Query, newest lock first.
 */
export async function highestTakenNumber(workspaceId: string): Promise<number> {
  const prefix = keys.uniqueLock(workspaceId, invoiceEntity.unique!.name, 'inv-', 'number').SK;
  const res = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
      ExpressionAttributeValues: { ':pk': keys.workspacePartition(workspaceId), ':p': prefix },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const sk = res.Items?.[0]?.SK;
  return typeof sk === 'string' ? (sequenceOf(sk.slice(prefix.length - 'inv-'.length)) ?? 0) : 0;
}

/** Whether an invoice number is taken in the workspace (its lock item exists). */
export async function numberTaken(workspaceId: string, number: string): Promise<boolean> {
  const rule = invoiceEntity.unique!;
  const res = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.uniqueLock(workspaceId, rule.name, number.trim().toLowerCase(), 'number'), ConsistentRead: true }),
  );
  return res.Item !== undefined;
}

/**
 * What an invoice made from time keeps of its making (internal attributes of its item, known here only): the
 * sort-key range of its period (its entries are the client's entries in it) and how many entries carry its id.
 */
export interface InvoiceMaking {
  lo: string;
  hi: string;
  entries: number;
}
/** The making of a stored invoice; undefined for one not made from time (seeded, admin CLI). */
export const makingOf = (item: StoredItem): InvoiceMaking | undefined =>
  typeof item._lo === 'string' && typeof item._hi === 'string' ? { lo: item._lo, hi: item._hi, entries: Number(item._entries ?? 0) } : undefined;

export interface CommitInput {
  workspaceId: string;
  /** The invoice record (id, fields, timestamps), totals already checked by the caller. */
  record: Record<string, unknown>;
  /** The sort-key range of its period, the period as asked (start and end days) and who made it. */
  making: { lo: string; hi: string; period: readonly [string, string]; createdBy?: string };
  /** The job's count the commit requires (entries on the invoice). */
  entryCount: number;
  /** Writes that join the commit (the console's audit entry). */
  also?: readonly WriteOp[];
}

/** The one transaction that makes the invoice visible (see the module comment). Returns the invoice as presented. */
export async function commitInvoice(input: CommitInput): Promise<Record<string, unknown>> {
  const { workspaceId, record } = input;
  const repo = invoices();
  const derived = repo.derive({ ...record });
  const { lo, hi, period, createdBy } = input.making;
  const internals: StoredItem = { _lo: lo, _hi: hi, _entries: input.entryCount, _period: [...period], ...(createdBy ? { _createdBy: createdBy } : {}) };
  const item = repo.toItem(workspaceId, derived, { ...internals, [VERSION]: 1, [REVISION]: 1 });
  const ops: WriteOp[] = [
    { item: { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' } }, onConditionFail: () => conflict('The invoice exists already') },
    // a custom number's lock (a draft without one takes none: sending numbers it)
    ...lockOps(invoiceEntity, workspaceId, undefined, derived, item.SK),
    ...referenceOps(invoiceEntity, workspaceId, undefined, record),
    {
      item: {
        Delete: {
          TableName: tableName(),
          Key: keys.invoiceJob(workspaceId, String(record.id)),
          ConditionExpression: '#s = :locking AND #l = :n',
          ExpressionAttributeNames: { '#s': 'state', '#l': 'locked' },
          ExpressionAttributeValues: { ':locking': 'locking', ':n': input.entryCount },
        },
      },
      onConditionFail: () => new JobLost(),
    },
  ];
  ops.push(...(input.also ?? []));
  const created = repo.present(item);
  await writeWithChange(workspaceId, ops, { type: 'invoice.created', resourceId: String(record.id), data: created });
  return created;
}

/**
 * The write of a finalization that moves the workspace's number sequence from the value read to the next,
 * under the condition that it still holds the value read (another send came first: SequenceMoved, read again).
 */
export const sequenceOp = (workspaceId: string, { previous, next }: { previous: number | undefined; next: number }): WriteOp => ({
  item: {
    Put: {
      TableName: tableName(),
      Item: { ...keys.invoiceSequence(workspaceId), [TYPE]: SEQUENCE_TYPE, n: next },
      ConditionExpression: previous === undefined ? 'attribute_not_exists(PK)' : 'n = :prev',
      ...(previous === undefined ? {} : { ExpressionAttributeValues: { ':prev': previous } }),
    },
  },
  onConditionFail: () => new SequenceMoved(),
});

/** Moves the sequence forward to `n` when it is below (after a hand-given or seeded number took the next one). */
export async function raiseSequence(workspaceId: string, n: number): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invoiceSequence(workspaceId),
        UpdateExpression: 'SET #t = :type, n = :n',
        ConditionExpression: 'attribute_not_exists(n) OR n < :n',
        ExpressionAttributeNames: { '#t': TYPE },
        ExpressionAttributeValues: { ':type': SEQUENCE_TYPE, ':n': n },
      }),
    );
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
  }
}
