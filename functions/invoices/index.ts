import { invoices, listInvoices } from '../../shared/domain/entities/invoices';
import { resourceHandler } from '../../shared/api/handler';

/**
 * Invoices: get, list (paginated, newest issueDate first) and delete (draft and void only). POST and
 * PUT are declared `notImplemented` in the route table: the shared stack answers them 501 before any
 * implementation could run, so none is bound here.
 */
export const handler = resourceHandler('invoices', {
  listInvoices: async ({ auth, query }) => listInvoices(auth.workspaceId, query),
  getInvoice: async ({ auth, params }) => invoices.get(auth.workspaceId, { id: params.id }),
  deleteInvoice: async ({ auth, params }) => invoices.delete(auth.workspaceId, { id: params.id }),
});
