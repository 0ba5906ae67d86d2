import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { buildConsoleOpenApi } from '../shared/console/openapi';
import { CONSOLE_ASSETS } from '../shared/console/page';
import { consoleRouteList } from '../shared/console/routes';

/**
 * Builds the console's assets into `outDir`: the page's script, console/app.tsx (Preact, @preact/signals,
 * openapi-fetch, oauth4webapi; TSX with Preact's automatic runtime) bundled and minified by the project's
 * esbuild into one ES module; its style, console/app.css; and the console API's OpenAPI document (without
 * `servers`, which the function adds per request), built from the console route table. The console function
 * serves them from CONSOLE_ASSETS_DIR (`npm start` builds them there); deployed, lib/console.ts runs this
 * file (`tsx local/console-assets.ts <dir>`) when it bundles the function, and they sit next to its bundle.
 */
export const CONSOLE_SOURCE_DIR = resolve(__dirname, '..', 'console');
export const CONSOLE_ENTRY = 'app.tsx';
export const CONSOLE_BUILD = {
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  legalComments: 'none',
  jsx: 'automatic',
  jsxImportSource: 'preact',
} as const;

export function buildConsoleAssets(outDir: string): string {
  mkdirSync(outDir, { recursive: true });
  buildSync({ ...CONSOLE_BUILD, entryPoints: [join(CONSOLE_SOURCE_DIR, CONSOLE_ENTRY)], outfile: join(outDir, CONSOLE_ASSETS.script), logLevel: 'error' });
  copyFileSync(join(CONSOLE_SOURCE_DIR, 'app.css'), join(outDir, CONSOLE_ASSETS.style));
  writeFileSync(join(outDir, CONSOLE_ASSETS.openapi), consoleOpenApiText());
  return outDir;
}

/** The console's OpenAPI document as the function reads it (shared/console/page.ts consoleOpenApi). */
export const consoleOpenApiText = () => JSON.stringify(buildConsoleOpenApi(consoleRouteList));

if (require.main === module) {
  const outDir = process.argv[2];
  if (!outDir) {
    console.error('usage: tsx local/console-assets.ts <output dir>');
    process.exit(2);
  }
  buildConsoleAssets(outDir);
}
