import * as z from 'zod/mini';
import { defineEntity, type EntityRecord } from '../entity';
import { conflict, invalidField } from '../errors';
import { idOf } from '../examples';
import { currencyCode, dateString, dateTimeString, englishIssue, inputSchema, meta, money, multiLine, notesString, singleLine, type CreateInput } from '../fields';
import { clients } from './clients';

/**
 * Invoices (made by the application from billable time, shared/invoicing/service.ts, and by the admin
 * seed; never by this API: POST/PUT are 501).
 *
 * Item: PK `WS#<ws>`, SK `INVOICE#<id>` (get and delete are one GetItem by id); GSI1
 * `WS#<ws>#INVOICES` / `<issueDate>#<id>` lists them newest issueDate first, one Query per page with
 * the shared signed-cursor paging. Numbers are issued like Stripe's (issue 32): a draft has none (`number:
 * null`) unless a custom one was set on it; sending (finalizing) assigns the next of the workspace's
 * sequence. A number is unique per workspace (lock item INVOICENUMBER, any case), and the lock of an issued
 * number (any status but draft) is never deleted: not by void, not by delete, so no number is issued twice.
 * clientId keeps a usage counter on the client, so a client with invoices cannot be deleted. Only draft and
 * void invoices can be deleted. Payments are kept on the invoice (`payments`, at most MAX_PAYMENTS).
 */
export const INVOICE_STATUSES = ['draft', 'sent', 'partially_paid', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const DELETABLE_STATUSES: readonly InvoiceStatus[] = ['draft', 'void'];
/** The statuses of a finalized invoice (it has a number). A void invoice has one unless it was voided as a draft. */
export const ISSUED_STATUSES: readonly InvoiceStatus[] = ['sent', 'partially_paid', 'paid'];

export const lineItemSchema = z.strictObject({
  description: meta(singleLine(z.string().check(z.trim(), z.minLength(1), z.maxLength(1000))), { example: 'Website relaunch: Homepage design' }),
  quantity: meta(z.number().check(z.positive(), z.lte(1_000_000)), { example: 16 }),
  unitPrice: meta(money, { example: 120 }),
  amount: meta(money, { example: 1920 }),
  // Set on lines made from time (issue 32): the exact minutes billed; amount = unitPrice x minutes / 60, rounded once
  minutes: meta(z.optional(z.int().check(z.gte(1))), {
    description:
      'The exact minutes the line bills (lines made from time): amount = unitPrice x minutes / 60, rounded once, half up, to cents; quantity shows their hours rounded to 2 decimals',
    example: 960,
  }),
});
export type LineItem = z.output<typeof lineItemSchema>;

/**
 * A party of the document as sent (issue 32 item 5): the sender ("From": the workspace's billing profile) or
 * the client billed ("Bill to"), copied into the invoice when it is sent (or voided as a draft), so the
 * document never changes afterwards, whatever is renamed.
 */
export const invoicePartySchema = z.strictObject({
  name: meta(z.string().check(z.minLength(1), z.maxLength(255)), { example: 'Acme Corp' }),
  address: meta(z.optional(multiLine(z.string().check(z.maxLength(1000)))), { example: '1 Market Street\nSan Francisco, CA 94105' }),
  email: meta(z.optional(z.string().check(z.maxLength(254))), { example: 'billing@acme.example' }),
  taxId: meta(z.optional(z.string().check(z.maxLength(50))), { example: 'DE123456789' }),
});
export type InvoiceParty = z.output<typeof invoicePartySchema>;

/** Money as integer cents (amounts are stored as numbers with at most two decimals). */
export const cents = (amount: number) => Math.round(amount * 100);

/** The most payments one invoice records (they are kept on the invoice item). */
export const MAX_PAYMENTS = 100;
export const paymentSchema = meta(
  z.object({
    id: meta(z.string().check(z.maxLength(64)), { description: 'The payment id (ULID)', example: '01JQ3ZP8B5V0W1X2Y3Z4A5B6C7' }),
    paidAt: meta(dateString, { description: 'The day the money was received (ISO date, not in the future)', example: '2026-04-15' }),
    amount: meta(money, { description: 'In the invoice currency, > 0', example: 2284.8 }),
    reference: meta(z.optional(z.string().check(z.maxLength(200))), { description: 'A bank reference, a cheque number, ...', example: 'SEPA 2026-04-15 #4411' }),
    recordedAt: meta(dateTimeString, { description: 'When it was recorded', example: '2026-04-15T10:12:00.000Z' }),
  }),
  { id: 'InvoicePayment' },
);
export type Payment = z.output<typeof paymentSchema>;

/** How an invoice is named in messages: its number, or `draft <id>` while it has none. */
export const invoiceLabel = (inv: { id?: unknown; number?: unknown }): string => (typeof inv.number === 'string' ? inv.number : `draft ${String(inv.id)}`);

/** What is still due: the total minus the payments (integer cents). */
export const amountDueOf = (rec: { total?: unknown; payments?: unknown }): number => {
  const paid = Array.isArray(rec.payments) ? (rec.payments as Payment[]).reduce((s, p) => s + cents(p.amount), 0) : 0;
  return Math.max(0, cents(Number(rec.total ?? 0)) - paid) / 100;
};

export const invoices = defineEntity({
  resource: 'invoices',
  kind: 'Invoice',
  type: 'INVOICE',
  description: 'Invoices created in the application: read and delete (draft or void) only',
  fields: {
    number: {
      schema: meta(z.nullable(singleLine(z.string().check(z.trim(), z.minLength(1), z.maxLength(64)))), {
        description:
          "null on a draft, unless a custom number was set on it; sending (finalizing) assigns the next number of the workspace's sequence (INV-000001, INV-000002, ...: consecutive, no gap among issued invoices; a deleted draft uses none). Unique in the workspace among every number ever issued (any case): an issued number is never reused, even after void and delete",
        example: 'INV-000042',
      }),
      required: true,
    },
    clientId: { schema: idOf.client, required: true },
    status: {
      schema: meta(z.enum(INVOICE_STATUSES), {
        description: 'draft (no number yet) -> sent (finalized: numbered) -> partially_paid (payments below the total) -> paid (payments reach the total); draft or sent -> void',
        example: 'paid',
      }),
      required: true,
    },
    // keySafe: a calendar date (YYYY-MM-DD), the sort key of the issue-date index.
    issueDate: { schema: meta(dateString, { example: '2026-03-31' }), required: true, keySafe: true },
    dueDate: { schema: meta(dateString, { example: '2026-04-30' }), required: true },
    currency: { schema: meta(currencyCode, { example: 'USD' }), required: true },
    lineItems: { schema: z.array(lineItemSchema).check(z.minLength(1), z.maxLength(200)), required: true },
    subtotal: { schema: meta(money, { example: 1920 }), required: true },
    tax: { schema: meta(money, { example: 364.8 }), required: true },
    total: { schema: meta(money, { example: 2284.8 }), required: true },
    notes: { schema: meta(notesString, { example: 'Thank you for your business. Payment within 30 days.' }) },
    // Set by the application (shared/invoicing/service.ts): the tax rate the tax was computed with, a
    // percentage; when the invoice was sent and paid.
    taxRate: { schema: meta(z.number().check(z.gte(0), z.lte(100)), { example: 19 }) },
    sentAt: { schema: meta(dateTimeString, { example: '2026-03-31T16:00:00.000Z' }) },
    paidAt: { schema: meta(dateTimeString, { description: 'When the payments reached the total (the day of the last payment, 00:00 UTC)', example: '2026-04-15T00:00:00.000Z' }) },
    // Set by the application (issue 32): the payments recorded (POST .../pay); the invoice is paid when they reach the total.
    payments: { schema: meta(z.array(paymentSchema).check(z.maxLength(MAX_PAYMENTS)), { description: 'The payments recorded, oldest first (absent before the first)' }) },
    // Set by the application when the invoice is sent (or a draft voided): what its document shows of the
    // workspace's billing profile and of the client, as they were then (issue 32 item 5). Absent on drafts
    // (their document follows the live profile and client) and on invoices sent before snapshots existed.
    from: {
      schema: meta(invoicePartySchema, {
        description:
          'The sender as sent: the billing profile (display name, address, tax id, e-mail) when the invoice was sent; absent on drafts and when the workspace had no billing profile then (the document names the workspace)',
      }),
    },
    billTo: { schema: meta(invoicePartySchema, { description: 'The client as sent: its name, address and e-mail when the invoice was sent; absent on drafts' }) },
    // Set by the application while the time entries of a void or deleted invoice are being released in steps
    // (issue 32): true until the last entry is free (a deleted one is then gone); absent otherwise.
    releasing: { schema: meta(z.boolean(), { description: 'true while the time entries of this void or deleted invoice are being released; absent otherwise', example: true }) },
  },
  computed: {
    amountDue: meta(money, { description: 'The total minus the payments recorded (0 once paid)', example: 0 }),
  },
  // a draft without a number says so (null); amountDue follows the total and the payments
  derived: { reads: ['number', 'total', 'payments'], apply: (rec) => ({ ...rec, number: rec.number ?? null, amountDue: amountDueOf(rec) }) },
  key: { pk: {}, sk: { prefix: 'INVOICE', composite: ['id'] } },
  indexes: { GSI1: { access: 'issue date', pk: { prefix: 'INVOICES' }, sk: { composite: ['issueDate', 'id'] } } },
  unique: {
    name: 'INVOICENUMBER',
    field: 'number',
    message: (number) => `An invoice numbered "${number}" already exists or existed in this workspace; an issued number is never reused`,
    // an issued number's lock outlives the invoice (void, delete): only a draft's custom number comes free
    retain: (rec) => rec.status !== 'draft',
  },
  references: [{ field: 'clientId', target: () => clients }],
  rules: [
    { reads: ['issueDate', 'dueDate', 'lineItems', 'subtotal', 'tax', 'total'], check: (rec) => assertInvoiceTotals(rec) },
    {
      reads: ['status', 'number'],
      check: (rec) => {
        // sent, partially paid and paid invoices were finalized; a voided draft never was (it keeps no number)
        if (rec.number === null && ISSUED_STATUSES.includes(rec.status)) throw invalidField('number', `an invoice that is ${rec.status} has a number (a draft has none)`);
      },
    },
  ],
  assertDeletable: (rec) => {
    if (!DELETABLE_STATUSES.includes(rec.status)) {
      throw conflict(`Invoice ${invoiceLabel(rec)} is ${rec.status}; only draft and void invoices can be deleted (void it in the application first)`);
    }
  },
  // issueDate range as a BETWEEN on the index's sort key; status and clientId filter that narrowed Query.
  list: { mode: 'paged', via: ['GSI1'], range: (startDate, endDate) => issueDateRange(startDate, endDate) },
});
export type Invoice = EntityRecord<typeof invoices>;

/** Sort-key bounds of an issueDate range (both days inclusive; `~` sorts after every id). */
export function issueDateRange(startDate?: string, endDate?: string): { lo: string; hi: string } {
  const from = startDate ?? '0000-01-01';
  const to = endDate ?? '9999-12-31';
  if (to < from) throw invalidField('endDate', 'must not be before startDate');
  return { lo: from, hi: `${to}#~` };
}

/** The arithmetic every invoice satisfies: amount = quantity x unitPrice, subtotal = sum, total = subtotal + tax. */
export function assertInvoiceTotals(rec: Record<string, unknown>): void {
  const items = rec.lineItems as LineItem[];
  items.forEach((li, i) => {
    if (li.minutes !== undefined) {
      // a line made from time: the rate times its exact minutes, rounded once, half up (integers)
      const exact = Number((BigInt(Math.round(li.unitPrice * 1_000_000)) * BigInt(li.minutes) * 2n + 600_000n) / 1_200_000n);
      if (cents(li.amount) !== exact) throw invalidField(`lineItems.${i}.amount`, 'must equal unitPrice x minutes / 60 (rounded once, half up, to cents)');
      if (Math.round(li.quantity * 100) !== Number((BigInt(li.minutes) * 200n + 60n) / 120n)) throw invalidField(`lineItems.${i}.quantity`, 'must be minutes / 60 (to 2 decimals)');
    } else if (cents(li.amount) !== Math.round(li.quantity * li.unitPrice * 100)) throw invalidField(`lineItems.${i}.amount`, 'must equal quantity x unitPrice (rounded to cents)');
  });
  const subtotal = items.reduce((sum, li) => sum + cents(li.amount), 0);
  if (cents(Number(rec.subtotal)) !== subtotal) throw invalidField('subtotal', 'must equal the sum of the line item amounts');
  if (cents(Number(rec.total)) !== subtotal + cents(Number(rec.tax))) throw invalidField('total', 'must equal subtotal + tax');
  if (String(rec.dueDate) < String(rec.issueDate)) throw invalidField('dueDate', 'must not be before issueDate');
}

const invoiceInput = inputSchema(invoices.fields);

/** Checks an invoice the application creates (admin CLI, seed): its fields, then (on write) its totals. */
export function parseInvoice(input: unknown): CreateInput<typeof invoices.fields> {
  const parsed = invoiceInput.safeParse(input, { error: englishIssue });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidField(issue.path.map(String).join('.') || 'invoice', issue.message);
  }
  return parsed.data;
}
