import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { clients as clientEntity } from '../domain/entities/clients';
import type { Invoice } from '../domain/entities/invoices';
import { repository } from '../data/repository';
import { getInvoice } from '../invoicing/service';

/**
 * An invoice as a PDF (pdf-lib, the standard Helvetica fonts: no font file to ship): the workspace's and
 * the client's details, number, dates, status, the lines (description, hours, rate, amount), subtotal,
 * tax, total in the invoice's currency, and the notes. Long invoices continue on further pages.
 */
export interface PdfParty {
  name: string;
  address?: string;
  email?: string;
}

/** Money in the invoice's currency: `$1,234.50`, `€1,234.50`, `CHF 1,234.50` (en-US grouping). */
export function formatMoney(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }).format(amount).replace(/\u00a0/g, ' ');
}
const hours = (q: number) => q.toFixed(2);

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;

/** Text the standard font can draw: characters outside WinAnsi become `?` (names in other scripts still print). */
function drawable(font: PDFFont, text: string): string {
  let out = '';
  for (const ch of text.replace(/[\r\n\t]+/g, ' ')) {
    try {
      font.encodeText(ch);
      out += ch;
    } catch {
      out += '?';
    }
  }
  return out;
}

/** The text cut to a width, with an ellipsis. */
function fit(font: PDFFont, size: number, text: string, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let t = text;
  while (t.length > 1 && font.widthOfTextAtSize(`${t}...`, size) > width) t = t.slice(0, -1);
  return `${t}...`;
}

export async function invoicePdf(invoice: Invoice, from: PdfParty, to: PdfParty): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Invoice ${invoice.number}`);
  doc.setSubject(`Invoice ${invoice.number} to ${to.name}`);
  doc.setProducer('timetrack-api');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let page: PDFPage = doc.addPage(A4);
  let y = A4[1] - MARGIN;
  const text = (s: string, x: number, size = 10, f: PDFFont = font, maxWidth = A4[0] - MARGIN - x) => {
    page.drawText(fit(f, size, drawable(f, s), maxWidth), { x, y, size, font: f, color: rgb(0.1, 0.1, 0.1) });
  };
  const right = (s: string, xRight: number, size = 10, f: PDFFont = font) => {
    const t = drawable(f, s);
    page.drawText(t, { x: xRight - f.widthOfTextAtSize(t, size), y, size, font: f });
  };
  const money = (n: number) => formatMoney(n, invoice.currency);

  text(`Invoice ${invoice.number}`, MARGIN, 20, bold);
  right(invoice.status.toUpperCase(), A4[0] - MARGIN, 12, bold);
  y -= 30;
  const top = y;
  for (const [label, party, x] of [
    ['From', from, MARGIN],
    ['Bill to', to, 320],
  ] as const) {
    y = top;
    text(label, x, 9, bold);
    y -= 14;
    for (const line of [party.name, ...(party.address ?? '').split('\n'), party.email ?? ''].filter((l) => l.trim() !== '')) {
      text(line, x, 10, font, 230);
      y -= 13;
    }
  }
  y = Math.min(y, top - 70) - 10;
  for (const [label, value] of [
    ['Issue date', invoice.issueDate],
    ['Due date', invoice.dueDate],
    ['Currency', invoice.currency],
    ...(invoice.paidAt ? [['Paid at', invoice.paidAt.slice(0, 10)]] : []),
  ]) {
    text(`${label}:`, MARGIN, 10, bold);
    text(String(value), MARGIN + 80, 10);
    y -= 14;
  }
  y -= 10;
  const header = () => {
    text('Description', MARGIN, 10, bold);
    right('Hours', 380, 10, bold);
    right('Rate', 460, 10, bold);
    right('Amount', A4[0] - MARGIN, 10, bold);
    y -= 6;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: A4[0] - MARGIN, y }, thickness: 0.5 });
    y -= 14;
  };
  header();
  for (const li of invoice.lineItems) {
    if (y < MARGIN + 80) {
      page = doc.addPage(A4);
      y = A4[1] - MARGIN;
      header();
    }
    text(li.description, MARGIN, 10, font, 270);
    right(hours(li.quantity), 380);
    right(money(li.unitPrice), 460);
    right(money(li.amount), A4[0] - MARGIN);
    y -= 14;
  }
  y -= 4;
  page.drawLine({ start: { x: 300, y: y + 10 }, end: { x: A4[0] - MARGIN, y: y + 10 }, thickness: 0.5 });
  const taxLabel = invoice.taxRate !== undefined ? `Tax (${invoice.taxRate}%)` : 'Tax';
  for (const [label, value, f] of [
    ['Subtotal', invoice.subtotal, font],
    [taxLabel, invoice.tax, font],
    ['Total', invoice.total, bold],
  ] as const) {
    right(label, 460, 10, f);
    right(money(value), A4[0] - MARGIN, 10, f);
    y -= 14;
  }
  if (invoice.notes) {
    y -= 14;
    text('Notes', MARGIN, 9, bold);
    y -= 13;
    for (const line of invoice.notes.split('\n').slice(0, 20)) {
      if (y < MARGIN) break;
      text(line, MARGIN, 9);
      y -= 12;
    }
  }
  return doc.save();
}

/** The PDF of an invoice of the workspace (404 when it does not exist). `workspace` names the sender (default: the workspace id). */
export async function renderInvoicePdf(workspaceId: string, id: string, opts: { workspace?: PdfParty } = {}): Promise<Uint8Array> {
  const invoice = await getInvoice(workspaceId, id);
  const client = await repository(clientEntity).getItem(workspaceId, { id: invoice.clientId });
  const to: PdfParty = client
    ? {
        name: String(client.name),
        ...(typeof client.address === 'string' ? { address: client.address } : {}),
        ...(typeof client.email === 'string' ? { email: client.email } : {}),
      }
    : { name: invoice.clientId };
  return invoicePdf(invoice, opts.workspace ?? { name: workspaceId }, to);
}
