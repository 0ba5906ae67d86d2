// @run-alone: npm start, chromium and a waited-out authorizer cache (run after the parallel files, one at a time)
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort } from '../../local/dynamodb';
import { admin, startApi, type RunningApi } from '../local/npm-start';

/**
 * The console's whole flow in a real browser (Debian's chromium, playwright-core) against `npm start`
 * (its embedded OpenID Provider, DynamoDB Local, the console page bundled by esbuild): sign in as the demo
 * owner through the provider's own form, create a key, use it, reload, roll, revoke (with a 3-second
 * authorizer cache: AUTH_CACHE_TTL_SECONDS), read the usage chart, and see that a viewer gets no write
 * controls. Every control is found by the accessible name the issue gives it.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CACHE_SECONDS = 3;
jest.setTimeout(240_000);

let api: RunningApi;
let browser: Browser;
let base: string;
let dynamo: string;
let dataDir: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`No browser at ${CHROMIUM}: install Debian's chromium or set CHROMIUM_PATH`);
  dataDir = mkdtempSync(join(tmpdir(), 'console-'));
  const port = await freePort();
  const dynamoPort = await freePort();
  api = startApi({ PORT: String(port), DYNAMODB_PORT: String(dynamoPort), DATA_DIR: dataDir, AUTH_CACHE_TTL_SECONDS: String(CACHE_SECONDS) });
  await api.ready;
  base = `http://127.0.0.1:${port}`;
  dynamo = `http://127.0.0.1:${dynamoPort}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  api?.child.kill('SIGINT');
  await api?.exited;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const printed = (pattern: RegExp) => {
  const m = pattern.exec(api.output());
  if (!m?.[1]) throw new Error(`npm start did not print ${pattern}:\n${api.output()}`);
  return m[1];
};

function watch(page: Page) {
  const problems: string[] = [];
  const foreign: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()} (${m.location().url})`);
  });
  page.on('response', (r) => {
    if (r.status() === 404) problems.push(`404 at ${r.url()}`);
  });
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.hostname !== '127.0.0.1' && u.protocol !== 'data:') foreign.push(r.url());
  });
  return { problems, foreign };
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${base}/console`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'API Keys' }).waitFor();
}

const v1 = (path: string, key: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, { ...init, headers: { 'X-API-Key': key, 'Content-Type': 'application/json', ...(init.headers ?? {}) } });

test('the whole flow: sign in, create, use, reload, roll, revoke, usage; a viewer sees no write controls', async () => {
  const ownerEmail = printed(/Email: +(\S+)/);
  const ownerPassword = printed(/Password: +(\S+)/);
  const page = await browser.newPage();
  const { problems, foreign } = watch(page);

  // The page's own headers: strict CSP, no framing.
  const res = await page.goto(`${base}/console`);
  const csp = res!.headers()['content-security-policy']!;
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).toContain("frame-ancestors 'none'");

  await signIn(page, ownerEmail, ownerPassword);
  await page.getByText('reach the gateway within the authorizer cache time').waitFor();

  // Create a key with clients:read and time-entries:write.
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByLabel('Name').fill('Browser key');
  await page.getByLabel('clients:read', { exact: true }).check();
  await page.getByLabel('time-entries:write', { exact: true }).check();
  expect(await page.getByLabel('Per minute', { exact: true }).inputValue()).toBe('60');
  expect(await page.getByLabel('Per hour', { exact: true }).inputValue()).toBe('1000');
  await page.getByLabel('Expires', { exact: true }).selectOption('30');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  const newKey = page.getByRole('region', { name: 'New key' });
  await newKey.waitFor();
  const secret = (await newKey.locator('code').innerText()).trim();
  expect(secret).toMatch(/^svc_live_[0-9A-Za-z]{40}$/);
  await expect(page.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(true);
  const row = page.locator('tr[data-key-id]', { hasText: 'Browser key' });
  expect(await row.innerText()).toContain(secret.slice(0, 13));

  // The key works as its scopes say.
  expect((await v1('/v1/clients', secret)).status).toBe(200);
  const post = await v1('/v1/clients', secret, { method: 'POST', body: JSON.stringify({ name: 'Nope' }) });
  expect(post.status).toBe(403);
  expect(((await post.json()) as { error: { details: Array<{ reason: string }> } }).error.details[0]!.reason).toBe('MISSING_SCOPE');

  // After a reload: no secret anywhere, last used set.
  await page.reload();
  if (await page.getByRole('button', { name: 'Sign in' }).isVisible()) await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'API Keys' }).waitFor();
  await page.locator('tr[data-key-id]', { hasText: 'Browser key' }).waitFor();
  expect(await page.content()).not.toContain(secret);
  const cells = await page.locator('tr[data-key-id]', { hasText: 'Browser key' }).locator('td').allInnerTexts();
  expect(cells[6]).not.toBe('—'); // Last used

  // Roll with 1 hour of grace: both keys work, the old one shows its new expiry.
  await page.getByRole('button', { name: 'Roll Browser key' }).first().click();
  await page.getByLabel('Old key keeps working').selectOption('3600');
  await page.getByRole('button', { name: 'Roll key' }).click();
  await page.getByRole('region', { name: 'New key' }).waitFor();
  const rolled = (await page.getByRole('region', { name: 'New key' }).locator('code').innerText()).trim();
  expect(rolled).not.toBe(secret);
  expect((await v1('/v1/clients', rolled)).status).toBe(200);
  expect((await v1('/v1/clients', secret)).status).toBe(200);
  const keys = (await (await fetch(`${base}/console/config.json`)).json()) as { authorizerCacheSeconds: number };
  expect(keys.authorizerCacheSeconds).toBe(CACHE_SECONDS);
  const rows = page.locator('tr[data-key-id]', { hasText: 'Browser key' });
  await expect(rows.count()).resolves.toBe(2);
  const oldRow = rows.filter({ hasText: secret.slice(0, 13) });
  const expiresText = (await oldRow.locator('td').nth(5).innerText()).trim();
  const inAnHour = new Date(Date.now() + 3600_000);
  expect(expiresText).toContain('(expires within 7 days)');
  expect(expiresText).toContain(String(inAnHour.getFullYear()));

  // Revoke the new key (with a confirmation): 401 once the cache time has passed.
  const newRow = rows.filter({ hasText: rolled.slice(0, 13) });
  await newRow.getByRole('button', { name: 'Revoke Browser key' }).click();
  await page.getByRole('button', { name: 'Confirm revoke' }).click();
  await page.locator('td.status-revoked').first().waitFor();
  await new Promise((r) => setTimeout(r, (CACHE_SECONDS + 1) * 1000));
  expect((await v1('/v1/clients', rolled)).status).toBe(401);

  // Usage counts the requests made: secret 3 (200, 403, 200 after roll) + the reload's none.
  await page.getByLabel('Key', { exact: true }).selectOption({ label: `Browser key (${secret.slice(0, 13)})` });
  await page.getByText(/Last 7 days: 3 requests, 0 rate-limited/).waitFor();
  expect(await page.locator('svg.chart rect').count()).toBeGreaterThan(0);

  await page.screenshot({ path: join(dataDir, 'owner.png'), fullPage: true });
  if (process.env.CONSOLE_SCREENSHOT) await page.screenshot({ path: process.env.CONSOLE_SCREENSHOT, fullPage: true });

  // Sign out ends the provider's session: the next sign-in asks for the password again.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: /Yes, sign me out/ }).click();
  await page.goto(`${base}/console`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Password').waitFor();

  // A viewer: the keys, no write control, no Members, no Audit log.
  const viewer = await admin(dynamo, 'members', 'add', '--workspace', 'demo', '--email', 'viewer@demo.example', '--role', 'viewer', '--json');
  expect(viewer.code).toBe(0);
  const { password } = JSON.parse(viewer.stdout) as { password: string };
  const context = await browser.newContext();
  const vpage = await context.newPage();
  await signIn(vpage, 'viewer@demo.example', password);
  await vpage.locator('tr[data-key-id]', { hasText: 'Browser key' }).first().waitFor();
  for (const name of ['Create key', 'Edit', 'Roll', 'Revoke']) expect(await vpage.getByRole('button', { name }).count()).toBe(0);
  expect(await vpage.getByRole('heading', { name: 'Members' }).count()).toBe(0);
  expect(await vpage.getByRole('heading', { name: 'Audit log' }).count()).toBe(0);
  await context.close();

  expect(foreign).toEqual([]);
  expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
});

test("invoices: make one from the demo's billable time (preview, create), send it: a /v1 PUT on its entry is 409 naming its number; void it: the same PUT succeeds", async () => {
  const ownerEmail = printed(/Email: +(\S+)/);
  const ownerPassword = printed(/Password: +(\S+)/);
  const demoKey = printed(/Demo API key[^\n]*\n\n\s+(svc_live_\S+)/);
  // A billable, stopped entry the seed left uninvoiced (the seed invoiced the oldest week): its client and day.
  const open = (await (await v1('/v1/time-entries?invoiced=false&billable=true&limit=200', demoKey)).json()) as {
    items: Array<{ id: string; sortKey: string; clientId?: string; startTime: string; endTime?: string }>;
  };
  const entry = open.items.find((e) => e.clientId && e.endTime)!;
  expect(entry).toBeDefined();
  const day = entry.startTime.slice(0, 10);
  const entryPath = `/v1/time-entries/${entry.id}?sortKey=${encodeURIComponent(entry.sortKey)}`;

  const page = await browser.newPage();
  const { problems, foreign } = watch(page);
  await signIn(page, ownerEmail, ownerPassword);
  await page.getByRole('heading', { name: 'Invoices' }).waitFor();
  await page.getByRole('table', { name: 'Invoices' }).waitFor(); // the seed's invoices
  await page.getByRole('button', { name: 'New invoice' }).click();
  await page.getByLabel('Client', { exact: true }).selectOption(entry.clientId!);
  await page.getByLabel('Period start', { exact: true }).fill(day);
  await page.getByLabel('Period end', { exact: true }).fill(day);
  await page.getByLabel('Group lines by', { exact: true }).selectOption('entry');
  await page.getByLabel('Tax rate (%)', { exact: true }).fill('19');
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  const preview = page.getByRole('table', { name: 'Preview lines' });
  await preview.waitFor();
  expect(await preview.locator('tbody tr').count()).toBeGreaterThanOrEqual(4); // a line per entry + subtotal, tax, total
  expect(await preview.locator('tbody tr.tax td').first().innerText()).toBe('Tax (19 %)'); // the tax row names its rate
  await page.getByRole('button', { name: 'Create invoice' }).click();
  const detail = page.getByRole('region', { name: /^Invoice INV-\d{6}$/ });
  await detail.waitFor();
  const number = (await detail.getByRole('heading').first().innerText()).replace('Invoice ', '').trim();
  expect(await detail.locator(`tr[data-entry-id="${entry.id}"]`).count()).toBe(1);
  expect(await page.getByTestId('invoice-status').innerText()).toBe('draft');
  expect(await detail.getByRole('table', { name: 'Invoice lines' }).locator('tbody tr.tax td').first().innerText()).toBe('Tax (19 %)');
  // The detail's entries table has its heading, and the invoice list below it its own, with a visible gap between them.
  const entriesHeading = detail.getByRole('heading', { name: /^Time entries \(\d+\)$/ });
  expect(await entriesHeading.count()).toBe(1);
  const entriesTable = await detail.getByRole('table', { name: 'Invoice time entries' }).boundingBox();
  const listHeading = await page.getByRole('heading', { name: 'Invoice list', exact: true }).boundingBox();
  const listTable = await page.getByRole('table', { name: 'Invoices', exact: true }).boundingBox();
  expect((await entriesHeading.boundingBox())!.y).toBeLessThan(entriesTable!.y);
  expect(listHeading!.y - (entriesTable!.y + entriesTable!.height)).toBeGreaterThanOrEqual(16);
  expect(listHeading!.y + listHeading!.height).toBeLessThanOrEqual(listTable!.y);

  await page.getByRole('button', { name: 'Send invoice' }).click();
  await page.locator('[data-testid="invoice-status"]', { hasText: 'sent' }).waitFor();
  const refused = await v1(entryPath, demoKey, { method: 'PUT', body: JSON.stringify({ notes: 'edited after sending' }) });
  expect(refused.status).toBe(409);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(`on invoice ${number} (sent)`);
  expect(await page.getByRole('button', { name: 'Mark paid' }).count()).toBe(1);
  expect(await page.getByRole('button', { name: 'Delete invoice' }).count()).toBe(0); // a sent invoice is voided, not deleted

  await page.getByRole('button', { name: 'Void invoice' }).click();
  await page.locator('[data-testid="invoice-status"]', { hasText: 'void' }).waitFor();
  const accepted = await v1(entryPath, demoKey, { method: 'PUT', body: JSON.stringify({ notes: 'edited after voiding' }) });
  expect(accepted.status).toBe(200);
  expect(((await accepted.json()) as { notes: string; invoiceId?: string }).invoiceId).toBeUndefined();
  await page.locator('tr[data-invoice-id]', { hasText: number }).locator('td.status-void').waitFor();

  expect(foreign).toEqual([]);
  expect(problems).toEqual([]);
  await page.close();
});
