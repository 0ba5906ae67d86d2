import { inflateSync } from 'node:zlib';
// The metrics of the two fonts the invoice PDF draws with, and the encodings, from @pdf-lib/standard-fonts
// itself (its files, by path: the package name is aliased to this module in the bundle).
import HelveticaBold from '../../../node_modules/@pdf-lib/standard-fonts/es/Helvetica-Bold.compressed.json';
import Helvetica from '../../../node_modules/@pdf-lib/standard-fonts/es/Helvetica.compressed.json';
import AllEncodings from '../../../node_modules/@pdf-lib/standard-fonts/es/all-encodings.compressed.json';

/**
 * `@pdf-lib/standard-fonts` as the invoice PDF function bundles it: the metrics of Helvetica and
 * Helvetica-Bold only (the package holds all 14 standard fonts: 128 KB in the bundle), decompressed
 * with Node's zlib. The same exports pdf-lib uses (Font, FontNames, Encodings); a font not kept fails
 * loudly. Swapped in for the package by that function's esbuild alias only (lib/service-function.ts
 * FUNCTION_BUNDLING); tests and the local run use the package itself, and test/cdk/bundles.test.ts
 * renders an invoice with the bundle to check both give the same text.
 */
const decompress = (base64: string): string => inflateSync(Buffer.from(base64, 'base64')).toString('utf8');

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
const KEPT: Partial<Record<string, string>> = { [FontNames.Helvetica]: Helvetica as string, [FontNames.HelveticaBold]: HelveticaBold as string };

interface Metrics {
  CharMetrics: Array<{ N: string; WX: number }>;
  KernPairs: Array<[string, string, number]>;
  [field: string]: unknown;
}
const cache = new Map<string, Font>();

export class Font {
  CharWidths: Record<string, number> = {};
  KernPairXAmounts: Record<string, Record<string, number>> = {};

  static load(fontName: string): Font {
    const cached = cache.get(fontName);
    if (cached) return cached;
    const data = KEPT[fontName];
    if (data === undefined) throw new Error(`The font ${fontName} is not bundled in this function (only ${Object.keys(KEPT).join(' and ')})`);
    const metrics = JSON.parse(decompress(data)) as Metrics;
    const font = Object.assign(new Font(), metrics);
    for (const m of metrics.CharMetrics) font.CharWidths[m.N] = m.WX;
    for (const [left, right, width] of metrics.KernPairs) (font.KernPairXAmounts[left] ??= {})[right] = width;
    cache.set(fontName, font);
    return font;
  }

  getWidthOfGlyph = (glyphName: string): number | undefined => this.CharWidths[glyphName];
  getXAxisKerningForPair = (left: string, right: string): number | undefined => (this.KernPairXAmounts[left] ?? {})[right];
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
const all = JSON.parse(decompress(AllEncodings as string)) as { symbol: Mappings; zapfdingbats: Mappings; win1252: Mappings };
export const Encodings = {
  Symbol: new Encoding('Symbol', all.symbol),
  ZapfDingbats: new Encoding('ZapfDingbats', all.zapfdingbats),
  WinAnsi: new Encoding('WinAnsi', all.win1252),
};
