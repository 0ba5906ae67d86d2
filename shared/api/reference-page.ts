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

/** The script at its versioned URL (`?v=<hash of its content>`) never changes: cached a year. */
export const REFERENCE_SCRIPT_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'public, max-age=31536000, immutable',
};
/** The script asked for without the current version (an old page, a hand-typed URL): as short as the page. */
export const REFERENCE_SCRIPT_UNVERSIONED_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'public, max-age=300',
};

/**
 * Redoc's sidebar shows Redocly's logo from Redocly's CDN (https://cdn.redoc.ly/redoc/logo-mini.svg), the
 * one thing its bundle loads from elsewhere. The script served here points that image at an empty data:
 * URL instead: the image fails and Redoc hides it (its onError), the "API docs by Redocly" link stays.
 */
export const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
export const selfContainedScript = (redocBundle: string): string => redocBundle.split(REDOC_CDN_LOGO).join('data:,');

const escape = (v: unknown) =>
  String(v ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** The little of the OpenAPI document the static overview shows. */
export interface OverviewDocument {
  info: { title: string; description?: string };
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, { summary?: string; tags?: string[] }>>;
}

/**
 * What the page shows before any script runs (and what a browser without JavaScript keeps): the
 * introduction and every operation grouped by resource, as plain HTML from the same document. Redoc
 * replaces it when it has rendered; the first paint is the reference, not a spinner.
 */
export function staticOverview(doc: OverviewDocument): string {
  const paragraphs = (doc.info.description ?? '')
    .split(/\n\n+/)
    .map((block) => {
      const heading = /^#+\s+(.*)$/.exec(block.trim());
      if (heading) return `<h2>${escape(heading[1])}</h2>`;
      return `<p>${escape(block)
        .replace(/`([^`]+)`/g, '<code>$1</code>')
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')}</p>`;
    })
    .join('\n');
  const byTag = new Map<string, string[]>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = op.tags?.[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), `<li><code>${method.toUpperCase()} ${escape(path)}</code> ${escape(op.summary)}</li>`]);
    }
  }
  const sections = (doc.tags ?? [...byTag.keys()].map((name) => ({ name, description: '' })))
    .filter((t) => byTag.has(t.name))
    .map((t) => `<section><h2>${escape(t.name)}</h2>${t.description ? `<p>${escape(t.description)}</p>` : ''}<ul>${byTag.get(t.name)!.join('')}</ul></section>`)
    .join('\n');
  return `<div class="overview"><h1>${escape(doc.info.title)}</h1>\n${paragraphs}\n${sections}</div>`;
}

/**
 * The page: the static overview inside Redoc's element (Redoc replaces it), the document by a relative
 * URL and the script at its versioned URL. At /v1/docs/ (a trailing slash) the relative URLs go one up.
 */
export function referencePage(opts: { doc: OverviewDocument; scriptVersion: string; trailingSlash?: boolean }): string {
  const up = opts.trailingSlash ? '../' : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${REFERENCE_PAGE_TITLE}</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; padding: 0; } .overview { max-width: 960px; margin: 0 auto; padding: 24px; font: 15px/1.5 system-ui, sans-serif; color: #222; } .overview code { background: #f3f3f3; padding: 0 3px; } .overview li { margin: 2px 0; }</style>
</head>
<body>
<redoc spec-url="${up}openapi.json" hide-download-button="false" required-props-first="true" sort-props-alphabetically="false">${staticOverview(opts.doc)}</redoc>
<script src="${up}docs/${DOCS_SCRIPT}?v=${escape(opts.scriptVersion)}"></script>
</body>
</html>
`;
}
