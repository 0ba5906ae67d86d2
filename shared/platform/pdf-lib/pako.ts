import { deflateSync, inflateSync } from 'node:zlib';

/**
 * What pdf-lib calls of `pako` (deflate, to compress the PDF's streams), on Node's own zlib: the invoice
 * PDF function's bundle carries no compression library (pako was 45 KB of it). Swapped in for `pako` by
 * that function's esbuild alias only (lib/service-function.ts FUNCTION_BUNDLING); nothing imports it directly.
 */
export const deflate = (data: Uint8Array): Uint8Array => new Uint8Array(deflateSync(data));
export const inflate = (data: Uint8Array): Uint8Array => new Uint8Array(inflateSync(data));
export default { deflate, inflate };
