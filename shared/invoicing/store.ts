import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { invoices as invoiceEntity, type Invoice } from '../domain/entities/invoices';
import { timeEntries as timeEntryEntity, type TimeEntry } from '../domain/entities/time-entries';
import { conflict } from '../domain/errors';
import { writeWithChange, type Change } from '../data/changes';
import { db, queryAll, tableName, type StoredItem } from '../data/db';
import { keys, type Key } from '../data/keys';
import { planQuery, queryInputOf, type Where } from '../data/query-plan';
import { lockOps, referenceOps } from '../data/record-writes';
import { etagOf, revisionOf } from '../data/records';
import { repository, type WriteOptions } from '../data/repository';
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
/**
 * A time entry as the store read it: its record (the TimeEntry of its declaration) and what guards its next
 * lock or release (its key, the version and revision read: the store's business, handed back to `lockBatch`
 * / `releaseBatch` as it came).
 */
export interface ReadEntry {
  readonly entry: TimeEntry;
  readonly guard: { readonly key: Key; readonly version: number; readonly revision: number };
}

/** The ReadEntry of a stored time-entry item (none for an item of another type). */
export const readEntry = (item: StoredItem): ReadEntry[] =>
  item[TYPE] === timeEntryEntity.type
    ? [{ entry: entries().present(item), guard: { key: { PK: String(item.PK), SK: String(item.SK) }, version: Number(item[VERSION] ?? 0), revision: revisionOf(item) } }]
    : [];

/** The client's time entries in a sort-key range matching `where`, through the client index (GSI3) + filter. */
async function clientEntries(workspaceId: string, where: Where, range: { lo: string; hi: string }): Promise<ReadEntry[]> {
  const items = await queryAll(queryInputOf(planQuery(timeEntryEntity, workspaceId, where, range)));
  return items.flatMap(readEntry);
}

/** An entry that can go on an invoice of the client: billable, stopped (and longer than 0 minutes), on no invoice. */
const invoiceable = ({ entry }: ReadEntry, clientId: string, range: { lo: string; hi: string }): boolean =>
  entry.clientId === clientId &&
  entry.billable === true &&
  (entry.durationMinutes ?? 0) > 0 &&
  (entry.invoiceId === undefined || entry.invoiceId === null) &&
  String(entry.sortKey) >= range.lo &&
  String(entry.sortKey) <= range.hi;

/** The entries an invoice of the client for the range would take (GSI3, filter billable and not invoiced). */
export async function candidateEntries(workspaceId: string, clientId: string, range: { lo: string; hi: string }): Promise<ReadEntry[]> {
  const read = await clientEntries(workspaceId, { clientId, billable: 'true', invoiced: 'false' }, range);
  return read.filter((e) => invoiceable(e, clientId, range));
}

/**
 * The entries that carry an invoice's id (GSI3 over the invoice's period, filter invoiceId); with `max`, the
 * first pages holding at least that many (a release step reads only what it can release).
 */
export async function entriesOfInvoice(workspaceId: string, invoiceId: string, clientId: string, range: { lo: string; hi: string }, max?: number): Promise<ReadEntry[]> {
  if (max === undefined) return clientEntries(workspaceId, { clientId, invoiceId }, range);
  const input = queryInputOf(planQuery(timeEntryEntity, workspaceId, { clientId, invoiceId }, range));
  const out: ReadEntry[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const res = await db().send(new QueryCommand({ ...input, ...(start ? { ExclusiveStartKey: start } : {}) }));
    out.push(...(res.Items ?? []).flatMap(readEntry));
    start = res.LastEvaluatedKey;
  } while (start && out.length < max);
  return out;
}

/**
 * The entries read again, strongly consistent: one GetItem each, at once (a batch is at most ENTRY_BATCH).
 * GetItem, not BatchGetItem: the functions' roles grant GetItem on the table (issue 32).
 */
export async function rereadEntries(read: readonly ReadEntry[]): Promise<ReadEntry[]> {
  const again = await Promise.all(read.map(({ guard }) => db().send(new GetCommand({ TableName: tableName(), Key: guard.key, ConsistentRead: true }))));
  return again.flatMap((res) => (res.Item ? readEntry(res.Item) : []));
}

/**
 * Locks (invoiceId given) or releases (undefined) a batch of at most ENTRY_BATCH entries in one transaction,
 * each guarded by the version read (and by not being invoiced / by carrying this invoice's id), each with
 * its `time-entry.updated` event (the record after), with the job's count moved by the batch's size.
 * EntriesChanged when an entry is not as read; JobLost when the job is not in the state expected.
 */
async function moveBatch(workspaceId: string, job: { invoiceId: string; state: JobState }, batch: readonly ReadEntry[], lock: boolean): Promise<void> {
  if (batch.length === 0) return;
  if (batch.length > ENTRY_BATCH) throw new Error(`at most ${ENTRY_BATCH} entries per batch`);
  const now = new Date().toISOString();
  const ops: WriteOp[] = batch.map(({ guard }) => ({
    item: {
      Update: {
        TableName: tableName(),
        Key: guard.key,
        UpdateExpression: lock ? 'SET #inv = :inv, #u = :now ADD #v :one, #rv :one' : 'REMOVE #inv SET #u = :now ADD #v :one, #rv :one',
        ConditionExpression: lock ? '#v = :v AND attribute_not_exists(#inv)' : '#v = :v AND #inv = :inv',
        ExpressionAttributeNames: { '#inv': 'invoiceId', '#u': 'updatedAt', '#v': VERSION, '#rv': REVISION },
        ExpressionAttributeValues: { ':inv': job.invoiceId, ':now': now, ':one': 1, ':v': guard.version },
      },
    },
    onConditionFail: () => new EntriesChanged(),
  }));
  ops.push(jobOp(workspaceId, job.invoiceId, job.state, lock ? batch.length : -batch.length));
  const changes: Change[] = batch.map(({ entry, guard }) => {
    // the record after: invoiceId set or removed, the next revision (its ETag)
    const { invoiceId: _was, etag: _etag, ...rest } = entry;
    const after = { ...rest, ...(lock ? { invoiceId: job.invoiceId } : {}), updatedAt: now, etag: etagOf({ [REVISION]: guard.revision + 1 }) };
    return { type: 'time-entry.updated', resourceId: entry.id, data: after };
  });
  await writeWithChange(workspaceId, ops, changes);
}
export const lockBatch = (workspaceId: string, invoiceId: string, batch: readonly ReadEntry[]) => moveBatch(workspaceId, { invoiceId, state: 'locking' }, batch, true);
export const releaseBatch = (workspaceId: string, invoiceId: string, batch: readonly ReadEntry[]) => moveBatch(workspaceId, { invoiceId, state: 'releasing' }, batch, false);

// ------------------------------------------------------------------ the invoice and its commit (its number: ./store-numbers)
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
const makingOf = (item: StoredItem): InvoiceMaking | undefined =>
  typeof item._lo === 'string' && typeof item._hi === 'string' ? { lo: item._lo, hi: item._hi, entries: Number(item._entries ?? 0) } : undefined;

/**
 * An invoice as the store read it: the record, its making (undefined for one not made from time), and the
 * write options that guard a change computed from this read by its version (the repository's `read`: the
 * first attempt writes against it, a retry reads again).
 */
export interface StoredInvoice {
  invoice: Invoice;
  making?: InvoiceMaking;
  asRead: Pick<WriteOptions, 'read'>;
}

/** One invoice, read strongly consistent (one GetItem), or undefined. */
export async function readInvoice(workspaceId: string, invoiceId: string): Promise<StoredInvoice | undefined> {
  const item = await invoices().getItem(workspaceId, { id: invoiceId });
  if (!item) return undefined;
  const making = makingOf(item);
  return { invoice: invoices().present(item), ...(making ? { making } : {}), asRead: { read: item } };
}

export interface CommitInput {
  workspaceId: string;
  /** The invoice record (id, fields, timestamps), totals already checked by the caller. */
  record: Invoice;
  /** The sort-key range of its period, the period as asked (start and end days) and who made it. */
  making: { lo: string; hi: string; period: readonly [string, string]; createdBy?: string };
  /** The job's count the commit requires (entries on the invoice). */
  entryCount: number;
  /** Writes that join the commit (the console's audit entry). */
  also?: readonly WriteOp[];
}

/** The one transaction that makes the invoice visible (see the module comment). Returns the invoice as presented. */
export async function commitInvoice(input: CommitInput): Promise<Invoice> {
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
