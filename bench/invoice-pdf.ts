import { PDFDocument } from 'pdf-lib';
import type { Invoice } from '../shared/domain/entities/invoices';
import { invoicePdf } from '../shared/services/invoice-pdf';
import { markdownTable, metText, table, type Target } from './lib/report';
import { fmt, median } from './lib/stats';

/**
 * Section 12 of `npm run bench`: the invoice PDF's renderer (shared/services/invoice-pdf.ts) on the two
 * invoices issue 32 names, in process, no DynamoDB (the function adds two GetItems): 200 lines whose
 * descriptions are 1,200 characters (and 1,200-character notes), and 5,000 lines by entry (an invoice of
 * 5,000 entries, each line a date, a project and 1,000 characters of the entry's notes). Median time of
 * `runs` renders after one warm-up, the PDF's size and its base64 size (how the console function answers
 * it). Targets: the first under 1 s; the second within the function's limit (10 s) and under 4 MB.
 */
export interface PdfRun {
  name: string;
  lines: number;
  ms: number;
  bytes: number;
  pages: number;
}

const WORDS = ['design', 'review', 'homepage', 'client', 'meeting', 'notes', 'refactor', 'deploy', 'fix', 'layout', 'Überprüfung', 'café', '日本'];
/** A text of `n` characters of words (some outside WinAnsi, which print as `?`), the same for the same seed. */
export function longText(n: number, seed: number): string {
  let s = '';
  for (let i = seed; s.length < n; i++) s += `${WORDS[(i * 7) % WORDS.length]} `;
  return s.slice(0, n);
}

/** An invoice of `lines` lines whose descriptions are `chars` long (the renderer's input; its totals add up). */
export function syntheticInvoice(lines: number, chars: number, notesChars: number): Invoice {
  const lineItems = Array.from({ length: lines }, (_, i) => ({
    description: `2026-03-${String((i % 28) + 1).padStart(2, '0')} Website: ${longText(chars, i)}`.slice(0, chars),
    quantity: 1.5,
    unitPrice: 120,
    amount: 180,
  }));
  const subtotal = 180 * lines;
  return {
    id: '01JBENCHPDF0000000000000000',
    number: 'INV-BENCH-1',
    clientId: '01JBENCHCLIENT000000000000',
    status: 'draft',
    issueDate: '2026-03-31',
    dueDate: '2026-04-30',
    currency: 'EUR',
    lineItems,
    subtotal,
    tax: Math.round(subtotal * 19) / 100,
    total: subtotal + Math.round(subtotal * 19) / 100,
    taxRate: 19,
    ...(notesChars ? { notes: longText(notesChars, 3) } : {}),
    createdAt: '2026-03-31T00:00:00.000Z',
    updatedAt: '2026-03-31T00:00:00.000Z',
  } as unknown as Invoice;
}

const pagesOf = async (pdf: Uint8Array) => (await PDFDocument.load(pdf, { updateMetadata: false })).getPageCount();

async function timeRender(name: string, invoice: Invoice, runs: number): Promise<PdfRun> {
  const render = () => invoicePdf(invoice, { name: 'Studio North', address: 'Harbour 5\nHamburg' }, { name: 'Acme Corp', email: 'billing@acme.test' });
  const pdf = await render(); // warm-up (fonts loaded, code compiled)
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await render();
    times.push(performance.now() - t0);
  }
  return { name, lines: invoice.lineItems.length, ms: median(times), bytes: pdf.byteLength, pages: await pagesOf(pdf) };
}

export async function measurePdf(o: { runs: number; largeLines: number; progress?: (s: string) => void }): Promise<PdfRun[]> {
  o.progress?.('pdf: 200 lines of 1,200 characters');
  const long = await timeRender('200 lines, 1,200-character descriptions and notes', syntheticInvoice(200, 1200, 1200), o.runs);
  o.progress?.(`pdf: ${o.largeLines} lines by entry`);
  const big = await timeRender(
    `${o.largeLines.toLocaleString('en-US')} lines by entry (1,000-character descriptions)`,
    syntheticInvoice(o.largeLines, 1000, 0),
    Math.max(1, Math.ceil(o.runs / 3)),
  );
  return [long, big];
}

export const PDF_LONG_TARGET_MS = 1000;
export const PDF_FUNCTION_LIMIT_MS = 10_000;
export const PDF_MAX_BYTES = 4 * 1024 * 1024;

export function formatPdf(runs: PdfRun[], targets: Target[]): { text: string; markdown: string } {
  const [long, big] = runs;
  const base64 = (n: number) => Math.ceil(n / 3) * 4;
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(2)} MB`;
  if (long)
    targets.push({
      section: '12 invoice PDF',
      name: `PDF render, ${long.name}`,
      figure: `${fmt(long.ms, 0)} ms`,
      target: `< ${PDF_LONG_TARGET_MS} ms`,
      met: long.ms < PDF_LONG_TARGET_MS,
    });
  if (big) {
    targets.push({
      section: '12 invoice PDF',
      name: `PDF render, ${big.name}`,
      figure: `${fmt(big.ms, 0)} ms`,
      target: `< ${PDF_FUNCTION_LIMIT_MS} ms (the function's limit)`,
      met: big.ms < PDF_FUNCTION_LIMIT_MS,
    });
    targets.push({
      section: '12 invoice PDF',
      name: `PDF size, ${big.name}`,
      figure: `${mb(big.bytes)} (base64 ${mb(base64(big.bytes))})`,
      target: '< 4 MB',
      met: big.bytes < PDF_MAX_BYTES,
    });
  }
  const header = ['invoice', 'lines', 'pages', 'ms (median)', 'PDF', 'base64', 'met'];
  const rows = runs.map((r, i) => [
    r.name,
    String(r.lines),
    String(r.pages),
    fmt(r.ms, 0),
    mb(r.bytes),
    mb(base64(r.bytes)),
    metText(i === 0 ? r.ms < PDF_LONG_TARGET_MS : r.ms < PDF_FUNCTION_LIMIT_MS && r.bytes < PDF_MAX_BYTES),
  ]);
  const note =
    "The renderer alone (shared/services/invoice-pdf.ts: pdf-lib, Helvetica), in process; the function adds the invoice's and the client's GetItem. A description shows in at most 3 lines of its column (the rest ends with ...), the notes in full; text is cut to what its box could hold before it is measured (shared/services/pdf-text.ts), so the time grows with the lines, not with the length of their texts. Targets (issue 32): 200 lines of 1,200 characters < 1 s; 5,000 lines within the function's 10 s and < 4 MB (the answer travels base64).";
  return { text: `${table(header, rows)}\n${note}`, markdown: `${markdownTable(header, rows)}\n\n${note}` };
}
