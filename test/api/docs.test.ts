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
  expect(res.text).toContain('<script src="docs/redoc.standalone.js"></script>');
  expect(res.text).not.toMatch(/https?:\/\//);
  const csp = res.headers['Content-Security-Policy']!;
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("connect-src 'self'");
  expect(res.headers['Access-Control-Allow-Origin']).toBe('*');
});

test("the script: Redoc's standalone bundle from the package, its one CDN image pointed at an empty data: URL", async () => {
  const res = await api.get('/v1/docs/redoc.standalone.js');
  expect(res.status).toBe(200);
  expect(res.headers['Content-Type']).toBe('text/javascript; charset=utf-8');
  expect(res.headers['Cache-Control']).toBe('public, max-age=86400');
  const original = readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8');
  expect(original).toContain(REDOC_CDN_LOGO);
  expect(res.text).not.toContain(REDOC_CDN_LOGO);
  expect(res.text).toBe(original.split(REDOC_CDN_LOGO).join('data:,'));
});

test('a key is neither needed nor refused; other methods are 501 after authentication; unknown query parameters are a 400', async () => {
  const key = await makeKey(newWorkspace('docs'));
  expect((await api.get('/v1/docs', { key })).status).toBe(200);
  expect((await api.post('/v1/docs', {}, { key })).status).toBe(501);
  expect((await api.post('/v1/docs', {})).status).toBe(401);
  const bad = await api.get('/v1/docs', { query: { theme: 'dark' } });
  expect(bad.status).toBe(400);
  expect(bad.body.error.details).toEqual([{ field: 'theme', message: 'unknown query parameter' }]);
});
