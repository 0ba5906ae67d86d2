// pdf-lib's document model and writer, module by module (not its index): the invoice draws text with the
// standard fonts and lines, so its bundle leaves out what the high-level API brings with it (forms,
// annotations, the parser of existing PDFs, image and custom-font embedders: ~110 KB). The function's
// bundle swaps these CommonJS modules for their ES twins (lib/service-function.ts FUNCTION_ALIASES).
import type { FontNames } from '@pdf-lib/standard-fonts';
import PDFContext from 'pdf-lib/cjs/core/PDFContext';
import StandardFontEmbedder from 'pdf-lib/cjs/core/embedders/StandardFontEmbedder';
import PDFHexString from 'pdf-lib/cjs/core/objects/PDFHexString';
import PDFName from 'pdf-lib/cjs/core/objects/PDFName';
import type PDFRef from 'pdf-lib/cjs/core/objects/PDFRef';
import PDFCatalog from 'pdf-lib/cjs/core/structures/PDFCatalog';
import PDFContentStream from 'pdf-lib/cjs/core/structures/PDFContentStream';
import PDFPageLeaf from 'pdf-lib/cjs/core/structures/PDFPageLeaf';
import PDFPageTree from 'pdf-lib/cjs/core/structures/PDFPageTree';
import PDFStreamWriter from 'pdf-lib/cjs/core/writers/PDFStreamWriter';
import PDFNumber from 'pdf-lib/cjs/core/objects/PDFNumber';
import PDFOperator from 'pdf-lib/cjs/core/operators/PDFOperator';
import Ops from 'pdf-lib/cjs/core/operators/PDFOperatorNames';
import type PDFHexStringType from 'pdf-lib/cjs/core/objects/PDFHexString';

// The operators pdf-lib's api/operators.js writes (that module imports pdf-lib's whole core through its index).
const op = (name: Ops, ...args: Array<number | PDFName | PDFHexStringType>) =>
  PDFOperator.of(
    name,
    args.map((a) => (typeof a === 'number' ? PDFNumber.of(a) : a)),
  );
const pushGraphicsState = () => op(Ops.PushGraphicsState);
const popGraphicsState = () => op(Ops.PopGraphicsState);
const beginText = () => op(Ops.BeginText);
const endText = () => op(Ops.EndText);
const setFillingRgbColor = (r: number, g: number, b: number) => op(Ops.NonStrokingColorRgb, r, g, b);
const setStrokingRgbColor = (r: number, g: number, b: number) => op(Ops.StrokingColorRgb, r, g, b);
const setFontAndSize = (key: string, size: number) => op(Ops.SetFontAndSize, PDFName.of(key), size);
const setTextMatrix = (a: number, b: number, c: number, d: number, e: number, f: number) => op(Ops.SetTextMatrix, a, b, c, d, e, f);
const showText = (text: PDFHexStringType) => op(Ops.ShowText, text);
const setLineWidth = (width: number) => op(Ops.SetLineWidth, width);
const moveTo = (x: number, y: number) => op(Ops.MoveTo, x, y);
const lineTo = (x: number, y: number) => op(Ops.LineTo, x, y);
const stroke = () => op(Ops.StrokePath);

/**
 * A PDF of text and lines, written with pdf-lib's own objects and writer (what `PDFDocument.create`,
 * `addPage`, `embedFont(StandardFonts.X)`, `PDFPage.drawText`/`drawLine` and `save` do, for these cases
 * only): a catalog and page tree, A4-or-any-size pages, standard fonts (WinAnsi, nothing embedded), one
 * content stream per page (compressed), and the document's info (title, subject, producer). The text
 * operators are those pdf-lib's drawText writes (fill colour, font and size, text matrix, the encoded text),
 * so text extraction reads the same. `save` writes with object streams, as `PDFDocument.save` does.
 */
export interface RgbColor {
  r: number;
  g: number;
  b: number;
}

/** A standard font of a TextPdf: what a layout measures (the same as pdf-lib's PDFFont offers). */
export class TextPdfFont {
  readonly ref: PDFRef;
  constructor(
    readonly key: string,
    private readonly embedder: StandardFontEmbedder,
    context: PDFContext,
  ) {
    this.ref = embedder.embedIntoContext(context);
  }
  /** The Unicode code points the font can draw (its WinAnsi encoding). */
  getCharacterSet(): number[] {
    return this.embedder.encoding.supportedCodePoints;
  }
  widthOfTextAtSize(text: string, size: number): number {
    return this.embedder.widthOfTextAtSize(text, size);
  }
  encode(text: string) {
    return this.embedder.encodeText(text);
  }
}

export class TextPdfPage {
  private readonly stream: PDFContentStream;
  private readonly fonts = new Set<string>();
  private font: TextPdfFont | undefined;

  constructor(
    private readonly leaf: PDFPageLeaf,
    private readonly context: PDFContext,
  ) {
    this.stream = PDFContentStream.of(context.obj({}), []);
    leaf.addContentStream(context.register(this.stream));
  }

  /** The font of the next drawText calls (added to the page's resources once). */
  setFont(font: TextPdfFont): void {
    if (!this.fonts.has(font.key)) {
      this.leaf.setFontDictionary(PDFName.of(font.key), font.ref);
      this.fonts.add(font.key);
    }
    this.font = font;
  }

  /** One line of drawable text (the font's characters, no line breaks) at (x, y), in the page's font. */
  drawText(text: string, o: { x: number; y: number; size: number; color: RgbColor }): void {
    const font = this.font;
    if (!font) throw new Error('TextPdfPage.drawText: setFont first');
    this.stream.push(
      pushGraphicsState(),
      beginText(),
      setFillingRgbColor(o.color.r, o.color.g, o.color.b),
      setFontAndSize(font.key, o.size),
      setTextMatrix(1, 0, 0, 1, o.x, o.y),
      showText(font.encode(text)),
      endText(),
      popGraphicsState(),
    );
  }

  /** A black line from start to end. */
  drawLine(o: { start: { x: number; y: number }; end: { x: number; y: number }; thickness: number }): void {
    this.stream.push(
      pushGraphicsState(),
      setStrokingRgbColor(0, 0, 0),
      setLineWidth(o.thickness),
      moveTo(o.start.x, o.start.y),
      lineTo(o.end.x, o.end.y),
      stroke(),
      popGraphicsState(),
    );
  }

  /** The page's size in points (its MediaBox). */
  setSize(width: number, height: number): void {
    this.leaf.set(PDFName.of('MediaBox'), this.context.obj([0, 0, width, height]));
  }
}

export class TextPdf {
  private readonly context = PDFContext.create();
  private readonly catalog: PDFCatalog;
  private readonly tree: PDFRef;
  private readonly fonts = new Map<string, TextPdfFont>();
  private readonly info = this.context.obj({});
  private pages = 0;

  constructor() {
    this.tree = this.context.register(PDFPageTree.withContext(this.context));
    this.catalog = PDFCatalog.withContextAndPages(this.context, this.tree);
    this.context.trailerInfo.Root = this.context.register(this.catalog);
    this.context.trailerInfo.Info = this.context.register(this.info);
  }

  /** The document's info entries (Title, Subject, Producer...), as text strings. */
  setInfo(entries: Readonly<Record<string, string>>): void {
    for (const [name, value] of Object.entries(entries)) this.info.set(PDFName.of(name), PDFHexString.fromText(value));
  }

  /** A standard font ('Helvetica', 'Helvetica-Bold', ...): written once, a Type1 font with WinAnsi encoding. */
  font(name: FontNames): TextPdfFont {
    let font = this.fonts.get(name);
    if (!font) {
      font = new TextPdfFont(`F${this.fonts.size + 1}`, StandardFontEmbedder.for(name), this.context);
      this.fonts.set(name, font);
    }
    return font;
  }

  addPage([width, height]: readonly [number, number]): TextPdfPage {
    const leaf = PDFPageLeaf.withContextAndParent(this.context, this.tree);
    const ref = this.context.register(leaf);
    leaf.setParent(this.catalog.insertLeafNode(ref, this.pages++));
    const page = new TextPdfPage(leaf, this.context);
    page.setSize(width, height);
    return page;
  }

  /** The PDF's bytes (object streams, content streams compressed), as `PDFDocument.save()` writes them. */
  save(): Promise<Uint8Array> {
    return PDFStreamWriter.forContext(this.context, 50).serializeToBuffer();
  }
}
