import { readFileSync } from 'node:fs';
import * as pkg from '@pdf-lib/standard-fonts';
import { KEPT_FONTS, PDF_FONTS_FILE, pdfFontMetrics } from '../../local/pdf-font-metrics';
import * as kept from '../../shared/platform/pdf-lib/standard-fonts';

/**
 * The invoice PDF function's stand-in for @pdf-lib/standard-fonts (shared/platform/pdf-lib/standard-fonts.ts
 * and its fonts.json, issue 35 item 3): generated from the installed package, and for what the invoice
 * uses (WinAnsi, Helvetica and Helvetica-Bold) the same as the package, glyph by glyph.
 */
test('fonts.json is what local/pdf-font-metrics.ts makes of the installed package (regenerate: npx tsx local/pdf-font-metrics.ts)', () => {
  expect(readFileSync(PDF_FONTS_FILE, 'utf8')).toBe(pdfFontMetrics());
});

test('WinAnsi: every code point the package encodes is encoded the same; the others are refused alike', () => {
  const codePoints = pkg.Encodings.WinAnsi.supportedCodePoints;
  expect(codePoints.length).toBeGreaterThan(200);
  expect(kept.Encodings.WinAnsi.supportedCodePoints).toEqual(codePoints);
  for (const cp of codePoints) expect(kept.Encodings.WinAnsi.encodeUnicodeCodePoint(cp)).toEqual(pkg.Encodings.WinAnsi.encodeUnicodeCodePoint(cp));
  for (const cp of [0x2603, 0x65e5, 0x1f600]) {
    expect(kept.Encodings.WinAnsi.canEncodeUnicodeCodePoint(cp)).toBe(false);
    expect(() => kept.Encodings.WinAnsi.encodeUnicodeCodePoint(cp)).toThrow();
    expect(() => pkg.Encodings.WinAnsi.encodeUnicodeCodePoint(cp)).toThrow();
  }
});

test.each(KEPT_FONTS.map((name) => [name]))('%s: the header values and the width of every WinAnsi glyph as in the package; no kerning', (name) => {
  const mine = kept.Font.load(name);
  const theirs = pkg.Font.load(name);
  for (const field of ['FontName', 'FontBBox', 'Ascender', 'Descender', 'CapHeight', 'XHeight', 'ItalicAngle'] as const)
    expect([field, mine[field as keyof typeof mine]]).toEqual([field, theirs[field]]);
  for (const cp of pkg.Encodings.WinAnsi.supportedCodePoints) {
    const glyph = pkg.Encodings.WinAnsi.encodeUnicodeCodePoint(cp).name;
    expect([glyph, mine.getWidthOfGlyph(glyph)]).toEqual([glyph, theirs.getWidthOfGlyph(glyph)]);
  }
  // kerning is left out: the package has pairs, the stand-in none
  expect(theirs.getXAxisKerningForPair('A', 'V')).toBeLessThan(0);
  expect(mine.getXAxisKerningForPair('A', 'V')).toBeUndefined();
});

test('a font that is not kept fails loudly, naming the kept ones', () => {
  expect(() => kept.Font.load(kept.FontNames.Courier)).toThrow('The font Courier is not bundled in this function (only Helvetica and Helvetica-Bold)');
  expect(() => kept.Encodings.Symbol.encodeUnicodeCodePoint(0x3b1)).toThrow();
});
