import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Json } from '../api/kernel/openapi';
import * as settings from '../platform/settings';

/**
 * GET /console: the page, its script and its style, all served by the API (nothing from a CDN); and the
 * console API's OpenAPI document. The script is console/app.tsx (Preact) bundled by the project's esbuild
 * (with oauth4webapi), the document built from the console route table (shared/console/openapi.ts): at deploy
 * time by the console function's bundling (lib/console.ts), locally by `npm start`, both with
 * local/console-assets.ts, into CONSOLE_ASSETS_DIR (deployed: next to the bundle). The function reads them. The Content-Security-Policy allows scripts and styles from the API only (no inline
 * script or style), network calls to the API and the OpenID Provider's origins only (pageHeaders), and no framing.
 */
export const CONSOLE_ASSETS = { script: 'console-app.js', style: 'console-app.css', openapi: 'console-openapi.json' } as const;
export const CONSOLE_TITLE = 'Time-tracking console';

export function assetsDir(): string {
  return settings.consoleAssetsDir() ?? __dirname;
}

const cache = new Map<string, string>();
export function readAsset(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    const file = join(assetsDir(), name);
    if (!existsSync(file)) throw new Error(`console asset ${name} not found in ${assetsDir()} (npm start builds it; set CONSOLE_ASSETS_DIR)`);
    cache.set(name, (text = readFileSync(file, 'utf8')));
  }
  return text;
}

let openApi: Json | undefined;
/**
 * GET /console/api/openapi.json: the document built with the function (without `servers`), read once per
 * container; `servers` is the caller's base URL, after `info` where the builder puts it, so the answer is
 * byte for byte the builder's (test/console/openapi-file.test.ts). Built ahead rather than here, so the
 * function carries neither the builder nor zod's JSON Schema generator (issue 35: ~60 KB of its bundle).
 */
export function consoleOpenApi(serverUrl?: string): Json {
  openApi ??= JSON.parse(readAsset(CONSOLE_ASSETS.openapi)) as Json;
  const { openapi, info, ...rest } = openApi;
  return { openapi, info, ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}), ...rest };
}

/**
 * The page's headers. `connect-src` allows the API and exactly the origins the sign-in calls: the issuer's
 * (discovery, JWKS) and, where the provider serves its endpoints elsewhere, that origin (Cognito: the user
 * pool's domain, `<prefix>.auth.<region>.amazoncognito.com`, serves authorize, token and logout; the issuer
 * is `cognito-idp.<region>.amazonaws.com`).
 */
export function pageHeaders(issuer: string, authOrigin?: string): Record<string, string> {
  const idp = [...new Set([new URL(issuer).origin, ...(authOrigin ? [new URL(authOrigin).origin] : [])])].join(' ');
  return {
    'Content-Security-Policy': [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      `connect-src 'self' ${idp}`,
      "base-uri 'none'",
      "form-action 'none'",
      "object-src 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    // The authorization code comes back in the page's URL: never send it to another site.
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  };
}
export const ASSET_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' } as const;

export function consolePage(): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${CONSOLE_TITLE}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="console/${CONSOLE_ASSETS.style}">
</head>
<body>
<header class="top"><h1>${CONSOLE_TITLE}</h1><div id="who"></div></header>
<main id="app"><p>Loading…</p></main>
<script type="module" src="console/${CONSOLE_ASSETS.script}"></script>
</body>
</html>
`;
}
