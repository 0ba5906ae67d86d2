import type * as z from 'zod';
import { createBodySchema, invoiceFields, LIMITS, type InvoiceStatus, type lineItemSchema } from '../../api/schemas';
import { Entity, uniqueIgnoringCase, type Rec } from '../../data/repository';
import { keys } from '../../data/keys';
import { queryPage } from '../../data/paging';
import { conflict, fieldError } from '../../api/errors';
import { clients } from './clients';

/**
 * Invoices (created by the application and the admin seed, never by this API: POST/PUT are 501).
 *
 * Item: PK `WS#<ws>`, SK `INVOICE#<id>` (get and delete are one GetItem by id); GSI1
 * `WS#<ws>#INVOICES` / `<issueDate>#<id>` lists them newest issueDate first, one Query per page with
 * the shared signed-cursor paging (shared/data/paging.ts). The number is unique per workspace (lock
 * item INVOICENUMBER, case-insensitive); clientId keeps a usage counter on the client, so a client with
 * invoices cannot be deleted. Only draft and void invoices can be deleted.
 */
export { INVOICE_STATUSES, invoiceFields, lineItemSchema, type InvoiceStatus } from '../../api/schemas';
export const DELETABLE_STATUSES: readonly InvoiceStatus[] = ['draft', 'void'];

/** Money as integer cents (amounts are stored as numbers with at most two decimals). */
export const cents = (amount: number) => Math.round(amount * 100);

/** The arithmetic every invoice satisfies: amount = quantity x unitPrice, subtotal = sum, total = subtotal + tax. */
export function assertInvoiceTotals(rec: Record<string, unknown>): void {
  const items = rec.lineItems as Array<z.output<typeof lineItemSchema>>;
  items.forEach((li, i) => {
    if (cents(li.amount) !== Math.round(li.quantity * li.unitPrice * 100)) throw fieldError(`lineItems.${i}.amount`, 'must equal quantity x unitPrice (rounded to cents)');
  });
  const subtotal = items.reduce((sum, li) => sum + cents(li.amount), 0);
  if (cents(Number(rec.subtotal)) !== subtotal) throw fieldError('subtotal', 'must equal the sum of the line item amounts');
  if (cents(Number(rec.total)) !== subtotal + cents(Number(rec.tax))) throw fieldError('total', 'must equal subtotal + tax');
  if (String(rec.dueDate) < String(rec.issueDate)) throw fieldError('dueDate', 'must not be before issueDate');
}

export const invoices = new Entity({
  kind: 'Invoice',
  type: 'INVOICE',
  fields: invoiceFields,
  unique: uniqueIgnoringCase('INVOICENUMBER', 'number', (number) => `An invoice numbered "${number}"`),
  references: [{ field: 'clientId', target: () => clients }],
  indexKeys: (workspaceId, rec) => keys.invoiceByIssueDate(workspaceId, String(rec.issueDate), String(rec.id)),
  validate: async (_workspaceId, rec) => assertInvoiceTotals(rec),
  // The index key reads issueDate; the totals rule reads the rest.
  coupledFields: ['issueDate', 'dueDate', 'lineItems', 'subtotal', 'tax', 'total'],
  assertDeletable: (rec) => {
    const status = rec.status as InvoiceStatus;
    if (!DELETABLE_STATUSES.includes(status)) {
      throw conflict(`Invoice ${String(rec.number)} is ${status}; only draft and void invoices can be deleted (void it in the application first)`);
    }
  },
});

const invoiceInput = createBodySchema(invoiceFields);

/** Creates an invoice (the application's path: admin CLI, seed). Validates the fields and the totals. */
export async function createInvoice(workspaceId: string, input: Record<string, unknown>): Promise<Rec> {
  const parsed = invoiceInput.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw fieldError(issue.path.map(String).join('.') || 'invoice', issue.message);
  }
  return invoices.create(workspaceId, parsed.data);
}

/** One page of the workspace's invoices, newest issueDate first (ties: newest id first). */
export async function listInvoices(workspaceId: string, q: { limit?: number; cursor?: string }): Promise<{ items: Rec[]; nextCursor?: string; hasMore: boolean }> {
  const page = await queryPage({
    workspaceId,
    index: 'GSI1',
    keyCondition: { expression: '#pk = :pk', names: { '#pk': 'GSI1PK' }, values: { ':pk': keys.invoiceByIssueDatePartition(workspaceId) } },
    scanForward: false,
    limit: q.limit ?? LIMITS.pageDefault,
    ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
  });
  return { items: page.items.map((item) => invoices.present(item)), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), hasMore: page.hasMore };
}
