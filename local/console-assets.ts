import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { CONSOLE_ASSETS } from '../shared/console/page';

/**
 * Builds the console page's assets with the project's esbuild: console/app.tsx (Preact, @preact/signals,
 * openapi-fetch, oauth4webapi; TSX with Preact's automatic runtime) bundled and minified into one ES module, and console/app.css, into `outDir`; the console function serves them
 * from CONSOLE_ASSETS_DIR. lib/console.ts runs the same build (CONSOLE_BUILD) when it bundles the function.
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
  return outDir;
}
