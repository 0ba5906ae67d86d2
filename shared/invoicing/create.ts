import { assertInvoiceTotals, invoices as invoiceEntity, type Invoice } from '../domain/entities/invoices';
import { clients as clientEntity } from '../domain/entities/clients';
import { sortKeyRange } from '../domain/entities/time-entries';
import { conflict, DomainError, invalidField } from '../domain/errors';
import { ulid } from '../domain/ids';
import { addDays, DEFAULT_DUE_DAYS, invoiceLines, invoiceTotals, MAX_INVOICE_ENTRIES, type BillableEntry, type InvoiceCatalog, type InvoiceLines } from './rules';
import {
  abandonJob,
  candidateEntries,
  commitInvoice,
  ENTRY_BATCH,
  entriesOfInvoice,
  EntriesChanged,
  JobLost,
  lockBatch,
  openJob,
  readInvoice,
  readJob,
  renewJob,
  type InvoiceJob,
  type ReadEntry,
} from './store';
import { repository } from '../data/repository';

import { type Actor, audited, chunks, jobLeaseMs, parse, stepBudgetMs, stepLeaseMs, today } from './common';
import { catalogClient, catalogOf } from './catalog';
import { createInvoiceInput, type NewInvoice } from './inputs';
import { getInvoice } from './read';
import { releaseAll, rollBack, sweepInvoiceJobs } from './release';
import { numberTaken } from './store-numbers';
import { readProfile } from './store-profile';

/**
 * Making a draft from billable time: the one create algorithm, in steps (`beginInvoice`, `continueFromTime`:
 * the console), and the same run to its end with no budget (`makeInvoice`: the seed). Each takes the request
 * as parsed at the edge (the console's routes; ./service for other callers) and never parses it again.
 * docs/data-model.md, "Invoices from time".
 */
const MAX_LOCK_ROUNDS = 5;

export interface InvoicePreview {
  clientId: string;
  /** The custom number given, else null (sending assigns the sequence's next). */
  number: string | null;
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

/** A create's request with the billing profile's defaults applied, its dates and range: what its lines and its draft are made from. */
interface Request {
  input: NewInvoice;
  range: { lo: string; hi: string };
  issueDate: string;
  dueDate: string;
}
interface Prepared extends Request {
  candidates: ReadEntry[];
  /** The client as the lines name it (read once by prepare: the lines of the first step name it without reading it again). */
  client: InvoiceCatalog['client'];
}

const billable = ({ entry }: ReadEntry): BillableEntry => ({
  id: entry.id,
  startTime: entry.startTime,
  // a candidate has minutes (./store `candidateEntries`), and the entries locked were candidates
  durationMinutes: entry.durationMinutes ?? 0,
  ...(entry.projectId !== undefined ? { projectId: entry.projectId } : {}),
  ...(entry.taskId !== undefined ? { taskId: entry.taskId } : {}),
  ...(entry.name !== undefined ? { name: entry.name } : {}),
  ...(entry.notes !== undefined ? { notes: entry.notes } : {}),
});

/** The client as the lines name it: one consistent GetItem of the client and one of the billing profile (its default currency). 400 when it does not exist. */
async function clientOf(workspaceId: string, clientId: string): Promise<InvoiceCatalog['client']> {
  const repo = repository(clientEntity);
  const [item, profile] = await Promise.all([repo.getItem(workspaceId, { id: clientId }), readProfile(workspaceId)]);
  if (!item) throw invalidField('clientId', `Client ${clientId} does not exist in this workspace`);
  return catalogClient(repo.present(item), clientId, profile?.profile);
}

async function prepare(workspaceId: string, given: NewInvoice): Promise<Prepared> {
  // what the create leaves out comes from the billing profile: tax rate, notes (its footer), payment terms
  const clientRepo = repository(clientEntity);
  const [stored, clientItem] = await Promise.all([readProfile(workspaceId), clientRepo.getItem(workspaceId, { id: given.clientId })]);
  const profile = stored?.profile;
  const input = {
    ...given,
    ...(given.taxRate === undefined && profile?.defaultTaxRate !== undefined ? { taxRate: profile.defaultTaxRate } : {}),
    ...(given.notes === undefined && profile?.invoiceFooter !== undefined ? { notes: profile.invoiceFooter } : {}),
  };
  const range = sortKeyRange(input.startDate, input.endDate);
  const issueDate = input.issueDate ?? today();
  const dueDate = input.dueDate ?? addDays(issueDate, profile?.paymentTermsDays ?? DEFAULT_DUE_DAYS);
  if (dueDate < issueDate) throw invalidField('dueDate', 'must not be before issueDate');
  if (!clientItem) throw invalidField('clientId', `Client ${input.clientId} does not exist in this workspace`);
  if (input.number !== undefined && (await numberTaken(workspaceId, input.number))) throw conflict(invoiceEntity.unique!.message(input.number));
  const candidates = await candidateEntries(workspaceId, input.clientId, range);
  if (candidates.length > MAX_INVOICE_ENTRIES) {
    throw conflict(`That period holds ${candidates.length} billable entries of the client; one invoice covers at most ${MAX_INVOICE_ENTRIES}: invoice a shorter period`);
  }
  return { input, range, issueDate, dueDate, candidates, client: catalogClient(clientRepo.present(clientItem), input.clientId, profile) };
}

/** The lines of these entries (the projects and tasks they name read now: the rates as they are when the entries are locked). */
async function linesOf(workspaceId: string, input: NewInvoice, client: InvoiceCatalog['client'], read: readonly ReadEntry[]): Promise<InvoiceLines> {
  const entries = read.map(billable);
  return invoiceLines(entries, await catalogOf(workspaceId, client, entries), input.lines ?? 'project');
}

/** The fields of the invoice made from these lines: what the preview shows and the draft's commit stores. */
function invoiceFields(p: Omit<Request, 'range'>, lines: InvoiceLines, number: string | null) {
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

/** What a create of this request would make now, without writing anything. */
export async function previewInvoice(workspaceId: string, input: NewInvoice): Promise<InvoicePreview> {
  const p = await prepare(workspaceId, input);
  const lines = await linesOf(workspaceId, p.input, p.client, p.candidates);
  return {
    ...invoiceFields(p, lines, p.input.number ?? null),
    entryCount: p.candidates.length,
    lineEntries: lines.lineEntries,
  };
}

/**
 * The commit of a draft whose entries are all locked: the record from the lines (totals checked), then the
 * one commit transaction. A draft has no number (null) unless a custom one was given (its lock joins the
 * commit); sending assigns the sequence's next (`sendInvoice`).
 */
async function commitDraft(workspaceId: string, invoiceId: string, now: string, p: Request, lines: InvoiceLines, entryCount: number, actor: Actor | undefined): Promise<Invoice> {
  const record: Invoice = { id: invoiceId, ...invoiceFields(p, lines, p.input.number ?? null), status: 'draft', createdAt: now, updatedAt: now };
  const making = { ...p.range, period: [p.input.startDate, p.input.endDate] as const, ...(actor ? { createdBy: actor.id } : {}) };
  assertInvoiceTotals(record);
  const created = { number: { to: record.number }, clientId: { to: record.clientId }, total: { to: record.total }, currency: { to: record.currency } };
  return commitInvoice({ workspaceId, record, making, entryCount, ...audited(workspaceId, actor, 'invoice.created', invoiceId, created) });
}

/** Statistics of one create (the bench prints them). */
export interface CreateStats {
  candidates: number;
  locked: number;
  lockBatches: number;
  /** Entries found again by a later round (an entry changed while the invoice was made). */
  relocked: number;
}

/** Who makes the invoice, and what a caller measures of it. */
export interface MakeOpts {
  actor?: Actor;
  stats?: CreateStats;
}

/**
 * Makes a draft invoice from the client's billable, stopped, not yet invoiced entries starting in the
 * period (days inclusive, UTC): the create in steps (`beginInvoice`, `continueFromTime`: the one algorithm)
 * run to its end with no budget. 409: nothing to invoice, no rate or mixed currencies (naming the projects),
 * a number taken, more than 5,000 entries, entries that keep changing. Every entry it invoices is locked
 * (`invoiceId`), each lock one `time-entry.updated` event; the lines are computed from the entries as locked.
 */
export async function makeInvoice(workspaceId: string, input: NewInvoice, opts: MakeOpts = {}): Promise<Invoice> {
  const unbounded = { ...opts, budgetMs: Number.POSITIVE_INFINITY };
  let made = await beginInvoice(workspaceId, input, unbounded);
  for (let round = 1; isInProgress(made); round++) {
    if (round >= MAX_LOCK_ROUNDS) {
      await rollBack(workspaceId, made.id);
      throw conflict('The entries of this invoice keep changing while it is made; retry');
    }
    // a round that locked nothing new waits for the client index to show what the job counts
    await new Promise((r) => setTimeout(r, 10 * round));
    made = await continueFromTime(workspaceId, made.id, unbounded).catch((err: unknown) => {
      // neither job nor invoice: the sweep took this create's job (its lease ran out) and rolled it back to the
      // end, so the invoice was not made: the same 409 as a rollback seen halfway, never a 404 for a create
      if (err instanceof DomainError && err.reason === 'not-found') throw conflict('Making this invoice was rolled back by the sweep (its lease ran out); retry');
      throw err;
    });
  }
  return made;
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
      // the seed's edge: its period parsed as every non-HTTP caller's request is (./service), before anything is written
      made.push(await makeInvoice(workspaceId, parse(createInvoiceInput, { clientId: client.id, ...period })));
    } catch (err) {
      if (!(err instanceof DomainError) || err.reason !== 'conflict') throw err;
      skipped.push({ clientId: client.id, reason: err.message });
    }
  }
  return { made, skipped };
}

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

export const isInProgress = (v: Invoice | InvoiceInProgress): v is InvoiceInProgress => v.status === 'pending';

/**
 * The first step of a create made in steps (docs/decisions.md, "Invoices in steps"): the checks, then the
 * job, which keeps the request; the step stops locking after its budget: the answer is then the job's
 * progress (`pending`), and `continueFromTime` goes on from the entries not yet locked. The invoice appears
 * in the same one commit transaction; a job no step renews for `stepLeaseMs` is rolled back by the sweep,
 * as a crashed create is. The client and the billing profile are read once (by `prepare`).
 */
export async function beginInvoice(workspaceId: string, given: NewInvoice, opts: MakeOpts & { budgetMs?: number } = {}): Promise<Invoice | InvoiceInProgress> {
  const { actor, budgetMs, stats } = opts;
  const deadline = Date.now() + (budgetMs ?? stepBudgetMs());
  await sweepInvoiceJobs({ workspaceId });
  const p = await prepare(workspaceId, given);
  if (p.candidates.length === 0) invoiceLines([], { client: { name: '' }, projects: new Map(), tasks: new Map() }); // 409: nothing to invoice
  // the rules that need no lock fail here, before anything is written
  await linesOf(workspaceId, p.input, p.client, p.candidates);
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
  return step(job, p.candidates, deadline, stats, p.client);
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

/** The request a create job keeps (parsed at the edge by its first step's caller; stored by that step, so read back as it was written). */
function requestOf(job: InvoiceJob): Omit<Request, 'range'> & { actor?: Actor } {
  const { actorId, ...request } = job.request ?? {};
  const input = request as NewInvoice;
  return { input, issueDate: String(request.issueDate), dueDate: String(request.dueDate), ...(typeof actorId === 'string' ? { actor: { id: actorId } } : {}) };
}

/**
 * One step: renew the job's lease, lock the candidates in batches until the budget is spent (never past
 * MAX_INVOICE_ENTRIES over all steps), then commit once the client index shows every entry the job counts.
 * `client`: as the first step read it (a later step, in its own request, reads it once).
 */
async function step(
  job: InvoiceJob,
  candidates: readonly ReadEntry[],
  deadline: number,
  stats?: CreateStats,
  client?: InvoiceCatalog['client'],
): Promise<Invoice | InvoiceInProgress> {
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
    const lines = await linesOf(workspaceId, input, client ?? (await clientOf(workspaceId, input.clientId)), locked);
    return await commitDraft(workspaceId, invoiceId, new Date().toISOString(), { input, issueDate, dueDate, range }, lines, locked.length, actor);
  } catch (err) {
    // The commit may have landed with its answer lost: then the invoice is whole, and it is the answer.
    const made = await readInvoice(workspaceId, invoiceId).catch(() => undefined);
    if (made) return made.invoice;
    if (err instanceof JobLost) throw conflict('Making this invoice stopped (no step came within its lease) and was rolled back; make it again');
    // a rule that no retry fixes (nothing left, a rate or a currency changed, the bound): rolled back now; a failure
    // of the store (throttling, an outage, a crash) leaves the job to the next step or, past its lease, to the sweep
    if (err instanceof DomainError && (await abandonJob(workspaceId, invoiceId).catch(() => false))) await releaseAll({ ...job, state: 'releasing' }).catch(() => false);
    throw err;
  }
}
