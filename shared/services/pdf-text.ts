/** What the layout needs of a font (pdf-lib's PDFFont and the invoice's TextPdfFont both offer it). */
export interface MeasurableFont {
  /** The Unicode code points the font can draw. */
  getCharacterSet(): number[];
  widthOfTextAtSize(text: string, size: number): number;
}

/**
 * Text for a PDF drawn with a standard font (WinAnsi), in time linear in what can show: a text is cut to
 * the most characters its box could hold (the box's width over the font's narrowest glyph) BEFORE anything
 * is measured, so a 10,000-character note costs no more than the few hundred characters that fit; widths
 * are sums of per-character widths (cached per font), and every search over a line is one pass. (The
 * first renderer measured each shorter prefix of a text again: 200 lines of 1,200 characters took 15 s.)
 *
 * Widths are without kerning, as pdf-lib's drawText draws (it emits no kerning adjustments).
 */
export class PdfText {
  private readonly chars: ReadonlySet<number>;
  private readonly widths = new Map<string, number>();
  /** The narrowest glyph of the character set, in 1/1000 of the font size. */
  private readonly narrowest: number;

  constructor(private readonly font: MeasurableFont) {
    this.chars = new Set(font.getCharacterSet());
    let min = Infinity;
    for (const cp of this.chars) if (cp >= 0x20) min = Math.min(min, this.glyphWidth(String.fromCodePoint(cp)));
    this.narrowest = min > 0 && min < Infinity ? min : 1;
  }

  private glyphWidth(ch: string): number {
    let w = this.widths.get(ch);
    if (w === undefined) {
      w = this.font.widthOfTextAtSize(ch, 1000);
      this.widths.set(ch, w);
    }
    return w;
  }

  /** The most characters a box `width` wide can hold at `size` (every one the narrowest glyph). */
  maxChars(width: number, size: number): number {
    return Math.max(1, Math.floor(width / ((this.narrowest * size) / 1000)) + 1);
  }

  /**
   * The first `maxChars` characters of `text` as the font can draw them: line breaks and tabs (runs of
   * them) become one space, other control characters a space, characters outside the font's set `?`.
   */
  drawable(text: string, maxChars: number): string {
    let out = '';
    let n = 0;
    let breakRun = false;
    for (const ch of text) {
      if (n >= maxChars) break;
      const cp = ch.codePointAt(0)!;
      const isBreak = cp === 0x0a || cp === 0x0d || cp === 0x09;
      if (isBreak && breakRun) continue;
      breakRun = isBreak;
      out += cp < 0x20 || cp === 0x7f ? ' ' : this.chars.has(cp) ? ch : '?';
      n++;
    }
    return out;
  }

  /** The width of a drawable text at `size`. */
  width(text: string, size: number): number {
    let w = 0;
    for (const ch of text) w += this.glyphWidth(ch);
    return (w * size) / 1000;
  }

  /** The text on one line of `width`: as is when it fits, else cut with an ellipsis (`...`). */
  fitText(text: string, size: number, width: number): string {
    return this.fitDrawable(this.drawable(text, this.maxChars(width, size) + 1), size, width);
  }

  private fitDrawable(t: string, size: number, width: number): string {
    const scale = size / 1000;
    let w = 0;
    for (let i = 0; i < t.length; i++) w += this.glyphWidth(t[i]!) * scale;
    if (w <= width) return t;
    // the longest prefix that leaves room for the ellipsis: one pass
    const room = width - this.width('...', size);
    let k = 0;
    let used = 0;
    while (k < t.length && used + this.glyphWidth(t[k]!) * scale <= room) used += this.glyphWidth(t[k++]!) * scale;
    return `${t.slice(0, k).trimEnd()}...`;
  }

  /**
   * The text wrapped into at most `maxLines` lines of `width` (at spaces; a word wider than a line is
   * broken). What does not fit ends the last line with an ellipsis. One pass over at most
   * `maxLines x maxChars` characters.
   */
  wrap(text: string, size: number, width: number, maxLines: number): string[] {
    const t = this.drawable(text, this.maxChars(width, size) * maxLines + 1);
    const scale = size / 1000;
    const lines: string[] = [];
    let i = 0;
    while (lines.length < maxLines) {
      while (i < t.length && t[i] === ' ') i++;
      if (i >= t.length) break;
      let w = 0;
      let j = i;
      let lastSpace = -1;
      while (j < t.length) {
        const cw = this.glyphWidth(t[j]!) * scale;
        if (w + cw > width) break;
        if (t[j] === ' ') lastSpace = j;
        w += cw;
        j++;
      }
      // a character wider than the line alone still takes a line (never an endless loop)
      const end = j === i ? i + 1 : j < t.length && t[j] !== ' ' && lastSpace > i ? lastSpace : j;
      lines.push(t.slice(i, end).trimEnd());
      i = end;
    }
    const rest = t.slice(i).trim();
    if (rest && lines.length > 0) lines[lines.length - 1] = this.fitDrawable(`${lines[lines.length - 1]!} ${rest}`, size, width);
    return lines;
  }
}
