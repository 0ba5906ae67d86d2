import { entityHandler, writeOptions } from '../../shared/api/crud';
import { Reply } from '../../shared/api/handler';
import { invoicesRoutes } from '../../shared/api/routes/invoices';
import { deleteInvoice, isReleasing } from '../../shared/invoicing/service';

/**
 * The generic invoice routes, except delete: deleting a draft releases the time entries it invoiced
 * (shared/invoicing/service.ts), which the generic delete does not know about. The release runs in steps:
 * 200 when it ends within the request's budget, else 202 with its progress (the invoice says
 * `releasing: true`); the sweep (functions/invoice-sweep, every minute) finishes it and deletes the invoice.
 */
export const handler = entityHandler(invoicesRoutes, {
  deleteInvoice: async ({ auth, params, headers }) => {
    const done = await deleteInvoice(auth.workspaceId, params.id, writeOptions(headers));
    return isReleasing(done) ? new Reply(done, {}, 202) : done;
  },
});
