/**
 * `@pdf-lib/upng` (PNG decoding, 25 KB) for the invoice PDF function's bundle: the invoice PDF embeds no
 * image, so pdf-lib's embedPng, the one caller, fails loudly instead. Swapped in by that function's
 * esbuild alias only (lib/service-function.ts FUNCTION_BUNDLING).
 */
const unsupported = (): never => {
  throw new Error('PNG images are not bundled in this function (the invoice PDF embeds none)');
};
export default { decode: unsupported, toRGBA8: unsupported };
