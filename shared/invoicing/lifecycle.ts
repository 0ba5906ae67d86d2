import { amountDueOf, cents, invoiceLabel, invoices as invoiceEntity, MAX_PAYMENTS, type Invoice, type InvoiceStatus, type Payment } from '../domain/entities/invoices';
import { conflict, DomainError, invalidField } from '../domain/errors';
import { dateTimeString } from '../domain/fields';
import { ulid } from '../domain/ids';
import { assertTransition, invoiceNumberOf, invoiceTotals } from './rules';
import { type AuditEntry } from '../data/audit';
import { type WriteOp } from '../data/write';
import { readJob } from './store';
import { highestTakenNumber, numberTaken, NumberTaken, raiseSequence, readSequence, SequenceMoved, sequenceOp } from './store-numbers';

import { type WriteOpts, audited, invoices, parse, stepBudgetMs, today } from './common';
import { continueFromTime } from './create';
import { type DraftChanges, type NewPayment } from './inputs';
import { getInvoice } from './read';
import { partiesToKeep, type KeptParties } from './snapshot';
import { type InvoiceReleasing, releaseStep, withRelease } from './release';

/**
 * What happens to an invoice after it is made: draft edits, send (finalize: the number), payments, void and
 * delete (their releases run in ./release), and `continueInvoice` (the next step of whatever is in progress).
 */
/** The number the next invoice sent without one gets (the sequence, or past the highest number taken by the seed). */
async function nextNumber(workspaceId: string): Promise<{ previous: number | undefined; next: number }> {
  const previous = await readSequence(workspaceId);
  const base = previous ?? (await highestTakenNumber(workspaceId));
  return { previous, next: base + 1 };
}

/** Changes a draft: number, dates, tax rate (tax and total follow), notes (null clears), line descriptions. 409 unless draft. */
export async function changeDraft(workspaceId: string, id: string, input: DraftChanges, opts: WriteOpts = {}): Promise<Invoice> {
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

/** The revision of a record as read (its ETag's number): the guard of a write computed from what was read. */
const revisionOf = (inv: Invoice): number => Number(/\d+/.exec(String(inv.etag))?.[0]);

const stale = () => new DomainError('precondition-failed', `${invoiceEntity.kind} has changed since the ETag given in If-Match; read it again and retry with its current ETag`);

/** A write computed from a read: guarded by that read's revision, and read again (up to 20 times) when another writer came first, unless the caller gave If-Match. */
async function guarded<T>(opts: WriteOpts & { workspaceId: string; id: string }, attempt: (current: Invoice) => Promise<T>): Promise<T> {
  for (let round = 0; ; round++) {
    const current = await getInvoice(opts.workspaceId, opts.id);
    if (opts.ifMatch && opts.ifMatch !== '*' && !opts.ifMatch.includes(revisionOf(current))) throw stale();
    try {
      return await attempt(current);
    } catch (err) {
      const retry = (err instanceof DomainError && err.reason === 'precondition-failed' && !opts.ifMatch) || err instanceof SequenceMoved || err instanceof NumberTaken;
      if (!retry || round >= 20) throw err;
      if (err instanceof NumberTaken) await raiseSequence(opts.workspaceId, err.n);
      await new Promise((r) => setTimeout(r, Math.random() * 5 * (round + 1)));
    }
  }
}

/**
 * What finalizing a draft writes, with the number it gets: the custom number set on the draft, else the
 * sequence's next. The place where whatever a sent invoice must keep as sent (snapshots) joins the
 * finalization's one transaction: add its fields to `changes`, its writes to `also`.
 */
function finalize(
  workspaceId: string,
  current: Invoice,
  at: string,
  sequence: { previous: number | undefined; next: number } | undefined,
  parties: KeptParties,
): { changes: { status: InvoiceStatus; sentAt: string; number: string } & KeptParties; also: WriteOp[] } {
  const number = current.number ?? invoiceNumberOf(sequence!.next);
  // the snapshot (./snapshot.ts): what the document shows of the profile and the client, as sent
  return { changes: { status: 'sent', sentAt: at, number, ...parties }, also: sequence ? [sequenceOp(workspaceId, sequence)] : [] };
}

/**
 * draft -> sent (finalizing, Stripe's word): the draft gets its number, the next of the workspace's sequence
 * unless a custom one was set on it, in the same one transaction as the status (the sequence item moves
 * under the condition that it still holds the value read, and the number's lock is put under the condition
 * that it does not exist: two sends never take one number, and a number is taken only by an invoice that is
 * sent, so the issued numbers are consecutive). 409 naming the status otherwise.
 */
export async function sendInvoice(workspaceId: string, id: string, opts: WriteOpts & { at?: string } = {}): Promise<Invoice> {
  const at = opts.at === undefined ? new Date().toISOString() : parse(dateTimeString, opts.at);
  return guarded({ ...opts, workspaceId, id }, async (current) => {
    assertTransition(current, 'send');
    const [sequence, parties] = await Promise.all([current.number === null ? nextNumber(workspaceId) : undefined, partiesToKeep(workspaceId, current.clientId)]);
    const { changes, also } = finalize(workspaceId, current, at, sequence, parties);
    const entry = { status: { from: 'draft', to: 'sent' }, sentAt: { to: at }, number: { from: current.number, to: changes.number } };
    try {
      return await invoices().update(workspaceId, { id }, changes, {
        ifMatch: [revisionOf(current)],
        assert: (cur) => assertTransition(cur, 'send'),
        also: [...also, ...(audited(workspaceId, opts.actor, 'invoice.sent', id, entry).also ?? [])],
      });
    } catch (err) {
      // the sequence's number was taken by hand (the admin CLI, the seed): the sequence passes over it
      if (sequence && err instanceof DomainError && err.reason === 'conflict' && (await numberTaken(workspaceId, changes.number))) throw new NumberTaken(sequence.next);
      throw err;
    }
  });
}

/**
 * Records a payment (sent or partially_paid invoices; 409 naming the status otherwise): `paidAt` a day not in
 * the future, `amount` more than 0 and at most what is still due (400 naming the field). The invoice is paid
 * (`paidAt` the day of that payment) when the payments reach the total, partially_paid before. The write is
 * guarded by the revision read, so concurrent payments are applied one after the other, each checked against
 * what is due after the others: they never pay more than the total.
 */
export async function recordPayment(workspaceId: string, id: string, input: NewPayment, opts: WriteOpts = {}): Promise<Invoice> {
  if (input.paidAt > today()) throw invalidField('paidAt', `must not be in the future (today is ${today()}, UTC)`);
  const recordedAt = new Date().toISOString();
  const payment: Payment = { id: ulid(), paidAt: input.paidAt, amount: input.amount, ...(input.reference !== undefined ? { reference: input.reference } : {}), recordedAt };
  return guarded({ ...opts, workspaceId, id }, async (current) => {
    assertTransition(current, 'pay');
    const due = cents(amountDueOf(current));
    if (cents(input.amount) > due) throw invalidField('amount', `must be at most the amount due (${(due / 100).toFixed(2)} ${current.currency})`);
    const payments = [...(current.payments ?? []), payment];
    if (payments.length > MAX_PAYMENTS) throw conflict(`Invoice ${invoiceLabel(current)} has ${MAX_PAYMENTS} payments already, the most one invoice records`);
    const paid = cents(input.amount) === due;
    const status: InvoiceStatus = paid ? 'paid' : 'partially_paid';
    const changes = { payments, status, ...(paid ? { paidAt: `${input.paidAt}T00:00:00.000Z` } : {}) };
    const entry: AuditEntry['changes'] = {
      amount: { to: input.amount },
      paidAt: { to: input.paidAt },
      ...(input.reference !== undefined ? { reference: { to: input.reference } } : {}),
      amountDue: { from: due / 100, to: (due - cents(input.amount)) / 100 },
      ...(status !== current.status ? { status: { from: current.status, to: status } } : {}),
    };
    return invoices().update(workspaceId, { id }, changes, {
      ifMatch: [revisionOf(current)],
      assert: (cur) => assertTransition(cur, 'pay'),
      ...audited(workspaceId, opts.actor, 'invoice.paid', id, entry),
    });
  });
}

/**
 * draft or sent -> void; its entries are released in steps (each one `time-entry.updated`): 200 with the void
 * invoice when the release ends within this request's budget, else the progress (202; `continue` or the sweep
 * finishes it; the invoice says `releasing: true` meanwhile). 409 naming the status otherwise.
 */
export async function voidInvoice(workspaceId: string, id: string, opts: WriteOpts & { budgetMs?: number } = {}): Promise<Invoice | InvoiceReleasing> {
  return withRelease(workspaceId, id, 'void', opts, async ({ invoice: read, asRead }, also, mark) =>
    invoices().update(
      workspaceId,
      { id },
      // a draft voided keeps its document as it was then, as a sent one does (./snapshot.ts)
      { status: 'void' satisfies InvoiceStatus, ...(mark ? { releasing: true } : {}), ...(read.status === 'draft' ? await partiesToKeep(workspaceId, read.clientId) : {}) },
      {
        ...(opts.ifMatch ? { ifMatch: opts.ifMatch } : {}),
        ...asRead,
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
  return withRelease(workspaceId, id, 'delete', opts, ({ invoice: read, asRead }, also, mark) => {
    const audit = audited(workspaceId, opts.actor, 'invoice.deleted', id, { number: { from: read.number }, status: { from: read.status } }).also ?? [];
    const guard = { ...(opts.ifMatch ? { ifMatch: opts.ifMatch } : {}), ...asRead };
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
