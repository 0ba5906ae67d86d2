import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { createLocalServer } from '../../local/server';
import { useTestTable } from '../support/harness';
import { launchChromium, until } from './support';

/**
 * GET /v1/docs in a real browser: Debian's chromium driven by playwright-core (no browser download;
 * .ci/run installs chromium with apt when it is missing; CHROMIUM_PATH overrides the executable). The page
 * is served by the local server exactly as `npm start` serves it; it must load with no console error and
 * no failed request, fetch nothing from another origin (its Content-Security-Policy forbids it anyway),
 * and show every operation of the document it renders.
 */
useTestTable();
/** The little of the DOM the page functions below use (they run in the browser; this program has no DOM types). */
declare const document: { getElementById(id: string): unknown; querySelectorAll(selector: string): Iterable<{ id: string }>; body: { innerText: string } };

let server: Server;
let base: string;
let browser: Browser;

beforeAll(async () => {
  server = createLocalServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** Everything the page reports while it is used: console errors, uncaught exceptions, failed and foreign requests. */
function watch(page: Page) {
  const problems: string[] = [];
  const requested: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  page.on('request', (r) => requested.push(r.url()));
  return { problems, requested };
}

test('the reference page loads with no console error, from the API alone, and shows every operation of the document', async () => {
  const doc = (await (await fetch(`${base}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string; summary: string }>> };
  const operations = Object.values(doc.paths).flatMap((ops) => Object.values(ops));
  expect(operations.length).toBeGreaterThan(30);

  const page = await browser.newPage();
  const { problems, requested } = watch(page);
  const res = await page.goto(`${base}/v1/docs`);
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-type']).toBe('text/html; charset=utf-8');
  // Redoc gives each operation a section with the id operation/<operationId>: wait until all are there.
  await until(page, `${JSON.stringify(operations.map((o) => `operation/${o.operationId}`))}.every((id) => document.getElementById(id) !== null)`, 60_000);

  const shown = await page.evaluate(() => ({
    ids: [...document.querySelectorAll('[id^="operation/"]')].map((e) => e.id.slice('operation/'.length)),
    text: document.body.innerText,
  }));
  expect(new Set(shown.ids)).toEqual(new Set(operations.map((o) => o.operationId)));
  for (const op of operations) expect([op.operationId, shown.text.includes(op.summary)]).toEqual([op.operationId, true]);
  expect(await page.title()).toBe('Workspace Time-Tracking API reference');

  expect(problems).toEqual([]);
  const origins = new Set(requested.map((u) => (u.startsWith('blob:') ? new URL(u.slice(5)).origin : new URL(u).origin)));
  expect([...origins]).toEqual([base]);
  expect(requested.filter((u) => !u.startsWith('blob:')).map((u) => new URL(u).pathname)).toEqual(['/v1/docs', '/v1/docs/redoc.standalone.js', '/v1/openapi.json']);
  // the sidebar groups the resources (x-tagGroups), the introduction comes first
  for (const group of ['Tracking', 'Catalog', 'Integrations']) expect([group, shown.text.toLowerCase().includes(group.toLowerCase())]).toEqual([group, true]);
  expect(shown.text.indexOf('Getting started')).toBeLessThan(shown.text.indexOf(operations[0]!.summary));
  await page.close();
}, 120_000);

test('the first paint is the reference, not a spinner: before any script runs (JavaScript off) the page shows the introduction and the operations by resource', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  for (const path of ['/v1/docs', '/v1/docs/', '/v1/docs?utm_source=x']) {
    const res = await page.goto(`${base}${path}`);
    expect([path, res?.status()]).toEqual([path, 200]);
    const text = await page.evaluate(() => document.body.innerText);
    for (const part of ['Workspace Time-Tracking API', 'Getting started', 'Errors', 'Paging', 'Rate limits', 'time-entries', 'GET /v1/time-entries.csv', 'POST /v1/clients']) {
      expect([path, part, text.includes(part)]).toEqual([path, part, true]);
    }
  }
  await page.goto(`${base}/v1/docs`);
  const shot = await page.screenshot({ path: process.env.REFERENCE_SCREENSHOT ?? join(tmpdir(), 'reference-first-paint.png') });
  expect(shot.length).toBeGreaterThan(10_000); // a page of text, not a blank or a spinner
  await context.close();
}, 60_000);

test('the watcher sees problems: a page that is not there is a 404 and a console error', async () => {
  const page = await browser.newPage();
  const { problems } = watch(page);
  const res = await page.goto(`${base}/v1/docs/missing.js`);
  expect(res?.status()).toBe(404);
  await page.close();
  expect(problems).toEqual(expect.arrayContaining([`HTTP 404: ${base}/v1/docs/missing.js`, expect.stringMatching(/^console error: Failed to load resource: .*404/)]));
}, 60_000);
