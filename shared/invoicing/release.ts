import { invoiceLabel, invoices as invoiceEntity, type Invoice } from '../domain/entities/invoices';
import { conflict, notFound } from '../domain/errors';
import { ulid } from '../domain/ids';
import { assertTransition } from './rules';
import { type WriteOp } from '../data/write';
import {
  abandonJob,
  closeJob,
  ENTRY_BATCH,
  entriesOfInvoice,
  EntriesChanged,
  EntriesRemain,
  closeJobOp,
  listJobs,
  noJobOp,
  openJob,
  readJob,
  releaseBatch,
  renewJob,
  rereadEntries,
  readInvoice,
  type InvoiceJob,
  type ReadEntry,
  type StoredInvoice,
} from './store';

import { type WriteOpts, chunks, invoices, stepBudgetMs, stepLeaseMs } from './common';

/**
 * Releasing an invoice's time entries (void, delete, a rolled-back create) in steps, and the sweep that
 * finishes what no step continued (docs/data-model.md, "Release in steps", "The sweep").
 */
/** A create that will not finish: its job -> releasing, its entries released (what remains is the sweep's). */
export async function rollBack(workspaceId: string, invoiceId: string): Promise<void> {
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
async function releaseEntries(job: InvoiceJob, deadline = Number.POSITIVE_INFINITY, known: readonly ReadEntry[] = []): Promise<boolean> {
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
        const still = (await rereadEntries(batch)).filter((r) => r.entry.invoiceId === invoiceId);
        if (still.length) await releaseBatch(workspaceId, invoiceId, still).catch((e: unknown) => (e instanceof EntriesChanged ? [] : Promise.reject(e)));
      }
    }
    if (((await readJob(workspaceId, invoiceId))?.locked ?? 0) === 0) return true;
  }
  return false;
}

/** Releases a rolled-back create's entries and closes its job (false when entries remain: the next sweep goes on). */
export async function releaseAll(job: InvoiceJob, known: readonly ReadEntry[] = [], deadline = Number.POSITIVE_INFINITY): Promise<boolean> {
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
      const invoice = (await readInvoice(job.workspaceId, job.invoiceId))?.invoice;
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
export async function withRelease<T>(
  workspaceId: string,
  id: string,
  action: 'void' | 'delete',
  opts: WriteOpts & { budgetMs?: number },
  change: (read: StoredInvoice, also: readonly WriteOp[], mark: boolean) => Promise<T>,
): Promise<T | InvoiceReleasing> {
  const deadline = Date.now() + (opts.budgetMs ?? stepBudgetMs());
  // the one read of the invoice: the change writes against it (guarded by its version; a retry reads again)
  const read = await readInvoice(workspaceId, id);
  if (!read) throw notFound(invoiceEntity.kind);
  const { invoice, making } = read;
  assertTransition(invoice, action);
  const count = invoice.status === 'void' ? 0 : (making?.entries ?? 0);
  if (count === 0 || !making) {
    // nothing carries its id (a void invoice's entries were released when it was voided; a seeded one has none);
    // a release still running (its job item, keyed by the invoice) fails the change's own transaction
    const stillReleasing = () => conflict(`Invoice ${invoiceLabel(invoice)} is still releasing its entries; retry in a moment`);
    return change(read, [noJobOp(workspaceId, id, stillReleasing)], false);
  }
  const job: InvoiceJob = {
    workspaceId,
    invoiceId: id,
    kind: 'release',
    state: 'releasing',
    action,
    clientId: invoice.clientId,
    lo: making.lo,
    hi: making.hi,
    locked: count,
    leaseUntil: Date.now() + stepLeaseMs(),
    createdAt: new Date().toISOString(),
    token: ulid(),
  };
  await openJob(job);
  try {
    await change(read, [], true);
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
export async function releaseStep(job: InvoiceJob, deadline: number): Promise<Invoice | { deleted: true; id: string } | InvoiceReleasing> {
  const { workspaceId, invoiceId } = job;
  const progress = async (): Promise<InvoiceReleasing> => ({
    id: invoiceId,
    status: 'releasing',
    action: job.action ?? 'void',
    clientId: job.clientId,
    entryCount: (await readInvoice(workspaceId, invoiceId))?.making?.entries ?? 0,
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
      const now = await readInvoice(workspaceId, invoiceId);
      return now ? now.invoice : { deleted: true, id: invoiceId };
    }
    if (!(err instanceof EntriesRemain)) throw err;
    return progress();
  }
}
