import { invoices } from '../../domain/entities/invoices';
import * as s from '../schemas';
import { crudRoutes } from './define';

/** What differs from the plain five routes of invoices (created and changed in the application only). */
export const invoicesOptions = {
  listQuery: s.invoiceListQuery,
  listSummary: 'List invoices, newest issueDate first (paginated); filters: status, clientId, issueDate range (startDate, endDate)',
  deleteSummary: "Delete a draft or void invoice (sent and paid invoices give 409); 202 while a draft's time entries are being released",
  deleteAccepted: {
    schema: s.invoiceReleasingSchema,
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
