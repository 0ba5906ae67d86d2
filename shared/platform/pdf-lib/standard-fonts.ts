// What the invoice needs of the package (local/pdf-font-metrics.ts made it from the installed package).
import fonts from './fonts.json';

/**
 * `@pdf-lib/standard-fonts` as the invoice PDF function bundles it: of the package's 14 fonts (128 KB in the
 * bundle; 35 KB for the two kept, with their kerning pairs and the Symbol and ZapfDingbats encodings), the
 * two the invoice draws with (Helvetica, Helvetica-Bold), their widths of the WinAnsi glyphs and the WinAnsi
 * encoding only: fonts.json, 7 KB. No kerning pairs: the invoice measures single characters and pdf-lib's
 * drawText draws without kerning (a pair's kerning would only change pdf-lib's own widthOfTextAtSize of
 * longer texts, which the invoice does not call). The same exports pdf-lib uses (Font, FontNames,
 * Encodings); a font or an encoding not kept fails loudly. Swapped in for the package by that function's
 * esbuild alias only (lib/service-function.ts FUNCTION_ALIASES); tests and the local run use the package
 * itself: test/invoicing/pdf-fonts.test.ts checks this module against it, and test/cdk/bundles.test.ts
 * renders an invoice with the bundle to check both give the same text.
 */
export enum FontNames {
  Courier = 'Courier',
  CourierBold = 'Courier-Bold',
  CourierOblique = 'Courier-Oblique',
  CourierBoldOblique = 'Courier-BoldOblique',
  Helvetica = 'Helvetica',
  HelveticaBold = 'Helvetica-Bold',
  HelveticaOblique = 'Helvetica-Oblique',
  HelveticaBoldOblique = 'Helvetica-BoldOblique',
  TimesRoman = 'Times-Roman',
  TimesRomanBold = 'Times-Bold',
  TimesRomanItalic = 'Times-Italic',
  TimesRomanBoldItalic = 'Times-BoldItalic',
  Symbol = 'Symbol',
  ZapfDingbats = 'ZapfDingbats',
}
interface KeptFont {
  widths: Array<number | null>;
  [field: string]: unknown;
}
const KEPT: Partial<Record<string, KeptFont>> = fonts.fonts;
const cache = new Map<string, Font>();

export class Font {
  CharWidths: Record<string, number> = {};

  static load(fontName: string): Font {
    const cached = cache.get(fontName);
    if (cached) return cached;
    const kept = KEPT[fontName];
    if (kept === undefined) throw new Error(`The font ${fontName} is not bundled in this function (only ${Object.keys(KEPT).join(' and ')})`);
    const { widths, ...header } = kept;
    const font = Object.assign(new Font(), header);
    fonts.winAnsi.forEach(([, , glyph], i) => {
      const width = widths[i];
      if (typeof width === 'number') font.CharWidths[String(glyph)] = width;
    });
    cache.set(fontName, font);
    return font;
  }

  getWidthOfGlyph = (glyphName: string): number | undefined => this.CharWidths[glyphName];
  /** No kerning pairs are kept (see above). */
  getXAxisKerningForPair = (_left: string, _right: string): number | undefined => undefined;
}

type Mappings = Record<number, [number, string]>;
class Encoding {
  readonly supportedCodePoints: number[];
  constructor(
    readonly name: string,
    readonly unicodeMappings: Mappings,
  ) {
    this.supportedCodePoints = Object.keys(unicodeMappings)
      .map(Number)
      .sort((a, b) => a - b);
  }
  canEncodeUnicodeCodePoint = (codePoint: number): boolean => codePoint in this.unicodeMappings;
  encodeUnicodeCodePoint = (codePoint: number): { code: number; name: string } => {
    const mapped = this.unicodeMappings[codePoint];
    if (!mapped) throw new Error(`${this.name} cannot encode "${String.fromCharCode(codePoint)}" (0x${codePoint.toString(16).padStart(4, '0')})`);
    return { code: mapped[0], name: mapped[1] };
  };
}
const winAnsi: Mappings = Object.fromEntries(fonts.winAnsi.map(([codePoint, code, glyph]) => [codePoint, [code, glyph]]));
export const Encodings = {
  // not kept: the Symbol and ZapfDingbats fonts are not bundled either
  Symbol: new Encoding('Symbol', {}),
  ZapfDingbats: new Encoding('ZapfDingbats', {}),
  WinAnsi: new Encoding('WinAnsi', winAnsi),
};
