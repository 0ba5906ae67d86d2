import * as z from 'zod/mini';

import { INVOICE_STATUSES } from '../domain/entities/invoices';
import { dateString, idString, LIMITS, notesString, meta, singleLine } from '../domain/fields';
import { LINE_GROUPINGS, sequenceOf } from './rules';

/**
 * The request shapes of invoicing (issue 32: parsed once, at the edge): the console's routes declare these as
 * their bodies and queries (the kernel parses them), ./service parses what other callers (the seed, tests)
 * hand it with the same schemas, and the engine (./create, ./lifecycle, ./read, ./views) takes their parsed
 * types (`NewInvoice`, `DraftChanges`, `NewPayment`, `InvoiceQuery`) and never parses them again.
 */
/**
 * The console's invoice texts refuse what /v1 names refuse (control characters) and, beyond, the invisible
 * characters that make two texts look alike or reorder what is shown: zero-width spaces and joiners at word
 * edges (U+200B, U+2060-2064, U+FEFF) and bidi marks, embeddings, overrides and isolates (U+200E-200F,
 * U+202A-202E, U+2066-2069). (U+200C/U+200D stay: scripts and emoji sequences need them.)
 */
const INVISIBLE = /[\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

export const visible = <S extends z.ZodMiniString>(schema: S): S => schema.check(z.refine((v) => !INVISIBLE.test(v), 'must not contain zero-width or bidi control characters'));

/**
 * A custom number set on a draft: any visible text but the sequence's own form (`INV-` and digits), which
 * only sending gives, so the sequence stays consecutive with no gap among issued invoices.
 */
const invoiceNumber = visible(singleLine(z.string().check(z.trim(), z.minLength(1), z.maxLength(64)))).check(
  z.refine((v) => sequenceOf(v) === undefined, "must not look like the workspace's sequence (INV- and digits): sending a draft without a number gives it the next one"),
);

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
  number: meta(z.optional(invoiceNumber), {
    description:
      "A custom number for the draft (unique among every number ever issued); without it the draft has none (null) until it is sent, which assigns the next of the workspace's sequence",
  }),
  taxRate: z.optional(taxRateInput),
  lines: meta(z.optional(z.enum(LINE_GROUPINGS)), { description: 'One line per project (default), per project and task, or per entry' }),
  notes: z.optional(invoiceNotes),
});

export type CreateInvoiceInput = z.input<typeof createInvoiceInput>;
/** A create's body as parsed. */
export type NewInvoice = z.output<typeof createInvoiceInput>;

/** The changes a draft accepts. */
export const updateInvoiceInput = z.strictObject({
  number: meta(z.optional(z.nullable(invoiceNumber)), {
    description: 'A custom number (unique among every number ever issued); null: none, sending assigns the next of the sequence',
  }),
  issueDate: z.optional(dateString),
  dueDate: z.optional(dateString),
  taxRate: z.optional(taxRateInput),
  notes: z.optional(z.nullable(invoiceNotes)),
  lineDescriptions: meta(z.optional(z.array(lineDescription).check(z.maxLength(200))), {
    description: "New descriptions of the lines, in the invoice's line order (as many as it has lines)",
  }),
});

export type UpdateInvoiceInput = z.input<typeof updateInvoiceInput>;
/** A draft change as parsed. */
export type DraftChanges = z.output<typeof updateInvoiceInput>;

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
/** The list's filters and page as parsed. */
export type InvoiceQuery = z.output<typeof listInvoicesInput>;

/** An amount of money with at most 2 decimals (the currency's minor unit). */
const paymentAmount = z.number().check(
  z.positive(),
  z.lte(1_000_000_000),
  z.refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'must have at most 2 decimals'),
);

/** The body of `POST .../pay`: one payment. */
export const payInvoiceInput = z.strictObject({
  paidAt: meta(dateString, { description: 'The day the money was received (YYYY-MM-DD, not in the future)' }),
  amount: meta(paymentAmount, { description: 'In the invoice currency: more than 0, at most the amount still due (amountDue)' }),
  reference: meta(z.optional(visible(singleLine(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))))), { description: 'A bank reference, a cheque number, ...' }),
});

export type PayInvoiceInput = z.input<typeof payInvoiceInput>;
/** A payment as parsed. */
export type NewPayment = z.output<typeof payInvoiceInput>;

/** The query of GET .../invoices/unbilled: the period the entries start in (days inclusive, UTC; default: all time). */
export const unbilledInput = z.strictObject({
  startDate: meta(z.optional(dateString), { description: 'Count entries starting on or after this date (default: no lower bound)' }),
  endDate: meta(z.optional(dateString), { description: 'Count entries starting on or before this date (default: no upper bound)' }),
});
/** The unbilled view's period as parsed. */
export type UnbilledQuery = z.output<typeof unbilledInput>;

/** The page query of an invoice's entries: `limit` (default 50, at most 200) and the previous page's `cursor`. */
export const entryPageInput = z.strictObject({
  limit: z.optional(z.number().check(z.int(), z.gte(1), z.lte(LIMITS.pageMax))),
  cursor: z.optional(z.string().check(z.maxLength(4096))),
});

/** An entry page's query as parsed. */
export type EntryPageQuery = z.output<typeof entryPageInput>;
