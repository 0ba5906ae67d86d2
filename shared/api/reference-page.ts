import { DOCS_SCRIPT } from './routes';

/**
 * GET /v1/docs: the API reference, rendered in the browser by Redoc (a maintained OpenAPI renderer) from
 * the document the API serves. Everything comes from the API itself: the page, the renderer's script
 * (GET /v1/docs/redoc.standalone.js) and the document (GET /v1/openapi.json), by relative URLs, so the
 * page works under any stage prefix. The Content-Security-Policy allows nothing from elsewhere: a
 * renderer that reached for a CDN or a font service would be refused (and the browser test would see it).
 */
export const REFERENCE_PAGE_TITLE = 'Workspace Time-Tracking API reference';

export const REFERENCE_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': [
    "default-src 'none'",
    "script-src 'self'",
    // Redoc styles with styled-components (style elements it writes at run time)
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    // Redoc's search index runs in a Web Worker made from a blob
    'worker-src blob:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'public, max-age=300',
};

/** The OpenAPI document (public): browsers and proxies may keep it 5 minutes, so anonymous readers cost less of the public routes' throttle. */
export const OPENAPI_HEADERS: Readonly<Record<string, string>> = { 'Cache-Control': 'public, max-age=300' };

export const REFERENCE_SCRIPT_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'public, max-age=86400',
};

/**
 * Redoc's sidebar shows Redocly's logo from Redocly's CDN (https://cdn.redoc.ly/redoc/logo-mini.svg), the
 * one thing its bundle loads from elsewhere. The script served here points that image at an empty data:
 * URL instead: the image fails and Redoc hides it (its onError), the "API docs by Redocly" link stays.
 */
export const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
export const selfContainedScript = (redocBundle: string): string => redocBundle.split(REDOC_CDN_LOGO).join('data:,');

export function referencePage(): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${REFERENCE_PAGE_TITLE}</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<redoc spec-url="openapi.json" hide-download-button="false" required-props-first="true" sort-props-alphabetically="false"></redoc>
<script src="docs/${DOCS_SCRIPT}"></script>
</body>
</html>
`;
}
