import { consoleHandler } from '../../shared/console/handler';
import { invoicePdf } from '../../shared/console/features/invoice-pdf';

/** The invoice PDF (GET /console/api/workspaces/{workspaceId}/invoices/{invoiceId}/pdf, behind the console authorizer). */
export const handler = consoleHandler('console-invoice-pdf', { getConsoleInvoicePdf: invoicePdf });
