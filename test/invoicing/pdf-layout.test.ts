import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import type { Invoice } from '../../shared/domain/entities/invoices';
import { DESCRIPTION_LINES, formatMoney, invoicePdf } from '../../shared/services/invoice-pdf';
import { PdfText } from '../../shared/services/pdf-text';

/**
 * The invoice PDF's text layout (shared/services/invoice-pdf.ts, shared/services/pdf-text.ts), read back
 * with pdf-parse: long descriptions wrapped into their column and cut with "..." after
 * DESCRIPTION_LINES lines, every word up to the cut shown in order; notes shown in full, wrapped, over
 * further pages; characters the font lacks as "?". The wrapping itself: no line wider than its box,
 * nothing lost but past the cut (fast-check). Its speed is measured by `npm run bench` (section 12), not here.
 */

/** The text of a PDF by pdf-parse (pdf.js) in a plain Node process (pdf.js loads its worker with a dynamic import jest does not allow). */
function pdfText(bytes: Uint8Array): string {
  const file = join(mkdtempSync(join(tmpdir(), 'invoice-pdf-')), 'invoice.pdf');
  writeFileSync(file, bytes);
  const script =
    "const { PDFParse } = require('pdf-parse'); const p = new PDFParse({ data: require('fs').readFileSync(process.argv[1]) }); p.getText().then((r) => { process.stdout.write(r.text); return p.destroy(); });";
  return execFileSync(process.execPath, ['-e', script, file], { cwd: join(__dirname, '../..'), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** `count` distinct words `<prefix><k>` (k = 0..), space-separated, at least `chars` long. */
const words = (prefix: string, chars: number) => {
  const out: string[] = [];
  for (let k = 0; out.join(' ').length < chars; k++) out.push(`${prefix}${k}`);
  return out;
};

function invoiceOf(lineItems: Invoice['lineItems'], notes?: string): Invoice {
  const subtotal = lineItems.reduce((s, li) => s + li.amount, 0);
  return {
    id: '01JTESTPDF00000000000000000',
    number: 'INV-000777',
    clientId: '01JTESTCLIENT0000000000000',
    status: 'sent',
    issueDate: '2026-03-31',
    dueDate: '2026-04-30',
    currency: 'EUR',
    lineItems,
    subtotal,
    tax: 0,
    total: subtotal,
    ...(notes ? { notes } : {}),
    createdAt: '2026-03-31T00:00:00.000Z',
    updatedAt: '2026-03-31T00:00:00.000Z',
  } as unknown as Invoice;
}
const FROM = { name: 'Studio North', address: 'Harbour 5\nHamburg' };
const TO = { name: 'Acme Corp', email: 'billing@acme.test' };

/** The tokens of `all` the text shows, in the order shown. */
const shown = (text: string, all: readonly string[]) => {
  const set = new Set(all);
  return (text.match(/[a-z][a-z0-9]*/gi) ?? []).filter((t) => set.has(t));
};

describe('the invoice PDF, read back', () => {
  const lines = Array.from({ length: 200 }, (_, i) => words(`d${i}x`, 1200));
  const notes = [words('na', 500), words('nb', 400), words('nc', 300)];
  let text: string;

  beforeAll(async () => {
    const items = lines.map((w) => ({ description: w.join(' '), quantity: 1.5, unitPrice: 120, amount: 180 }));
    items.push({ description: 'Short line: café 日本', quantity: 2, unitPrice: 100, amount: 200 });
    text = pdfText(await invoicePdf(invoiceOf(items, notes.map((p) => p.join(' ')).join('\n')), FROM, TO));
  }, 60_000);

  test('200 descriptions of 1,200 characters: each shows its first words in order, nothing skipped, across up to 3 lines, then "..."', () => {
    for (const [i, w] of lines.entries()) {
      const seen = shown(text, w);
      // a prefix of the description's words, in order: nothing before the cut is lost
      expect({ i, seen }).toEqual({ i, seen: w.slice(0, seen.length) });
      // 3 lines of a 270-point column hold 20 such words (one line alone holds 7); 1,200 characters do not fit
      expect(seen.length).toBeGreaterThanOrEqual(15);
      expect(seen.length).toBeLessThan(w.length);
    }
    expect(text.match(/\.\.\./g)?.length).toBeGreaterThanOrEqual(lines.length);
    // the numbers of each line are on its first line, after the start of its description
    expect(text).toContain(`d0x0 d0x1`);
    expect(text.match(new RegExp(`1\\.50 ${formatMoney(120, 'EUR')} ${formatMoney(180, 'EUR')}`, 'g'))?.length).toBe(lines.length);
    expect(DESCRIPTION_LINES).toBe(3);
  });

  test('a short description stays on one line with its numbers; characters the font lacks print as "?"', () => {
    expect(text).toContain(`Short line: café ?? 2.00 ${formatMoney(100, 'EUR')} ${formatMoney(200, 'EUR')}`);
  });

  test('the notes are shown in full: every word of every paragraph, in order, wrapped (continued on a further page)', () => {
    for (const p of notes) expect(shown(text, p)).toEqual(p);
    expect(text).toContain(`Total ${formatMoney(180 * 200 + 200, 'EUR')}`);
  });
});

describe('a 5,000-entry invoice by entry, read back', () => {
  test('every line once, in order, with its numbers, over as many pages as it takes; the total at the end; under 4 MB', async () => {
    const n = 5000;
    const entry = (i: number) => `e${String(i).padStart(4, '0')}`;
    const items = Array.from({ length: n }, (_, i) => ({
      description: `2026-03-${String((i % 28) + 1).padStart(2, '0')} Website: ${entry(i)} ${'review '.repeat(150)}`,
      quantity: 0.25,
      unitPrice: 100,
      amount: 25,
    }));
    const pdf = await invoicePdf(invoiceOf(items), FROM, TO);
    // it travels base64 in the function's answer (issue 32: under 4 MB)
    expect(Math.ceil(pdf.byteLength / 3) * 4).toBeLessThan(4 * 1024 * 1024);
    const text = pdfText(pdf);
    const ids = Array.from({ length: n }, (_, i) => entry(i));
    expect(shown(text, ids)).toEqual(ids);
    expect(text.match(new RegExp(`0\\.25 ${formatMoney(100, 'EUR')} ${formatMoney(25, 'EUR')}`, 'g'))?.length).toBe(n);
    expect(text).toContain(`Total ${formatMoney(25 * n, 'EUR')}`);
    const pages = (await PDFDocument.load(pdf)).getPageCount();
    expect(pages).toBeGreaterThan(n / 20);
    expect(text).toContain(`-- ${pages} of ${pages} --`);
  }, 120_000);
});

describe('PdfText: the line layout', () => {
  let fonts: PDFFont[];
  beforeAll(async () => {
    const doc = await PDFDocument.create();
    fonts = [await doc.embedFont(StandardFonts.Helvetica), await doc.embedFont(StandardFonts.HelveticaBold)];
  });
  /** Width without kerning, as drawText draws: the sum of each character's width. */
  const drawnWidth = (font: PDFFont, s: string, size: number) => [...s].reduce((w, ch) => w + font.widthOfTextAtSize(ch, size), 0);
  // no '.' in the texts, so an ellipsis can only be the cut
  const texts = fc.string({ unit: fc.constantFrom('a', 'W', 'i', ' ', ' ', 'm', '\n', 'é', '€', '日', '1', 'MMMMMMMMMMMMMMMMMMMM'), maxLength: 400 });
  const squash = (s: string) => s.replace(/\s+/g, '');

  test('wrap: no line wider than its box, at most maxLines; all the text when it fits, else a prefix ending with "..."', () => {
    fc.assert(
      fc.property(
        texts,
        fc.integer({ min: 0, max: 1 }),
        fc.integer({ min: 6, max: 14 }),
        fc.integer({ min: 40, max: 300 }),
        fc.integer({ min: 1, max: 4 }),
        (s, f, size, width, maxLines) => {
          const font = fonts[f]!;
          const layout = new PdfText(font);
          const out = layout.wrap(s, size, width, maxLines);
          expect(out.length).toBeLessThanOrEqual(maxLines);
          for (const line of out) expect(drawnWidth(font, line, size)).toBeLessThanOrEqual(width + 1e-9);
          const all = squash(layout.drawable(s, Infinity));
          const last = out[out.length - 1] ?? '';
          if (last.endsWith('...')) expect(all.startsWith(squash(out.join('')).slice(0, -3))).toBe(true);
          else expect(squash(out.join(''))).toBe(all);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('fitText: the text itself when it fits its box, else the longest prefix that fits with "..."', () => {
    fc.assert(
      fc.property(texts, fc.integer({ min: 6, max: 14 }), fc.integer({ min: 20, max: 300 }), (s, size, width) => {
        const font = fonts[0]!;
        const layout = new PdfText(font);
        const full = layout.drawable(s, Infinity);
        const out = layout.fitText(s, size, width);
        if (drawnWidth(font, full, size) <= width) expect(out).toBe(full);
        else {
          expect(out.endsWith('...')).toBe(true);
          expect(drawnWidth(font, out, size)).toBeLessThanOrEqual(width + 1e-9);
          expect(full.startsWith(out.slice(0, -3))).toBe(true);
          // one more character would not have fitted
          const next = full.slice(0, out.length - 3 + 1);
          if (next.length > out.length - 3 && next.trimEnd() === next) expect(drawnWidth(font, `${next}...`, size)).toBeGreaterThan(width);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('a text is cut to what its box could hold before it is measured: 10,000 characters cost what 100 do', () => {
    const font = fonts[0]!;
    const measured: string[] = [];
    const spy = {
      ...font,
      widthOfTextAtSize: (t: string, size: number) => (measured.push(t), font.widthOfTextAtSize(t, size)),
      getCharacterSet: () => font.getCharacterSet(),
    } as unknown as PDFFont;
    const layout = new PdfText(spy);
    measured.length = 0;
    const long = 'word '.repeat(2000);
    expect(layout.drawable(long, layout.maxChars(270, 10)).length).toBeLessThan(200);
    layout.wrap(long, 10, 270, 3);
    layout.fitText(long, 10, 270);
    // only single characters are ever measured (each once, then cached): never a prefix of the text
    expect(measured.every((t) => [...t].length === 1)).toBe(true);
    expect(new Set(measured).size).toBe(measured.length);
  });
});
