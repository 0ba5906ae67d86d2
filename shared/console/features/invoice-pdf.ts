import { renderInvoicePdf } from '../../services/invoice-pdf';
import { getInvoice } from '../../invoicing/service';
import { BinaryReply, type ConsoleRun } from '../route-table';
import type { invoiceRoutes } from './invoices';

/**
 * GET /console/api/workspaces/{workspaceId}/invoices/{invoiceId}/pdf: the implementation of the route
 * declared in ./invoices.ts, served by its own function (functions/console-invoice-pdf) so that pdf-lib,
 * its standard fonts and pako are bundled there and not in the console function.
 */
export const invoicePdf: ConsoleRun<typeof invoiceRoutes.getConsoleInvoicePdf> = async ({ params }) => {
  const invoice = await getInvoice(params.workspaceId, params.invoiceId);
  const pdf = await renderInvoicePdf(params.workspaceId, params.invoiceId);
  return new BinaryReply(pdf, { 'Content-Disposition': `inline; filename="${(invoice.number ?? `draft-${invoice.id}`).replace(/[^\w.-]/g, '_')}.pdf"` });
};
