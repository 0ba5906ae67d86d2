import * as z from 'zod/mini';
import { invoices as invoiceEntity, lineItemSchema, type Invoice } from '../../domain/entities/invoices';
import { clients as clientEntity } from '../../domain/entities/clients';
import { timeEntries as timeEntryEntity } from '../../domain/entities/time-entries';
import { idString, meta } from '../../domain/fields';
import { cursorParam, deletedSchema, limitParam, pageOf, responseSchema } from '../../api/schemas';
import { repository } from '../../data/repository';
import {
  beginInvoice,
  changeDraft,
  continueInvoice,
  createInvoiceInput,
  deleteInvoice,
  entryPageInput,
  getInvoice,
  invoicePage,
  isInProgress,
  isReleasing,
  listInvoicesInput,
  payInvoiceInput,
  previewInvoice,
  recordPayment,
  sendInvoice,
  unbilledInput,
  updateInvoiceInput,
  voidInvoice,
  type InvoiceInProgress,
  type InvoiceReleasing,
} from '../../invoicing/service';
import { invoiceEntriesPage, unbilledTime } from '../../invoicing/views';
import { AcceptedReply, consoleRoute } from '../route-table';
import * as s from '../schemas';

/**
 * The Invoices section (issue 24): invoices made from billable time, over shared/invoicing/service.ts.
 * Owners and admins make, change, send, pay, void and delete; viewers read (list, one, its entries, the PDF).
 * Making an invoice goes in steps (docs/decisions.md, "Invoices in steps"): the create answers 201 with the
 * draft when it is made within one step (INVOICE_STEP_BUDGET_MS), else 202 with its progress, and the page
 * calls `.../continue` until the draft is there.
 */
const TAG = 'Invoices';
const base = '/console/api/workspaces/{workspaceId}/invoices';
const one = `${base}/{invoiceId}`;

const invoiceParams = z.strictObject({ workspaceId: s.workspaceParams.shape.workspaceId, invoiceId: meta(idString, { description: 'The invoice id' }) });
const invoiceSchema = responseSchema(invoiceEntity);
const progressSchema = meta(
  z.object({
    id: meta(z.string(), { description: 'The id the invoice will have (pending) or has (releasing)' }),
    status: meta(z.enum(['pending', 'releasing']), { description: "pending: being made; releasing: a void or delete releasing the invoice's time entries" }),
    action: meta(z.optional(z.enum(['void', 'delete'])), { description: 'What a release is for' }),
    clientId: z.string(),
    entryCount: meta(z.int(), { description: 'The entries found when it was started (pending), or on the invoice (releasing)' }),
    locked: meta(z.int(), { description: 'The entries that carry its id so far (pending: going up; releasing: going down to 0)' }),
  }),
  { id: 'ConsoleInvoiceInProgress' },
);
const previewSchema = meta(
  z.object({
    clientId: z.string(),
    number: meta(z.nullable(z.string()), { description: 'The custom number given, else null: sending the draft assigns the next of the sequence' }),
    issueDate: z.string(),
    dueDate: z.string(),
    currency: z.string(),
    lineItems: z.array(lineItemSchema),
    subtotal: z.number(),
    tax: z.number(),
    total: z.number(),
    taxRate: z.number(),
    notes: z.optional(z.string()),
    entryCount: z.int(),
    lineEntries: meta(z.array(z.array(z.string())), { description: "The time entries of each line, in the lines' order" }),
  }),
  { id: 'ConsoleInvoicePreview' },
);
/** The engine's list input, its page size and cursor in their query-string forms (those of every list). */
const listQuery = z.extend(listInvoicesInput, { limit: limitParam, cursor: cursorParam });

const entryPageQuery = z.extend(entryPageInput, { limit: limitParam, cursor: cursorParam });
const unbilledSchema = meta(
  z.object({
    items: z.array(
      z.object({
        clientId: z.string(),
        clientName: z.string(),
        entries: meta(z.int(), { description: 'Billable, stopped entries on no invoice' }),
        minutes: z.int(),
        amount: meta(z.nullable(z.number()), { description: 'What an invoice of them would total before tax (lines by project); null when it cannot be made' }),
        currency: z.nullable(z.string()),
        oldestDate: meta(z.string(), { description: "The oldest entry's start date (UTC)" }),
        newestDate: meta(z.string(), { description: "The newest entry's start date (UTC)" }),
        problem: meta(z.optional(z.string()), { description: 'Why an invoice of that period would be refused (no rate, several currencies, over 5,000 entries)' }),
      }),
    ),
    complete: meta(z.boolean(), { description: 'False when the read stopped at its bound (8 MB of entries, newest first)' }),
    countedFrom: meta(z.optional(z.string()), { description: 'When not complete: only entries starting at or after this instant are counted' }),
  }),
  { id: 'ConsoleUnbilledTime' },
);

const made = <T extends object>(r: T | InvoiceInProgress | InvoiceReleasing) => (isInProgress(r as Invoice) || isReleasing(r) ? new AcceptedReply(r) : (r as T));

export const invoiceRoutes = {
  listConsoleClients: consoleRoute(
    {
      method: 'GET',
      path: '/console/api/workspaces/{workspaceId}/clients',
      access: 'viewer',
      tag: TAG,
      summary: 'The workspace\'s clients, by name (what "New invoice" picks from; the list the invoices name)',
      params: s.workspaceParams,
      response: z.object({ items: z.array(z.object({ id: z.string(), name: z.string(), currency: z.optional(z.string()) })) }),
      successStatus: 200,
    },
    async ({ params }) => ({
      items: (await repository(clientEntity).listAll(params.workspaceId)).map((c) => ({ id: c.id, name: c.name, ...(c.currency ? { currency: c.currency } : {}) })),
    }),
  ),
  listConsoleInvoices: consoleRoute(
    {
      method: 'GET',
      path: base,
      access: 'viewer',
      tag: TAG,
      summary: "The workspace's invoices, newest issue date first (paged; the filters of GET /v1/invoices)",
      params: s.workspaceParams,
      query: listQuery,
      response: pageOf(invoiceSchema),
      successStatus: 200,
    },
    async ({ params, query }) => {
      const page = await invoicePage(params.workspaceId, query);
      return { items: page.items, hasMore: page.hasMore, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    },
  ),
  previewConsoleInvoice: consoleRoute(
    {
      method: 'POST',
      path: `${base}/preview`,
      access: 'admin',
      tag: TAG,
      summary: 'What "New invoice" would make now (lines, totals, number, the entries of each line); writes nothing',
      description: 'The same body and the same 409s as the create.',
      params: s.workspaceParams,
      body: createInvoiceInput,
      response: previewSchema,
      successStatus: 200,
      conflict: true,
    },
    async ({ params, body }) => previewInvoice(params.workspaceId, body),
  ),
  createConsoleInvoice: consoleRoute(
    {
      method: 'POST',
      path: base,
      access: 'admin',
      tag: TAG,
      summary: "A draft from the client's billable, stopped, not yet invoiced time entries starting in the period (days inclusive)",
      description:
        'lines: project (default), task or entry; number: none (null) unless a custom one is given: sending the draft assigns the next INV-000001 of the workspace; taxRate, notes and dueDate (issueDate + payment terms, 30 days when not set) default to the billing profile (its defaultTaxRate, invoiceFooter, paymentTermsDays). 409: nothing to invoice, time without a rate or in several currencies (naming the projects), a number taken, over 5,000 entries. 201 with the draft when it is made within one step; otherwise 202 with its progress: call POST .../invoices/{invoiceId}/continue until it answers the draft.',
      params: s.workspaceParams,
      body: createInvoiceInput,
      response: invoiceSchema,
      accepted: progressSchema,
      successStatus: 201,
      conflict: true,
    },
    async ({ params, body, person }) => made(await beginInvoice(params.workspaceId, body, { actor: { id: person.email } })),
  ),
  continueConsoleInvoice: consoleRoute(
    {
      method: 'POST',
      path: `${one}/continue`,
      access: 'admin',
      tag: TAG,
      summary:
        'The next step of an invoice being made, voided or deleted: 200 with the invoice once made or voided (or made before), { deleted, id } once deleted, else 202 with its progress',
      description:
        'An invoice being made that no step continues for 2 minutes (INVOICE_STEP_LEASE_MS) is rolled back by the sweep (every INVOICE_SWEEP_INTERVAL_MS locally, every minute in AWS): 409 while its entries are being released, then 404; make it again. A void or delete that no step continues is finished by the sweep.',
      params: invoiceParams,
      response: invoiceSchema,
      accepted: progressSchema,
      successStatus: 200,
      conflict: true,
    },
    async ({ params }) => made(await continueInvoice(params.workspaceId, params.invoiceId)),
  ),
  // declared before getConsoleInvoice: `unbilled` is matched before the `{invoiceId}` template (the local gateway takes the first match)
  listConsoleUnbilled: consoleRoute(
    {
      method: 'GET',
      path: `${base}/unbilled`,
      access: 'viewer',
      tag: TAG,
      summary: 'The time left to bill: per client with billable, stopped, not yet invoiced time, its entries, minutes, amount before tax and first and last date',
      description:
        'amount: what an invoice of those entries would total before tax (lines by project: rate x exact minutes / 60, rounded once per line), null with `problem` when the create would refuse it (time without a rate, several currencies). Entries on any invoice, running timers and non-billable time are not counted. The read is bounded (8 MB of entries, newest first): past it `complete` is false and only entries starting at or after `countedFrom` are counted; narrow with startDate/endDate.',
      params: s.workspaceParams,
      query: unbilledInput,
      response: unbilledSchema,
      successStatus: 200,
    },
    async ({ params, query }) => unbilledTime(params.workspaceId, query),
  ),
  getConsoleInvoice: consoleRoute(
    { method: 'GET', path: one, access: 'viewer', tag: TAG, summary: 'One invoice', params: invoiceParams, response: invoiceSchema, successStatus: 200 },
    async ({ params }) => getInvoice(params.workspaceId, params.invoiceId),
  ),
  listConsoleInvoiceEntries: consoleRoute(
    {
      method: 'GET',
      path: `${one}/entries`,
      access: 'viewer',
      tag: TAG,
      summary: 'The time entries on an invoice, oldest first (paged: limit, cursor, hasMore, nextCursor; every page under 6 MB)',
      description:
        'A page holds `limit` entries (default 50, at most 200), fewer when they would pass 5 MiB (long notes): hasMore and nextCursor then lead on, so paging reaches every entry once. A cursor is bound to this workspace and invoice.',
      params: invoiceParams,
      query: entryPageQuery,
      response: pageOf(responseSchema(timeEntryEntity)),
      successStatus: 200,
    },
    async ({ params, query }) => invoiceEntriesPage(params.workspaceId, params.invoiceId, query),
  ),
  getConsoleInvoicePdf: consoleRoute({
    method: 'GET',
    path: `${one}/pdf`,
    access: 'viewer',
    tag: TAG,
    summary: 'The invoice as a PDF (workspace and client, lines, totals)',
    params: invoiceParams,
    response: s.textSchema,
    produces: 'application/pdf',
    successStatus: 200,
    // its own function (functions/console-invoice-pdf, implementation in ./invoice-pdf.ts): pdf-lib and its fonts stay out of the console's bundle
    function: 'console-invoice-pdf',
  }),
  updateConsoleInvoice: consoleRoute(
    {
      method: 'PATCH',
      path: one,
      access: 'admin',
      tag: TAG,
      summary: "Change a draft's number, dates, tax rate (tax and total follow), notes or line descriptions (409 unless draft)",
      params: invoiceParams,
      body: updateInvoiceInput,
      response: invoiceSchema,
      successStatus: 200,
      conflict: true,
    },
    async ({ params, body, person }) => changeDraft(params.workspaceId, params.invoiceId, body, { actor: { id: person.email } }),
  ),
  sendConsoleInvoice: consoleRoute(
    {
      method: 'POST',
      path: `${one}/send`,
      access: 'admin',
      tag: TAG,
      summary: "draft -> sent (finalize): the draft without a custom number gets the next number of the workspace's sequence (409 naming the status otherwise)",
      description:
        "Numbers are issued at finalization, like Stripe's: consecutive with no gap among issued invoices (a deleted draft uses none), and never issued twice, even after void and delete. Nothing is e-mailed.",
      params: invoiceParams,
      response: invoiceSchema,
      successStatus: 200,
      conflict: true,
    },
    async ({ params, person }) => sendInvoice(params.workspaceId, params.invoiceId, { actor: { id: person.email } }),
  ),
  payConsoleInvoice: consoleRoute(
    {
      method: 'POST',
      path: `${one}/pay`,
      access: 'admin',
      tag: TAG,
      summary: 'Record a payment: partially_paid until the payments reach the total, then paid (409 naming the status unless sent or partially_paid)',
      description:
        'amount: in the invoice currency, more than 0, at most the amount due (400 naming amount); paidAt: a day not in the future. Several payments may be recorded; each is an invoice.paid entry of the audit log. Concurrent payments are applied one after the other (a write guarded by the revision read) and never pay more than the total.',
      params: invoiceParams,
      body: payInvoiceInput,
      response: invoiceSchema,
      successStatus: 200,
      conflict: true,
    },
    async ({ params, body, person }) => recordPayment(params.workspaceId, params.invoiceId, body, { actor: { id: person.email } }),
  ),
  voidConsoleInvoice: consoleRoute(
    {
      method: 'POST',
      path: `${one}/void`,
      access: 'admin',
      tag: TAG,
      summary: 'draft or sent -> void; its time entries are released in steps (409 naming the status otherwise)',
      description:
        "200 with the void invoice when its entries are free within this request's budget (INVOICE_STEP_BUDGET_MS); else 202 with the progress (status releasing) while the invoice says releasing: true: call POST .../continue, or leave it to the sweep.",
      params: invoiceParams,
      response: invoiceSchema,
      accepted: progressSchema,
      successStatus: 200,
      conflict: true,
    },
    async ({ params, person }) => made(await voidInvoice(params.workspaceId, params.invoiceId, { actor: { id: person.email } })),
  ),
  deleteConsoleInvoice: consoleRoute(
    {
      method: 'DELETE',
      path: one,
      access: 'admin',
      tag: TAG,
      summary: "Delete a draft or void invoice; a draft's time entries are released in steps first (409 naming the status otherwise)",
      description:
        "200 when it is gone within this request's budget; else 202 with the progress (status releasing) while the invoice says releasing: true: call POST .../continue, or leave it to the sweep.",
      params: invoiceParams,
      response: deletedSchema,
      accepted: progressSchema,
      successStatus: 200,
      conflict: true,
    },
    async ({ params, person }) => made(await deleteInvoice(params.workspaceId, params.invoiceId, { actor: { id: person.email } })),
  ),
};
