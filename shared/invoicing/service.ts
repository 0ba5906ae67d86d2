import { type Invoice } from '../domain/entities/invoices';
import { type RecordPage } from '../data/repository';
import { parse, type Actor, type WriteOpts } from './common';
import { beginInvoice, makeInvoice, previewInvoice, type CreateStats, type InvoiceInProgress, type InvoicePreview } from './create';
import {
  createInvoiceInput,
  listInvoicesInput,
  payInvoiceInput,
  updateInvoiceInput,
  type CreateInvoiceInput,
  type ListInvoicesInput,
  type PayInvoiceInput,
  type UpdateInvoiceInput,
} from './inputs';
import { changeDraft, recordPayment } from './lifecycle';
import { invoicePage } from './read';

/**
 * Invoices made from billable time (issue 24): the functions the console's routes call, and the seed.
 * docs/data-model.md ("Invoices from time") and docs/decisions.md ("Invoices from time") give the design:
 *
 *   create: read the candidates -> open a job (INVOICEJOBS item, state locking) -> lock the entries in batches
 *   of 49 (each a transaction with its events and the job's count) -> compute the lines from the entries as
 *   locked -> one commit transaction (the draft, without a number unless a custom one was given, its client
 *   counter, event, job deleted if its count equals the entries on the invoice); sending numbers it.
 *
 * A failure before the commit rolls back at once (job -> releasing, entries released, job closed); a
 * crash leaves the job, and `sweepInvoiceJobs` (named retry: run by the next invoicing call of the
 * workspace, by the admin or on a schedule) rolls it back once its lease ran out. Voiding or deleting an
 * invoice opens a release job first, changes the invoice, then releases its entries; the sweep finishes
 * a release a crash interrupted. Roles are the caller's business (the console: owners and admins write).
 *
 * The room (issue 32, item 1), one file per concern, each under 500 lines: ./inputs (the request shapes),
 * ./create (the one create algorithm, in steps), ./lifecycle (draft edits, send with its number, payments,
 * void, delete), ./release (releases in steps and the sweep), ./read, ./views (the unbilled time, an invoice's
 * entries by page), ./catalog (the names and rates lines are made from), ./common (budgets, the audit entry);
 * ./store* know the items and return Invoice and TimeEntry records, ./rules the arithmetic. This module is
 * the wing's one entry point for its callers (the console's routes, functions, the seed, tests).
 *
 * Request shapes are parsed once, at the edge: the console's routes declare ./inputs' schemas (the kernel
 * parses them) and call the engine with the parsed values (`beginInvoice`, `previewInvoice`, `changeDraft`,
 * `recordPayment`, `invoicePage`); the functions below are the edge of the callers that are not HTTP (the
 * seed, the bench, tests): they parse what they are handed with the same schemas, once, and call the same engine.
 */
export * from './common';
export * from './inputs';
export * from './read';
export * from './create';
export * from './lifecycle';
export * from './release';

/** The create run to its end (no step budget), from an unparsed request: 400 naming the field it refuses (each of these answers a rejected promise, never a throw). */
export const createFromTime = async ({ workspaceId, actor, stats, ...body }: { workspaceId: string; actor?: Actor; stats?: CreateStats } & CreateInvoiceInput): Promise<Invoice> =>
  makeInvoice(workspaceId, parse(createInvoiceInput, body), { ...(actor ? { actor } : {}), ...(stats ? { stats } : {}) });

/** The first step of the create in steps, from an unparsed request. */
export const beginFromTime = async ({
  workspaceId,
  actor,
  stats,
  budgetMs,
  ...body
}: { workspaceId: string; actor?: Actor; budgetMs?: number; stats?: CreateStats } & CreateInvoiceInput): Promise<Invoice | InvoiceInProgress> =>
  beginInvoice(workspaceId, parse(createInvoiceInput, body), { ...(actor ? { actor } : {}), ...(stats ? { stats } : {}), ...(budgetMs !== undefined ? { budgetMs } : {}) });

/** What the create would make now, from an unparsed request (writes nothing). */
export const previewFromTime = async ({ workspaceId, actor: _actor, ...body }: { workspaceId: string; actor?: Actor } & CreateInvoiceInput): Promise<InvoicePreview> =>
  previewInvoice(workspaceId, parse(createInvoiceInput, body));

/** A draft change, from an unparsed patch. */
export const updateDraft = async (workspaceId: string, id: string, patch: UpdateInvoiceInput, opts: WriteOpts = {}): Promise<Invoice> =>
  changeDraft(workspaceId, id, parse(updateInvoiceInput, patch), opts);

/** A payment, from an unparsed body. */
export const payInvoice = async (workspaceId: string, id: string, body: PayInvoiceInput, opts: WriteOpts = {}): Promise<Invoice> =>
  recordPayment(workspaceId, id, parse(payInvoiceInput, body), opts);

/** One page of invoices (the filters of GET /v1/invoices), from an unparsed query. */
export const listInvoices = async (workspaceId: string, query: ListInvoicesInput = {}): Promise<RecordPage<Invoice>> => invoicePage(workspaceId, parse(listInvoicesInput, query));
