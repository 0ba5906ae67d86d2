import * as z from 'zod/mini';
import { INVOICE_STATUSES } from '../../domain/entities/invoices';
import { EXAMPLE_IDS, idOf } from '../../domain/examples';
import { dateString, LIMITS, meta } from '../../domain/fields';
import { invoices } from '../../domain/entities/invoices';
import { crudRoutes } from './define';

/** Filters of the invoice list: status, client, issueDate range (both days inclusive). */
export const invoiceListQuery = z.strictObject({
  status: z.optional(z.enum(INVOICE_STATUSES)),
  clientId: z.optional(idOf.client),
  startDate: meta(z.optional(dateString), { description: 'Invoices issued on or after this date', example: '2026-03-01' }),
  endDate: meta(z.optional(dateString), { description: 'Invoices issued on or before this date', example: '2026-03-31' }),
});

/** DELETE /v1/invoices/{id} answered 202: the draft's time entries are being released in steps (issue 32). */
export const invoiceReleasingSchema = meta(
  z.object({
    id: meta(z.string().check(z.maxLength(LIMITS.id)), { description: 'The invoice being deleted', example: '01JB2Z3Y4X5W6V7T8S9R0Q1P2N' }),
    status: z.literal('releasing'),
    action: z.enum(['void', 'delete']),
    clientId: meta(z.string().check(z.maxLength(LIMITS.id)), { example: EXAMPLE_IDS.client }),
    entryCount: meta(z.int().check(z.gte(0), z.lte(5000)), { description: 'The time entries on the invoice', example: 5000 }),
    locked: meta(z.int().check(z.gte(0), z.lte(5000)), { description: 'The time entries that still carry its id (down to 0)', example: 1370 }),
  }),
  { id: 'InvoiceReleasing' },
);

/** What differs from the plain five routes of invoices (created and changed in the application only). */
export const invoicesOptions = {
  listQuery: invoiceListQuery,
  listSummary: 'List invoices, newest issueDate first (paginated); filters: status, clientId, issueDate range (startDate, endDate)',
  deleteSummary: "Delete a draft or void invoice (sent and paid invoices give 409); 202 while a draft's time entries are being released",
  deleteAccepted: {
    schema: invoiceReleasingSchema,
    description:
      "Accepted: the draft's time entries are being released in steps (the invoice says releasing: true meanwhile); the sweep (every minute) ends the release and deletes the invoice",
  },
  notOffered: {
    create: { summary: 'Not offered: invoices are created by the application', message: 'Invoices are created in the application; this API cannot create them' },
    update: { summary: 'Not offered: invoices are changed in the application', message: 'Invoices are changed in the application; this API cannot update them' },
  },
};
/** The invoices function's routes. */
export const invoicesRoutes = crudRoutes(invoices, invoicesOptions);
