import { entityHandler, writeOptions } from '../../shared/api/crud';
import { deleteInvoice } from '../../shared/invoicing/service';

/**
 * The generic invoice routes, except delete: deleting a draft releases the time entries it invoiced
 * (shared/invoicing/service.ts), which the generic delete does not know about.
 */
export const handler = entityHandler('invoices', {
  deleteInvoice: async ({ auth, params, headers }) => deleteInvoice(auth.workspaceId, params.id, writeOptions(headers)),
});
