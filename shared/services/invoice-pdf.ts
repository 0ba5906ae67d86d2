import { FontNames } from '@pdf-lib/standard-fonts';
import { TextPdf, type TextPdfFont as PDFFont, type TextPdfPage as PDFPage } from '../platform/pdf-lib/text-pdf';
import type { Invoice } from '../domain/entities/invoices';
import { getInvoice } from '../invoicing/service';
import { documentParties } from '../invoicing/snapshot';
import { PdfText } from './pdf-text';

/**
 * An invoice as a PDF (pdf-lib's document model and writer, shared/platform/pdf-lib/text-pdf.ts; the
 * standard Helvetica fonts: no font file to ship): the workspace's and
 * the client's details, number, dates, status, the lines (description, hours, rate, amount), subtotal,
 * tax, total in the invoice's currency, and the notes. Long invoices continue on further pages. A line's
 * description wraps in its column (at most DESCRIPTION_LINES lines, then `...`); the notes wrap to the
 * page's width and show in full. Text layout is linear in what shows (./pdf-text.ts).
 */
export interface PdfParty {
  name: string;
  address?: string;
  email?: string;
  /** Shown as "Tax ID: ..." under the address (the sender's, from the billing profile). */
  taxId?: string;
}

/** Money in the invoice's currency: `$1,234.50`, `€1,234.50`, `CHF 1,234.50` (en-US grouping). */
export function formatMoney(amount: number, currency: string): string {
  return moneyFormat(currency)
    .format(amount)
    .replace(/\u00a0/g, ' ');
}
/** One formatter per currency (building an Intl.NumberFormat costs about 0.1 ms: 15,000 of them made 5,000 lines slow). */
const formats = new Map<string, Intl.NumberFormat>();
function moneyFormat(currency: string): Intl.NumberFormat {
  let f = formats.get(currency);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { style: 'currency', currency, currencyDisplay: 'narrowSymbol' });
    formats.set(currency, f);
  }
  return f;
}
const hours = (q: number) => q.toFixed(2);

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;

/** Lines of a line item's description at most (the rest ends the last with `...`). */
export const DESCRIPTION_LINES = 3;
/** Lines of the notes at most (notes hold at most 10,000 characters: about 100 lines of text). */
export const NOTES_LINES = 400;
/** Lines of a party's address at most. */
const ADDRESS_LINES = 6;

export async function invoicePdf(invoice: Invoice, from: PdfParty, to: PdfParty): Promise<Uint8Array> {
  const doc = new TextPdf();
  // a draft has no number yet (sending gives it one)
  const title = `Invoice ${invoice.number ?? '(draft)'}`;
  doc.setInfo({ Title: title, Subject: `${title} to ${to.name}`, Producer: 'timetrack-api' });
  const font = doc.font(FontNames.Helvetica);
  const bold = doc.font(FontNames.HelveticaBold);
  const measure = new Map<PDFFont, PdfText>([
    [font, new PdfText(font)],
    [bold, new PdfText(bold)],
  ]);
  const m = (f: PDFFont) => measure.get(f)!;
  const color = { r: 0.1, g: 0.1, b: 0.1 };
  let page: PDFPage = doc.addPage(A4);
  let y = A4[1] - MARGIN;
  // The page's font is set when it changes, never per call (pdf-lib's drawText `font` option added an entry
  // to the page's font dictionary on every call: 5,000 lines made that quadratic).
  let pageFont: PDFFont | undefined;
  /** Text already drawable and fitted. */
  const draw = (t: string, x: number, size: number, f: PDFFont) => {
    if (t === '') return;
    if (pageFont !== f) {
      page.setFont(f);
      pageFont = f;
    }
    page.drawText(t, { x, y, size, color });
  };
  const text = (s: string, x: number, size = 10, f: PDFFont = font, maxWidth = A4[0] - MARGIN - x) => draw(m(f).fitText(s, size, maxWidth), x, size, f);
  const right = (s: string, xRight: number, size = 10, f: PDFFont = font) => {
    const t = m(f).fitText(s, size, xRight - MARGIN);
    draw(t, xRight - m(f).width(t, size), size, f);
  };
  const newPage = () => {
    page = doc.addPage(A4);
    pageFont = undefined;
    y = A4[1] - MARGIN;
  };
  const money = (n: number) => formatMoney(n, invoice.currency);

  text(title, MARGIN, 20, bold, 360);
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
    const address = (party.address ?? '').split('\n').filter((l) => l.trim() !== '');
    const lines = [
      party.name,
      ...address.slice(0, ADDRESS_LINES),
      ...(address.length > ADDRESS_LINES ? ['...'] : []),
      party.taxId ? `Tax ID: ${party.taxId}` : '',
      party.email ?? '',
    ];
    for (const line of lines.filter((l) => l.trim() !== '')) {
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
    const wrapped = m(font).wrap(li.description, 10, 270, DESCRIPTION_LINES);
    const description = wrapped.length ? wrapped : [''];
    if (y - 12 * (description.length - 1) < MARGIN + 80) {
      newPage();
      header();
    }
    description.forEach((line, i) => {
      if (i > 0) y -= 12;
      draw(line, MARGIN, 10, font);
      if (i > 0) return;
      // the numbers on the description's first line
      right(hours(li.quantity), 380);
      right(money(li.unitPrice), 460);
      right(money(li.amount), A4[0] - MARGIN);
    });
    y -= 14;
  }
  y -= 4;
  if (y < MARGIN + 50) newPage();
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
    if (y < MARGIN + 25) newPage();
    text('Notes', MARGIN, 9, bold);
    y -= 13;
    // every paragraph wrapped to the page's width, continued on further pages: nothing of the notes is lost
    let budget = NOTES_LINES;
    for (const paragraph of invoice.notes.split('\n')) {
      if (budget <= 0) break;
      const lines = paragraph.trim() === '' ? [''] : m(font).wrap(paragraph, 9, A4[0] - 2 * MARGIN, budget);
      budget -= lines.length;
      for (const line of lines) {
        if (y < MARGIN) newPage();
        draw(line, MARGIN, 9, font);
        y -= 12;
      }
    }
  }
  return doc.save();
}

/**
 * The PDF of an invoice of the workspace (404 when it does not exist). "From" and "Bill to" are the invoice's
 * snapshot once sent (or void), the live billing profile and client for a draft (shared/invoicing/snapshot.ts);
 * `workspace` names the sender of a workspace without a billing profile (default: the workspace id).
 */
export async function renderInvoicePdf(workspaceId: string, id: string, opts: { workspace?: PdfParty } = {}): Promise<Uint8Array> {
  const invoice = await getInvoice(workspaceId, id);
  const { from, billTo } = await documentParties(workspaceId, invoice, opts.workspace);
  return invoicePdf(invoice, from, billTo);
}
