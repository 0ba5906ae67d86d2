import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { REDOC_CDN_LOGO } from '../../shared/api/reference-page';
import { apiClient, makeKey, newWorkspace, useTestTable } from '../support/harness';

/**
 * GET /v1/docs and its script over the gateway: public, the right types and headers, nothing from a CDN.
 * test/browser/reference-page.test.ts opens the page in a real browser.
 */
useTestTable();
const api = apiClient();

test('the page: public HTML that loads its script and the document from the API, with a CSP allowing nothing else', async () => {
  const res = await api.get('/v1/docs');
  expect(res.status).toBe(200);
  expect(res.headers['Content-Type']).toBe('text/html; charset=utf-8');
  expect(res.text).toContain('<redoc spec-url="openapi.json"');
  expect(res.text).toMatch(/<script src="docs\/redoc\.standalone\.js\?v=[0-9a-f]{12}"><\/script>/);
  expect(res.headers['Cache-Control']).toBe('public, max-age=300');
  expect(res.text).not.toMatch(/https?:\/\//);
  const csp = res.headers['Content-Security-Policy']!;
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("connect-src 'self'");
  expect(res.headers['Access-Control-Allow-Origin']).toBe('*');
});

test("the script: Redoc's standalone bundle from the package, its one CDN image pointed at an empty data: URL; immutable at its versioned URL", async () => {
  const page = await api.get('/v1/docs');
  const versioned = /src="docs\/(redoc\.standalone\.js)\?v=([0-9a-f]{12})"/.exec(page.text)!;
  const res = await api.get(`/v1/docs/${versioned[1]}`, { query: { v: versioned[2] } });
  expect(res.status).toBe(200);
  expect(res.headers['Content-Type']).toBe('text/javascript; charset=utf-8');
  expect(res.headers['Cache-Control']).toBe('public, max-age=31536000, immutable');
  const original = readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8');
  expect(original).toContain(REDOC_CDN_LOGO);
  expect(res.text).not.toContain(REDOC_CDN_LOGO);
  expect(res.text).toBe(original.split(REDOC_CDN_LOGO).join('data:,'));
  // the version is a hash of what is served; without it (or with another) the cache time is short
  expect(versioned[2]).toBe(createHash('sha256').update(res.text).digest('hex').slice(0, 12));
  expect((await api.get(`/v1/docs/${versioned[1]}`)).headers['Cache-Control']).toBe('public, max-age=300');
  expect((await api.get(`/v1/docs/${versioned[1]}`, { query: { v: 'old' } })).headers['Cache-Control']).toBe('public, max-age=300');
});

test('the page at /v1/docs/ and with unknown query parameters (utm_source=...): the same page, its relative URLs still right', async () => {
  const plain = await api.get('/v1/docs');
  const tracked = await api.get('/v1/docs', { query: { utm_source: 'x', theme: 'dark' } });
  expect([tracked.status, tracked.text]).toEqual([200, plain.text]);
  const slash = await api.get('/v1/docs/');
  expect(slash.status).toBe(200);
  expect(slash.text).toContain('<redoc spec-url="../openapi.json"');
  expect(slash.text).toMatch(/<script src="\.\.\/docs\/redoc\.standalone\.js\?v=[0-9a-f]{12}">/);
  // a trailing slash is the page's only: elsewhere it is still an unknown path
  expect((await api.get('/v1/openapi.json/')).status).toBe(404);
});

test('the page shows the reference before any script runs: the introduction and every operation, grouped by resource', async () => {
  const page = await api.get('/v1/docs');
  const doc = (await api.get('/v1/openapi.json')).body as { paths: Record<string, Record<string, { summary: string }>>; tags: Array<{ name: string }> };
  const overview = page.text.slice(page.text.indexOf('<redoc'), page.text.indexOf('</redoc>'));
  for (const heading of ['Getting started', 'Errors', 'Paging', 'Rate limits', 'Safe retries', 'ETag', 'Changes and webhooks'])
    expect([heading, overview.includes(heading)]).toEqual([heading, true]);
  for (const tag of doc.tags) expect(overview).toContain(`<h2>${tag.name}</h2>`);
  for (const [path, ops] of Object.entries(doc.paths)) for (const method of Object.keys(ops)) expect(overview).toContain(`<code>${method.toUpperCase()} ${path}</code>`);
});

test('a key is neither needed nor refused; other methods are 501 after authentication; the script refuses unknown query parameters', async () => {
  const key = await makeKey(newWorkspace('docs'));
  expect((await api.get('/v1/docs', { key })).status).toBe(200);
  expect((await api.post('/v1/docs', {}, { key })).status).toBe(501);
  expect((await api.post('/v1/docs', {})).status).toBe(401);
  const bad = await api.get('/v1/docs/redoc.standalone.js', { query: { theme: 'dark' } });
  expect(bad.status).toBe(400);
  expect(bad.body.error.details).toEqual([{ field: 'theme', message: 'unknown field(s): theme' }]);
});
