import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Encodings, Font, FontNames } from '@pdf-lib/standard-fonts';

/**
 * shared/platform/pdf-lib/fonts.json: what the invoice PDF function needs of @pdf-lib/standard-fonts, taken
 * from the installed package (nothing downloaded): the WinAnsi encoding (the only one the invoice uses) and,
 * for Helvetica and Helvetica-Bold (the only fonts it draws with), each font's header values and the width
 * of every WinAnsi glyph. No kerning pairs (2,705 per font, most of the package's bytes): the invoice measures
 * single characters and pdf-lib's drawText draws without kerning. The other 12 fonts are left out.
 * `npx tsx local/pdf-font-metrics.ts` writes it; `--check` (and test/invoicing/pdf-fonts.test.ts) fails when
 * it differs from what the package gives.
 */
export const PDF_FONTS_FILE = join(__dirname, '..', 'shared', 'platform', 'pdf-lib', 'fonts.json');
export const KEPT_FONTS = [FontNames.Helvetica, FontNames.HelveticaBold] as const;

export function pdfFontMetrics(): string {
  const winAnsi = Encodings.WinAnsi.supportedCodePoints.map((cp) => {
    const { code, name } = Encodings.WinAnsi.encodeUnicodeCodePoint(cp);
    return [cp, code, name] as const;
  });
  const fonts = Object.fromEntries(
    KEPT_FONTS.map((name) => {
      const font = Font.load(name);
      const header = Object.fromEntries(
        Object.entries(font).filter(([k, v]) => !['CharMetrics', 'KernPairs', 'CharWidths', 'KernPairXAmounts'].includes(k) && typeof v !== 'function'),
      );
      return [name, { ...header, widths: winAnsi.map(([, , glyph]) => font.getWidthOfGlyph(glyph) ?? null) }];
    }),
  );
  return `${JSON.stringify({ winAnsi, fonts })}\n`;
}

function main() {
  const text = pdfFontMetrics();
  if (process.argv.includes('--check')) {
    if (readFileSync(PDF_FONTS_FILE, 'utf8') !== text) {
      console.error(`${PDF_FONTS_FILE} differs from @pdf-lib/standard-fonts: run npx tsx local/pdf-font-metrics.ts`);
      process.exit(1);
    }
    console.log('shared/platform/pdf-lib/fonts.json matches @pdf-lib/standard-fonts');
    return;
  }
  writeFileSync(PDF_FONTS_FILE, text);
  console.log(`wrote ${PDF_FONTS_FILE} (${text.length} bytes)`);
}

if (require.main === module) main();
