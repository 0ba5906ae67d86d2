import * as z from 'zod/mini';
import { assertInvoiceTotals, invoices as invoiceEntity, issueDateRange, type Invoice, type InvoiceStatus, INVOICE_STATUSES } from '../domain/entities/invoices';
import { projects as projectEntity } from '../domain/entities/projects';
import { tasks as taskEntity } from '../domain/entities/tasks';
import { clients as clientEntity } from '../domain/entities/clients';
import { sortKeyRange, timeEntries as timeEntryEntity, type TimeEntry } from '../domain/entities/time-entries';
import { conflict, DomainError, invalidField, notFound } from '../domain/errors';
import { dateString, dateTimeString, englishIssue, idString, LIMITS, notesString, meta, singleLine } from '../domain/fields';
import { ulid } from '../domain/ids';
import {
  addDays,
  assertTransition,
  DEFAULT_DUE_DAYS,
  invoiceLines,
  invoiceNumberOf,
  invoiceTotals,
  LINE_GROUPINGS,
  MAX_INVOICE_ENTRIES,
  type BillableEntry,
  type InvoiceCatalog,
  type InvoiceLines,
} from './rules';
import { auditOp, type AuditAction, type AuditEntry } from '../data/audit';
import type { StoredItem } from '../data/db';
import type { WriteOp } from '../data/write';
import {
  abandonJob,
  candidateEntries,
  closeJob,
  commitInvoice,
  ENTRY_BATCH,
  entriesOfInvoice,
  EntriesChanged,
  EntriesRemain,
  closeJobOp,
  highestTakenNumber,
  JobLost,
  listJobs,
  noJobOp,
  lockBatch,
  numberTaken,
  NumberTaken,
  openJob,
  raiseSequence,
  readJob,
  readSequence,
  releaseBatch,
  renewJob,
  rereadEntries,
  SequenceMoved,
  type InvoiceJob,
} from './store';
import { repository, type IfMatch, type RecordPage } from '../data/repository';
import { liveParties } from './snapshot';
import { readProfile } from './store-profile';
import * as settings from '../platform/settings';

/**
 * Invoices made from billable time (issue 24): the functions the console's routes call, and the seed.
 * docs/data-model.md ("Invoices from time") and docs/decisions.md ("Invoices from time") give the design:
 *
 *   createFromTime: read the candidates -> open a job (INVOICEJOBS item, state locking) -> lock the entries
 *   in batches of 49 (each a transaction with its events and the job's count) -> compute the lines from the
 *   entries as locked -> one commit transaction (invoice, number lock, sequence, client counter, event,
 *   job deleted if its count equals the entries on the invoice).
 *
 * A failure before the commit rolls back at once (job -> releasing, entries released, job closed); a
 * crash leaves the job, and `sweepInvoiceJobs` (named retry: run by the next invoicing call of the
 * workspace, by the admin or on a schedule) rolls it back once its lease ran out. Voiding or deleting an
 * invoice opens a release job first, changes the invoice, then releases its entries; the sweep finishes
 * a release a crash interrupted. Roles are the caller's business (the console: owners and admins write).
 */
const invoices = () => repository(invoiceEntity);
const entryRepo = () => repository(timeEntryEntity);

/** Who acts (the console's signed-in user); recorded on the invoices they make. */
export interface Actor {
  id: string;
  role?: string;
}

/**
 * The console's invoice texts refuse what /v1 names refuse (control characters) and, beyond, the invisible
 * characters that make two texts look alike or reorder what is shown: zero-width spaces and joiners at word
 * edges (U+200B, U+2060-2064, U+FEFF) and bidi marks, embeddings, overrides and isolates (U+200E-200F,
 * U+202A-202E, U+2066-2069). (U+200C/U+200D stay: scripts and emoji sequences need them.)
 */
const INVISIBLE = /[\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
export const visible = <S extends z.ZodMiniString>(schema: S): S => schema.check(z.refine((v) => !INVISIBLE.test(v), 'must not contain zero-width or bidi control characters'));
const invoiceNumber = visible(singleLine(z.string().check(z.trim(), z.minLength(1), z.maxLength(64))));
const lineDescription = visible(singleLine(z.string().check(z.trim(), z.minLength(1), z.maxLength(1000))));
const invoiceNotes = visible(notesString);
/** A tax rate: a percentage with at most 4 decimals (the tax is computed from it in integers). */
export const taxRateInput = meta(
  z.number().check(
    z.gte(0),
    z.lte(100),
    z.refine((v) => Math.abs(v * 10_000 - Math.round(v * 10_000)) < 1e-6, 'must have at most 4 decimals'),
  ),
  { description: 'A percentage of the subtotal (19 for 19 %), at most 4 decimals' },
);

/** The body of "New invoice" (and of its preview). */
export const createInvoiceInput = z.strictObject({
  clientId: idString,
  startDate: dateString,
  endDate: dateString,
  dueDate: z.optional(dateString),
  issueDate: z.optional(dateString),
  number: z.optional(invoiceNumber),
  taxRate: z.optional(taxRateInput),
  lines: meta(z.optional(z.enum(LINE_GROUPINGS)), { description: 'One line per project (default), per project and task, or per entry' }),
  notes: z.optional(invoiceNotes),
});
export type CreateInvoiceInput = z.input<typeof createInvoiceInput>;

/** The changes a draft accepts. */
export const updateInvoiceInput = z.strictObject({
  number: z.optional(invoiceNumber),
  issueDate: z.optional(dateString),
  dueDate: z.optional(dateString),
  taxRate: z.optional(taxRateInput),
  notes: z.optional(z.nullable(invoiceNotes)),
  lineDescriptions: meta(z.optional(z.array(lineDescription).check(z.maxLength(200))), {
    description: "New descriptions of the lines, in the invoice's line order (as many as it has lines)",
  }),
});
export type UpdateInvoiceInput = z.input<typeof updateInvoiceInput>;

/** The filters of the invoice list (those of GET /v1/invoices), and its page; the console's list query is this schema. */
export const listInvoicesInput = z.strictObject({
  status: z.optional(z.enum(INVOICE_STATUSES)),
  clientId: z.optional(idString),
  startDate: meta(z.optional(dateString), { description: 'Invoices issued on or after this date' }),
  endDate: meta(z.optional(dateString), { description: 'Invoices issued on or before this date' }),
  limit: z.optional(z.number().check(z.int(), z.gte(1), z.lte(LIMITS.pageMax))),
  cursor: z.optional(z.string().check(z.maxLength(4096))),
});
export type ListInvoicesInput = z.input<typeof listInvoicesInput>;

function parse<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const res = schema.safeParse(input, { error: englishIssue });
  if (res.success) return res.data;
  const issue = res.error.issues[0]!;
  throw invalidField(issue.path.map(String).join('.') || 'body', issue.message);
}

/** How long an invoicing job's writer is trusted before the sweep takes the job over (INVOICE_JOB_LEASE_MS, default 15 min). */
export const jobLeaseMs = (): number => settings.invoiceJobLeaseMs();
const MAX_LOCK_ROUNDS = 5;
const today = () => new Date().toISOString().slice(0, 10);
const chunks = <T>(list: readonly T[], size: number): T[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

// ------------------------------------------------------------------ preview and create
export interface InvoicePreview {
  clientId: string;
  number: string;
  issueDate: string;
  dueDate: string;
  currency: string;
  lineItems: InvoiceLines['lineItems'];
  subtotal: number;
  tax: number;
  total: number;
  taxRate: number;
  notes?: string;
  /** The entries that would be invoiced (count and ids, by line). */
  entryCount: number;
  lineEntries: string[][];
}

interface Prepared {
  input: z.output<typeof createInvoiceInput>;
  range: { lo: string; hi: string };
  issueDate: string;
  dueDate: string;
  candidates: StoredItem[];
  /** The client as read by prepare (the lines of the first step name it without reading it again). */
  client?: StoredItem;
}

const billable = (item: StoredItem): BillableEntry => ({
  id: String(item.id),
  startTime: String(item.startTime),
  durationMinutes: Number(item.durationMinutes),
  ...(typeof item.projectId === 'string' ? { projectId: item.projectId } : {}),
  ...(typeof item.taskId === 'string' ? { taskId: item.taskId } : {}),
  ...(typeof item.name === 'string' ? { name: item.name } : {}),
  ...(typeof item.notes === 'string' ? { notes: item.notes } : {}),
});

/** The client, projects and tasks the lines name (one consistent GetItem per distinct record). */
async function catalogOf(workspaceId: string, clientId: string, items: readonly StoredItem[], read?: StoredItem): Promise<InvoiceCatalog> {
  const client = read ?? (await repository(clientEntity).getItem(workspaceId, { id: clientId }));
  if (!client) throw invalidField('clientId', `Client ${clientId} does not exist in this workspace`);
  const distinct = (field: string) => [...new Set(items.map((i) => i[field]).filter((v): v is string => typeof v === 'string'))];
  const [projectItems, taskItems, profile] = await Promise.all([
    Promise.all(distinct('projectId').map((id) => repository(projectEntity).getItem(workspaceId, { id }))),
    Promise.all(distinct('taskId').map((id) => repository(taskEntity).getItem(workspaceId, { id }))),
    readProfile(workspaceId),
  ]);
  // the currency of time whose project sets none: the client's, else the billing profile's default
  const currency = typeof client.currency === 'string' ? client.currency : profile?.profile.defaultCurrency;
  const projects = new Map(
    projectItems
      .filter((p): p is StoredItem => p !== undefined)
      .map((p) => [
        String(p.id),
        { name: String(p.name), ...(typeof p.hourlyRate === 'number' ? { hourlyRate: p.hourlyRate } : {}), ...(typeof p.currency === 'string' ? { currency: p.currency } : {}) },
      ]),
  );
  const tasks = new Map(taskItems.filter((t): t is StoredItem => t !== undefined).map((t) => [String(t.id), { name: String(t.name) }]));
  return { client: { name: String(client.name), ...(currency ? { currency } : {}) }, projects, tasks };
}

async function prepare(workspaceId: string, raw: unknown): Promise<Prepared> {
  const given = parse(createInvoiceInput, raw);
  // what the create leaves out comes from the billing profile: tax rate, notes (its footer), payment terms
  const profile = (await readProfile(workspaceId))?.profile;
  const input = {
    ...given,
    ...(given.taxRate === undefined && profile?.defaultTaxRate !== undefined ? { taxRate: profile.defaultTaxRate } : {}),
    ...(given.notes === undefined && profile?.invoiceFooter !== undefined ? { notes: profile.invoiceFooter } : {}),
  };
  const range = sortKeyRange(input.startDate, input.endDate);
  const issueDate = input.issueDate ?? today();
  const dueDate = input.dueDate ?? addDays(issueDate, profile?.paymentTermsDays ?? DEFAULT_DUE_DAYS);
  if (dueDate < issueDate) throw invalidField('dueDate', 'must not be before issueDate');
  const client = await repository(clientEntity).getItem(workspaceId, { id: input.clientId });
  if (!client) throw invalidField('clientId', `Client ${input.clientId} does not exist in this workspace`);
  if (input.number !== undefined && (await numberTaken(workspaceId, input.number))) throw conflict(invoiceEntity.unique!.message(input.number));
  const candidates = await candidateEntries(workspaceId, input.clientId, range);
  if (candidates.length > MAX_INVOICE_ENTRIES) {
    throw conflict(`That period holds ${candidates.length} billable entries of the client; one invoice covers at most ${MAX_INVOICE_ENTRIES}: invoice a shorter period`);
  }
  return { input, range, issueDate, dueDate, candidates, client };
}

async function linesOf(workspaceId: string, p: Prepared, items: readonly StoredItem[]): Promise<InvoiceLines> {
  const catalog = await catalogOf(workspaceId, p.input.clientId, items, p.client);
  return invoiceLines(items.map(billable), catalog, p.input.lines ?? 'project');
}

/** The number the next invoice would get by default (the sequence, or past the highest number taken). */
async function nextNumber(workspaceId: string): Promise<{ previous: number | undefined; next: number }> {
  const previous = await readSequence(workspaceId);
  const base = previous ?? (await highestTakenNumber(workspaceId));
  return { previous, next: base + 1 };
}

/** The fields of the invoice made from these lines: what the preview shows and the draft's commit stores. */
function invoiceFields(p: Pick<Prepared, 'input' | 'issueDate' | 'dueDate'>, lines: InvoiceLines, number: string) {
  const taxRate = p.input.taxRate ?? 0;
  return {
    clientId: p.input.clientId,
    number,
    issueDate: p.issueDate,
    dueDate: p.dueDate,
    currency: lines.currency,
    lineItems: lines.lineItems,
    ...invoiceTotals(lines.lineItems, taxRate),
    taxRate,
    ...(p.input.notes !== undefined ? { notes: p.input.notes } : {}),
  };
}

/** What createFromTime would make now, without writing anything. */
export async function previewFromTime(args: { workspaceId: string; actor?: Actor } & CreateInvoiceInput): Promise<InvoicePreview> {
  const { workspaceId, actor: _actor, ...raw } = args;
  const p = await prepare(workspaceId, raw);
  const lines = await linesOf(workspaceId, p, p.candidates);
  return {
    ...invoiceFields(p, lines, p.input.number ?? invoiceNumberOf((await nextNumber(workspaceId)).next)),
    entryCount: p.candidates.length,
    lineEntries: lines.lineEntries,
  };
}

/**
 * The commit of a draft whose entries are all locked: the record from the lines (totals checked), then the
 * one commit transaction, numbered by the sequence unless a number was given (retried when another invoice
 * took the number or moved the sequence meanwhile).
 */
async function commitDraft(
  workspaceId: string,
  invoiceId: string,
  now: string,
  p: Pick<Prepared, 'input' | 'issueDate' | 'dueDate' | 'range'>,
  lines: InvoiceLines,
  entryCount: number,
  actor: Actor | undefined,
): Promise<Invoice> {
  // The number is the sequence's when none was given (set per attempt below).
  const record: Record<string, unknown> = { id: invoiceId, ...invoiceFields(p, lines, p.input.number ?? ''), status: 'draft', createdAt: now, updatedAt: now };
  const internals: StoredItem = {
    _lo: p.range.lo,
    _hi: p.range.hi,
    _entries: entryCount,
    _period: [p.input.startDate, p.input.endDate],
    ...(actor ? { _createdBy: actor.id } : {}),
  };
  for (let attempt = 0; ; attempt++) {
    const sequence = p.input.number === undefined ? await nextNumber(workspaceId) : undefined;
    if (sequence) record.number = invoiceNumberOf(sequence.next);
    assertInvoiceTotals(record);
    const created = { number: { to: record.number }, clientId: { to: record.clientId }, total: { to: record.total }, currency: { to: record.currency } };
    const also = audited(workspaceId, actor, 'invoice.created', invoiceId, created);
    try {
      return (await commitInvoice({ workspaceId, record, internals, entryCount, ...(sequence ? { sequence } : {}), ...also })) as Invoice;
    } catch (err) {
      if (attempt >= 20) throw err;
      if (err instanceof NumberTaken) await raiseSequence(workspaceId, await highestTakenNumber(workspaceId));
      else if (!(err instanceof SequenceMoved)) throw err;
    }
  }
}

/** Statistics of one createFromTime (the bench prints them). */
export interface CreateStats {
  candidates: number;
  locked: number;
  lockBatches: number;
  /** Entries found again by a later round (an entry changed while the invoice was made). */
  relocked: number;
}

/**
 * Makes a draft invoice from the client's billable, stopped, not yet invoiced entries starting in the
 * period (days inclusive, UTC): the create in steps (`beginFromTime`, `continueFromTime`: the one algorithm)
 * run to its end with no budget. 409: nothing to invoice, no rate or mixed currencies (naming the projects),
 * a number taken, more than 5,000 entries, entries that keep changing. Every entry it invoices is locked
 * (`invoiceId`), each lock one `time-entry.updated` event; the lines are computed from the entries as locked.
 */
export async function createFromTime(args: { workspaceId: string; actor?: Actor; stats?: CreateStats } & CreateInvoiceInput): Promise<Invoice> {
  const { stats, ...rest } = args;
  const unbounded = { budgetMs: Number.POSITIVE_INFINITY, ...(stats ? { stats } : {}) };
  let made = await beginFromTime({ ...rest, ...unbounded });
  for (let round = 1; isInProgress(made); round++) {
    if (round >= MAX_LOCK_ROUNDS) {
      await rollBack(args.workspaceId, made.id);
      throw conflict('The entries of this invoice keep changing while it is made; retry');
    }
    // a round that locked nothing new waits for the client index to show what the job counts
    await new Promise((r) => setTimeout(r, 10 * round));
    made = await continueFromTime(args.workspaceId, made.id, unbounded).catch((err: unknown) => {
      // neither job nor invoice: the sweep took this create's job (its lease ran out) and rolled it back to the
      // end, so the invoice was not made: the same 409 as a rollback seen halfway, never a 404 for a create
      if (err instanceof DomainError && err.reason === 'not-found') throw conflict('Making this invoice was rolled back by the sweep (its lease ran out); retry');
      throw err;
    });
  }
  return made;
}

/** A create that will not finish: its job -> releasing, its entries released (what remains is the sweep's). */
async function rollBack(workspaceId: string, invoiceId: string): Promise<void> {
  const job = await readJob(workspaceId, invoiceId);
  if (job && (await abandonJob(workspaceId, invoiceId).catch(() => false))) await releaseAll({ ...job, state: 'releasing' }).catch(() => false);
}

/** The entries a budgeted release step reads at most (about 10 transactions' worth) before it releases them. */
const RELEASE_READ = ENTRY_BATCH * 10;

/**
 * Releases every entry carrying a job's invoice id (those known first, then those the client index
 * finds over the invoice's period) until `deadline`. True when none is left (the job's count is 0), false
 * when entries remain or the time ran out (the next step or sweep goes on).
 */
async function releaseEntries(job: InvoiceJob, deadline = Number.POSITIVE_INFINITY, known: readonly StoredItem[] = []): Promise<boolean> {
  const { workspaceId, invoiceId } = job;
  for (let pass = 0; pass < 4; pass++) {
    // a step with a budget reads a few pages of the entries (what it can release), the rest is the next step's
    const bounded = Number.isFinite(deadline) ? RELEASE_READ : undefined;
    const items = pass === 0 && known.length > 0 ? known : await entriesOfInvoice(workspaceId, invoiceId, job.clientId, { lo: job.lo, hi: job.hi }, bounded);
    for (const [n, batch] of chunks(items, ENTRY_BATCH).entries()) {
      // every step releases one batch at least (reading the entries may have spent its budget), then stops at the budget
      if (n > 0 && Date.now() >= deadline) return false;
      try {
        await releaseBatch(workspaceId, invoiceId, batch);
      } catch (err) {
        if (!(err instanceof EntriesChanged)) throw err;
        const still = (await rereadEntries(batch)).filter((i) => i.invoiceId === invoiceId);
        if (still.length) await releaseBatch(workspaceId, invoiceId, still).catch((e: unknown) => (e instanceof EntriesChanged ? [] : Promise.reject(e)));
      }
    }
    if (((await readJob(workspaceId, invoiceId))?.locked ?? 0) === 0) return true;
  }
  return false;
}

/** Releases a rolled-back create's entries and closes its job (false when entries remain: the next sweep goes on). */
async function releaseAll(job: InvoiceJob, known: readonly StoredItem[] = [], deadline = Number.POSITIVE_INFINITY): Promise<boolean> {
  return (await releaseEntries(job, deadline, known)) && closeJob(job.workspaceId, job.invoiceId);
}

export interface SweepReport {
  examined: number;
  rolledBack: number;
  released: number;
  closed: number;
  left: number;
  /** How old (ms) the oldest job still open after this sweep is (0 when none is): the alarm's metric. */
  oldestOpenMs: number;
}

/**
 * The named sweep: finishes every invoicing job whose lease ran out (`now`, default the clock): a create
 * still locking is rolled back (state -> releasing, only if the lease is still out: a live writer keeps
 * its job), then its entries are released and the job closed; a void or delete whose steps stopped is
 * finished (its entries released, then the invoice's `releasing` cleared or the invoice deleted, with the
 * job, in one transaction); a release job whose invoice was not voided or deleted after all is closed
 * without releasing. Safe to run any number of times, at once. It stops starting work at `budgetMs`.
 * Run every minute by functions/invoice-sweep (EventBridge) in AWS and every INVOICE_SWEEP_INTERVAL_MS by
 * `npm start`, and at the start of every create.
 */
export async function sweepInvoiceJobs(opts: { workspaceId?: string; now?: number; budgetMs?: number } = {}): Promise<SweepReport> {
  const now = opts.now ?? Date.now();
  const deadline = Date.now() + (opts.budgetMs ?? Number.POSITIVE_INFINITY);
  const report: SweepReport = { examined: 0, rolledBack: 0, released: 0, closed: 0, left: 0, oldestOpenMs: 0 };
  const left = (job: InvoiceJob) => {
    report.left++;
    report.oldestOpenMs = Math.max(report.oldestOpenMs, Date.now() - Date.parse(job.createdAt));
  };
  for (const job of await listJobs(opts.workspaceId)) {
    report.examined++;
    if (job.leaseUntil > now || Date.now() >= deadline) {
      left(job);
      continue;
    }
    if (job.state === 'locking') {
      if (!(await abandonJob(job.workspaceId, job.invoiceId, now))) {
        left(job);
        continue;
      }
      report.rolledBack++;
    }
    if (job.kind === 'release') {
      const invoice = await invoices().getItem(job.workspaceId, { id: job.invoiceId });
      if (invoice && invoice.releasing !== true && (job.action !== undefined || invoice.status !== 'void')) {
        // the void or delete never changed the invoice (a crash between the job and the change)
        await closeJob(job.workspaceId, job.invoiceId, true);
        report.closed++;
        continue;
      }
      if (invoice) {
        const done = await releaseStep(job, deadline);
        if (isReleasing(done)) left(job);
        else report.released++;
        continue;
      }
    }
    if (await releaseAll({ ...job, state: 'releasing' }, [], deadline)) report.released++;
    else left(job);
  }
  return report;
}

// ------------------------------------------------------------------ read
export async function getInvoice(workspaceId: string, id: string): Promise<Invoice> {
  return invoices().get(workspaceId, { id });
}

/** One page of invoices, newest issueDate first: the filters of GET /v1/invoices. */
export async function listInvoices(workspaceId: string, query: ListInvoicesInput = {}): Promise<RecordPage<Invoice>> {
  const q = parse(listInvoicesInput, query);
  return invoices().page(workspaceId, {
    where: { status: q.status, clientId: q.clientId },
    range: issueDateRange(q.startDate, q.endDate),
    ...(q.limit !== undefined ? { limit: q.limit } : {}),
    ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
  });
}

/** The time entries on an invoice, oldest first (the client index over the invoice's period, filter invoiceId). */
export async function invoiceEntries(workspaceId: string, id: string): Promise<TimeEntry[]> {
  const item = await invoices().getItem(workspaceId, { id });
  if (!item) throw notFound(invoiceEntity.kind);
  if (typeof item._lo !== 'string' || typeof item._hi !== 'string') return [];
  const items = await entriesOfInvoice(workspaceId, id, String(item.clientId), { lo: item._lo, hi: item._hi });
  return items.sort((a, b) => String(a.SK).localeCompare(String(b.SK))).map((i) => entryRepo().present(i));
}

// ------------------------------------------------------------------ change a draft, transitions
export interface WriteOpts {
  ifMatch?: IfMatch;
  /** Who acts: given, the change carries its entry in the console's audit log (same transaction). */
  actor?: Actor;
}

/** The audit entry of an invoice change by `actor`, as writes that join the change (none without an actor). */
function audited(workspaceId: string, actor: Actor | undefined, action: AuditAction, id: string, changes: AuditEntry['changes']): { also?: WriteOp[] } {
  return actor ? { also: [auditOp({ workspaceId, actor: actor.id, action, target: { type: 'invoice', id }, changes })] } : {};
}

/** Changes a draft: number, dates, tax rate (tax and total follow), notes (null clears), line descriptions. 409 unless draft. */
export async function updateDraft(workspaceId: string, id: string, patch: UpdateInvoiceInput, opts: WriteOpts = {}): Promise<Invoice> {
  const input = parse(updateInvoiceInput, patch);
  for (let attempt = 0; ; attempt++) {
    const current = await getInvoice(workspaceId, id);
    assertTransition(current, 'update');
    const lineItems = current.lineItems.map((li, i) => (input.lineDescriptions?.[i] !== undefined ? { ...li, description: input.lineDescriptions[i] } : li));
    if (input.lineDescriptions && input.lineDescriptions.length !== current.lineItems.length) {
      throw invalidField('lineDescriptions', `must hold one description per line (${current.lineItems.length})`);
    }
    const taxRate = input.taxRate ?? current.taxRate ?? (current.subtotal > 0 ? Math.round((current.tax / current.subtotal) * 10_000) / 100 : 0);
    const changes: Record<string, unknown> = {
      ...(input.number !== undefined ? { number: input.number } : {}),
      ...(input.issueDate !== undefined ? { issueDate: input.issueDate } : {}),
      ...(input.dueDate !== undefined ? { dueDate: input.dueDate } : {}),
      ...(input.notes !== undefined ? { notes: input.notes } : {}),
      ...(input.lineDescriptions ? { lineItems } : {}),
      ...(input.taxRate !== undefined ? { taxRate, ...invoiceTotals(lineItems, taxRate) } : {}),
    };
    const revision = Number(/\d+/.exec(String(current.etag))?.[0]);
    if (opts.ifMatch && opts.ifMatch !== '*' && !opts.ifMatch.includes(revision))
      throw new DomainError('precondition-failed', `${invoiceEntity.kind} has changed since the ETag given in If-Match; read it again and retry with its current ETag`);
    // The audit entry: each changed field from -> to; the line descriptions as how many changed (not their text).
    const { lineItems: _lines, ...fields } = changes;
    const before = new Map(Object.entries(current));
    const audit: AuditEntry['changes'] = Object.fromEntries(
      Object.entries(fields)
        .filter(([k, to]) => JSON.stringify(before.get(k) ?? null) !== JSON.stringify(to))
        .map(([k, to]) => [k, { from: before.get(k) ?? null, to }]),
    );
    if (input.lineDescriptions) audit.lineDescriptions = { to: lineItems.filter((li, i) => li.description !== current.lineItems[i]!.description).length };
    try {
      // guarded by the revision read: the totals above were computed from it
      return await invoices().update(workspaceId, { id }, changes, {
        ifMatch: [revision],
        assert: (cur) => assertTransition(cur, 'update'),
        ...audited(workspaceId, opts.actor, 'invoice.updated', id, audit),
      });
    } catch (err) {
      if (err instanceof DomainError && err.reason === 'precondition-failed' && !opts.ifMatch && attempt < 5) continue;
      throw err;
    }
  }
}

const transition = (action: 'send' | 'pay', from: InvoiceStatus, audit: AuditAction, set: (now: string) => Record<string, unknown>, snapshot = false) =>
  async function (workspaceId: string, id: string, opts: WriteOpts & { at?: string } = {}): Promise<Invoice> {
    const at = opts.at === undefined ? new Date().toISOString() : parse(dateTimeString, opts.at);
    const changes = set(at);
    // `from` is the one status the transition accepts (assertTransition refuses the write otherwise)
    const entry = Object.fromEntries(Object.entries(changes).map(([k, to]) => [k, k === 'status' ? { from, to } : { to }]));
    // the send copies what the document shows of the profile and the client into the invoice, in the same write (./snapshot.ts)
    const read = snapshot ? await invoices().getItem(workspaceId, { id }) : undefined;
    if (snapshot && !read) throw notFound(invoiceEntity.kind);
    const parties = read ? await liveParties(workspaceId, String(read.clientId)) : {};
    return invoices().update(
      workspaceId,
      { id },
      { ...changes, ...parties },
      {
        ...(opts.ifMatch ? { ifMatch: opts.ifMatch } : {}),
        ...(read ? { read } : {}),
        assert: (cur) => assertTransition(cur, action),
        ...audited(workspaceId, opts.actor, audit, id, entry),
      },
    );
  };
/** draft -> sent (`sentAt`), the document's parties copied in (`from`, `billTo`); 409 naming the status otherwise. */
export const sendInvoice = transition('send', 'draft', 'invoice.sent', (at) => ({ status: 'sent' satisfies InvoiceStatus, sentAt: at }), true);
/** sent -> paid (`paidAt`, default now); 409 naming the status otherwise. */
export const payInvoice = transition('pay', 'sent', 'invoice.paid', (at) => ({ status: 'paid' satisfies InvoiceStatus, paidAt: at }));

/** A void or delete still releasing the invoice's entries (202): how many entries still carry its id. */
export interface InvoiceReleasing {
  id: string;
  status: 'releasing';
  action: 'void' | 'delete';
  clientId: string;
  entryCount: number;
  locked: number;
}
export const isReleasing = (v: object): v is InvoiceReleasing => (v as { status?: unknown }).status === 'releasing';

/**
 * A void or delete of an invoice whose entries carry its id, in steps like the create (docs/decisions.md,
 * "Releases in steps"): the release job opens (keyed by the invoice: one release at a time), the invoice is
 * changed and marked `releasing` (void: status void; delete: it stays until the end), then each step releases
 * batches of entries within its budget; the last one clears `releasing` (void) or deletes the invoice
 * (delete), with the job, in one transaction. A step that runs out of budget answers the progress (202); the
 * next `continue`, or past its lease the sweep, goes on. An invoice nothing carries the id of changes at once.
 */
async function withRelease<T>(
  workspaceId: string,
  id: string,
  action: 'void' | 'delete',
  opts: WriteOpts & { budgetMs?: number },
  change: (read: StoredItem, also: readonly WriteOp[], mark: boolean) => Promise<T>,
): Promise<T | InvoiceReleasing> {
  const deadline = Date.now() + (opts.budgetMs ?? stepBudgetMs());
  // the one read of the invoice: the change writes against it (guarded by its version; a retry reads again)
  const item = await invoices().getItem(workspaceId, { id });
  if (!item) throw notFound(invoiceEntity.kind);
  assertTransition(invoices().present(item), action);
  const count = item.status === 'void' ? 0 : Number(item._entries ?? 0);
  if (count === 0 || typeof item._lo !== 'string' || typeof item._hi !== 'string') {
    // nothing carries its id (a void invoice's entries were released when it was voided; a seeded one has none);
    // a release still running (its job item, keyed by the invoice) fails the change's own transaction
    const stillReleasing = () => conflict(`Invoice ${String(item.number)} is still releasing its entries; retry in a moment`);
    return change(item, [noJobOp(workspaceId, id, stillReleasing)], false);
  }
  const job: InvoiceJob = {
    workspaceId,
    invoiceId: id,
    kind: 'release',
    state: 'releasing',
    action,
    clientId: String(item.clientId),
    lo: item._lo,
    hi: item._hi,
    locked: count,
    leaseUntil: Date.now() + stepLeaseMs(),
    createdAt: new Date().toISOString(),
    token: ulid(),
  };
  await openJob(job);
  try {
    await change(item, [], true);
  } catch (err) {
    await closeJob(workspaceId, id, true).catch(() => false);
    throw err;
  }
  return (await releaseStep(job, deadline)) as T | InvoiceReleasing;
}

/**
 * One step of a release: renew the lease, release within the budget, then end it (the invoice's `releasing`
 * cleared, or the invoice deleted, with the job, in one transaction). The progress when time ran out.
 */
async function releaseStep(job: InvoiceJob, deadline: number): Promise<Invoice | { deleted: true; id: string } | InvoiceReleasing> {
  const { workspaceId, invoiceId } = job;
  const progress = async (): Promise<InvoiceReleasing> => ({
    id: invoiceId,
    status: 'releasing',
    action: job.action ?? 'void',
    clientId: job.clientId,
    entryCount: Number((await invoices().getItem(workspaceId, { id: invoiceId }))?._entries ?? 0),
    locked: (await readJob(workspaceId, invoiceId))?.locked ?? 0,
  });
  await renewJob(workspaceId, invoiceId, Date.now() + stepLeaseMs(), 'releasing');
  if (!(await releaseEntries(job, deadline))) return progress();
  try {
    if (job.action === 'delete') return await invoices().delete(workspaceId, { id: invoiceId }, { also: [closeJobOp(workspaceId, invoiceId)] });
    return await invoices().update(workspaceId, { id: invoiceId }, { releasing: null }, { also: [closeJobOp(workspaceId, invoiceId)] });
  } catch (err) {
    // another step or the sweep ended it first (its job is gone): the end it made is the answer
    if (!(await readJob(workspaceId, invoiceId))) {
      const now = await invoices().getItem(workspaceId, { id: invoiceId });
      return now ? (invoices().present(now) as Invoice) : { deleted: true, id: invoiceId };
    }
    if (!(err instanceof EntriesRemain)) throw err;
    return progress();
  }
}

/**
 * draft or sent -> void; its entries are released in steps (each one `time-entry.updated`): 200 with the void
 * invoice when the release ends within this request's budget, else the progress (202; `continue` or the sweep
 * finishes it; the invoice says `releasing: true` meanwhile). 409 naming the status otherwise.
 */
export async function voidInvoice(workspaceId: string, id: string, opts: WriteOpts & { budgetMs?: number } = {}): Promise<Invoice | InvoiceReleasing> {
  return withRelease(workspaceId, id, 'void', opts, async (read, also, mark) =>
    invoices().update(
      workspaceId,
      { id },
      // a draft voided keeps its document as it was then, as a sent one does (./snapshot.ts)
      { status: 'void' satisfies InvoiceStatus, ...(mark ? { releasing: true } : {}), ...(read.status === 'draft' ? await liveParties(workspaceId, String(read.clientId)) : {}) },
      {
        ...(opts.ifMatch ? { ifMatch: opts.ifMatch } : {}),
        read,
        // the status read (draft or sent): the update's version guard refuses the write if it changed meanwhile
        assert: (cur) => assertTransition(cur, 'void'),
        also: [...also, ...(audited(workspaceId, opts.actor, 'invoice.voided', id, { status: { from: read.status, to: 'void' } }).also ?? [])],
      },
    ),
  );
}

/**
 * Deletes a draft or void invoice (409 naming the status otherwise); a draft's entries are released in steps
 * first (the invoice says `releasing: true` until they are; 202 with the progress when this request's budget
 * ran out). Also `DELETE /v1/invoices/{id}`.
 */
export async function deleteInvoice(workspaceId: string, id: string, opts: WriteOpts & { budgetMs?: number } = {}): Promise<{ deleted: true; id: string } | InvoiceReleasing> {
  return withRelease(workspaceId, id, 'delete', opts, (read, also, mark) => {
    const audit = audited(workspaceId, opts.actor, 'invoice.deleted', id, { number: { from: read.number }, status: { from: read.status } }).also ?? [];
    const guard = { ...(opts.ifMatch ? { ifMatch: opts.ifMatch } : {}), read };
    if (!mark) return invoices().delete(workspaceId, { id }, { ...guard, also: [...also, ...audit] });
    // marked now, deleted by the step that releases its last entry
    return invoices()
      .update(workspaceId, { id }, { releasing: true }, { ...guard, assert: (cur) => assertTransition(cur, 'delete'), also: [...also, ...audit] })
      .then(() => ({ deleted: true as const, id }));
  });
}

/**
 * The next step of whatever is in progress on the invoice: a create (`continueFromTime`) or a release
 * (void or delete). The invoice (or the deletion) when done, else the progress.
 */
export async function continueInvoice(workspaceId: string, invoiceId: string, opts: { budgetMs?: number } = {}) {
  const job = await readJob(workspaceId, invoiceId);
  if (job?.kind === 'release' && job.action) return releaseStep(job, Date.now() + (opts.budgetMs ?? stepBudgetMs()));
  return continueFromTime(workspaceId, invoiceId, opts);
}

/**
 * Seed-friendly: one invoice per client of the workspace with billable, stopped, not yet invoiced time in the
 * period (the seed calls it after seeding entries). Clients with nothing to invoice, time without a rate or
 * mixed currencies are skipped, with the reason.
 */
export async function invoiceEveryClient(
  workspaceId: string,
  period: { startDate: string; endDate: string; issueDate?: string; taxRate?: number },
): Promise<{ made: Invoice[]; skipped: Array<{ clientId: string; reason: string }> }> {
  const made: Invoice[] = [];
  const skipped: Array<{ clientId: string; reason: string }> = [];
  for (const client of await repository(clientEntity).listAll(workspaceId)) {
    try {
      made.push(await createFromTime({ workspaceId, clientId: client.id, ...period }));
    } catch (err) {
      if (!(err instanceof DomainError) || err.reason !== 'conflict') throw err;
      skipped.push({ clientId: client.id, reason: err.message });
    }
  }
  return { made, skipped };
}

// ------------------------------------------------------------------ a create made in steps (the console)
/**
 * An invoice still being made in steps: its id (the invoice's, once made), how many entries it found and
 * how many carry its id so far. The console answers it with 202; each `continueFromTime` call goes on.
 */
export interface InvoiceInProgress {
  id: string;
  status: 'pending';
  clientId: string;
  entryCount: number;
  locked: number;
}
/** How long one step works before it answers (INVOICE_STEP_BUDGET_MS, default 5 s: under the console function's 10 s timeout). */
export const stepBudgetMs = (): number => settings.invoiceStepBudgetMs();
/** A job made in steps is the sweep's when no step renewed it for this long (INVOICE_STEP_LEASE_MS, default 2 min). */
export const stepLeaseMs = (): number => settings.invoiceStepLeaseMs();

const isInProgress = (v: Invoice | InvoiceInProgress): v is InvoiceInProgress => v.status === 'pending';
export { isInProgress };

/**
 * The first step of `createFromTime` made in steps (docs/decisions.md, "Invoices in steps"): the same checks
 * and the same job, but the job keeps the request, and the step stops locking after its budget: the answer is
 * then the job's progress (`pending`), and `continueFromTime` goes on from the entries not yet locked. The
 * invoice appears in the same one commit transaction; a job no step renews for `stepLeaseMs` is rolled back
 * by the sweep, as a crashed create is.
 */
export async function beginFromTime(
  args: { workspaceId: string; actor?: Actor; budgetMs?: number; stats?: CreateStats } & CreateInvoiceInput,
): Promise<Invoice | InvoiceInProgress> {
  const { workspaceId, actor, budgetMs, stats, ...raw } = args;
  const deadline = Date.now() + (budgetMs ?? stepBudgetMs());
  await sweepInvoiceJobs({ workspaceId });
  const p = await prepare(workspaceId, raw);
  if (p.candidates.length === 0) invoiceLines([], { client: { name: '' }, projects: new Map(), tasks: new Map() }); // 409: nothing to invoice
  // the rules that need no lock fail here, before anything is written
  await linesOf(workspaceId, p, p.candidates);
  if (stats) stats.candidates = p.candidates.length;
  const job: InvoiceJob = {
    workspaceId,
    invoiceId: ulid(),
    kind: 'create',
    state: 'locking',
    clientId: p.input.clientId,
    lo: p.range.lo,
    hi: p.range.hi,
    locked: 0,
    leaseUntil: Date.now() + stepLeaseMs(),
    createdAt: new Date().toISOString(),
    token: ulid(),
    request: { ...p.input, issueDate: p.issueDate, dueDate: p.dueDate, ...(actor ? { actorId: actor.id } : {}) },
    expected: p.candidates.length,
  };
  await openJob(job);
  return step(job, p.candidates, deadline, stats);
}

/**
 * The next step of an invoice made in steps: the invoice when it is made (now or before), else its progress.
 * 404 when there is neither job nor invoice; 409 when the job was rolled back (no step came within its lease).
 */
export async function continueFromTime(workspaceId: string, invoiceId: string, opts: { budgetMs?: number; stats?: CreateStats } = {}): Promise<Invoice | InvoiceInProgress> {
  const deadline = Date.now() + (opts.budgetMs ?? stepBudgetMs());
  const job = await readJob(workspaceId, invoiceId);
  if (!job) return getInvoice(workspaceId, invoiceId);
  if (job.kind !== 'create' || !job.request) throw conflict(`Invoice ${invoiceId} is being released, not made`);
  if (job.state !== 'locking') throw conflict('Making this invoice stopped (no step came within its lease) and was rolled back; make it again');
  const candidates = await candidateEntries(workspaceId, job.clientId, { lo: job.lo, hi: job.hi });
  if (opts.stats) opts.stats.relocked += candidates.length;
  return step(job, candidates, deadline, opts.stats);
}

/** The request a create job keeps (parsed by its first step; stored by it, so read back as it was written). */
function requestOf(job: InvoiceJob): { input: z.output<typeof createInvoiceInput>; issueDate: string; dueDate: string; actor?: Actor } {
  const { actorId, ...request } = job.request ?? {};
  const input = request as z.output<typeof createInvoiceInput>;
  return { input, issueDate: String(request.issueDate), dueDate: String(request.dueDate), ...(typeof actorId === 'string' ? { actor: { id: actorId } } : {}) };
}

/**
 * One step: renew the job's lease, lock the candidates in batches until the budget is spent (never past
 * MAX_INVOICE_ENTRIES over all steps), then commit once the client index shows every entry the job counts.
 */
async function step(job: InvoiceJob, candidates: readonly StoredItem[], deadline: number, stats?: CreateStats): Promise<Invoice | InvoiceInProgress> {
  const { workspaceId, invoiceId } = job;
  const { input, issueDate, dueDate, actor } = requestOf(job);
  const range = { lo: job.lo, hi: job.hi };
  const progress = async (): Promise<InvoiceInProgress> => ({
    id: invoiceId,
    status: 'pending',
    clientId: job.clientId,
    entryCount: job.expected ?? 0,
    locked: (await readJob(workspaceId, invoiceId))?.locked ?? 0,
  });
  try {
    if (Date.now() - Date.parse(job.createdAt) > jobLeaseMs()) throw conflict('The entries of this invoice kept changing while it was made; make it again');
    if (!(await renewJob(workspaceId, invoiceId, Date.now() + stepLeaseMs()))) throw new JobLost();
    let changed = false;
    let worked = false;
    let lockedSoFar = job.locked;
    for (const batch of chunks(candidates, ENTRY_BATCH)) {
      if (lockedSoFar + batch.length > MAX_INVOICE_ENTRIES) {
        throw conflict(
          `The period holds more than ${MAX_INVOICE_ENTRIES} billable entries of the client; one invoice covers at most ${MAX_INVOICE_ENTRIES}: invoice a shorter period`,
        );
      }
      worked = true;
      if (stats) stats.lockBatches++;
      try {
        await lockBatch(workspaceId, invoiceId, batch);
        lockedSoFar += batch.length;
      } catch (err) {
        if (!(err instanceof EntriesChanged)) throw err;
        changed = true; // the next step reads the candidates again (the edited entry with its new values)
      }
      if (Date.now() >= deadline) return await progress();
    }
    if (changed) return await progress();
    const locked = await entriesOfInvoice(workspaceId, invoiceId, job.clientId, range);
    const count = (await readJob(workspaceId, invoiceId))?.locked;
    if (count === undefined) throw new JobLost();
    // the client index lags the table by a moment in AWS: commit once it shows every entry the job counts;
    // a step that locked entries and spent its budget leaves the commit to the next one
    if (locked.length !== count || (worked && Date.now() >= deadline)) return await progress();
    if (stats) stats.locked = locked.length;
    const lines = await linesOf(workspaceId, { input, range, issueDate, dueDate, candidates: [] }, locked);
    return await commitDraft(workspaceId, invoiceId, new Date().toISOString(), { input, issueDate, dueDate, range }, lines, locked.length, actor);
  } catch (err) {
    // The commit may have landed with its answer lost: then the invoice is whole, and it is the answer.
    const made = await invoices()
      .getItem(workspaceId, { id: invoiceId })
      .catch(() => undefined);
    if (made) return invoices().present(made) as Invoice;
    if (err instanceof JobLost) throw conflict('Making this invoice stopped (no step came within its lease) and was rolled back; make it again');
    // a rule that no retry fixes (nothing left, a rate or a currency changed, the bound): rolled back now; a failure
    // of the store (throttling, an outage, a crash) leaves the job to the next step or, past its lease, to the sweep
    if (err instanceof DomainError && (await abandonJob(workspaceId, invoiceId).catch(() => false))) await releaseAll({ ...job, state: 'releasing' }).catch(() => false);
    throw err;
  }
}
