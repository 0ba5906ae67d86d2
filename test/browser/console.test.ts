// Shares the machine with the other test files (no run-alone mark): its two npm starts (each its own DynamoDB
// Local, free ports, a DATA_DIR of its own) and chromium are its own, its waits are lower bounds (the authorizer
// cache time, a rate-limit minute waited out) or bounded polls of 60 s, so a loaded run is slower, not red. It
// ran in the parallel group once before and failed there (the Usage section's "Last 7 days: 3 requests" never
// showed): the section kept the answer of the key it showed first when it came after the chosen key's, a race
// of the page that load exposes (console/sections/usage.tsx now drops an answer for a key no longer chosen).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { admin } from '../local/npm-start';
import { audit as auditAt, patientPages, reloadSignedIn, signIn as signInAt, startConsole, startSeededApi, until, v1 as v1At, type ConsoleRun } from './support';

/**
 * The console's whole flow in a real browser (Debian's chromium, playwright-core) against `npm start`
 * (its embedded OpenID Provider, DynamoDB Local, the console page bundled by esbuild): sign in as the demo
 * owner through the provider's own form, create a key, use it, reload, roll, revoke (with a 3-second
 * authorizer cache: AUTH_CACHE_TTL_SECONDS), read the usage chart, and see that a viewer gets no write
 * controls. Every control is found by the accessible name the issue gives it.
 */
const CACHE_SECONDS = 3;
jest.setTimeout(300_000);

let browser: Browser;
const { newContext, newPage } = patientPages(() => browser);
let base: string;
let dynamo: string;
let dataDir: string;
let printed: ConsoleRun['printed'];
let stop: ConsoleRun['stop'];

beforeAll(async () => {
  ({ browser, base, dynamo, dataDir, printed, stop } = await startConsole('console', { AUTH_CACHE_TTL_SECONDS: String(CACHE_SECONDS) }));
}, 300_000);
afterAll(() => stop?.());

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

const signIn = (page: Page, email: string, password: string) => signInAt(page, base, email, password);
const v1 = (path: string, key: string, init: RequestInit = {}) => v1At(base, path, key, init);

test('the whole flow: sign in, create, use, reload, roll, revoke, usage; a viewer sees no write controls', async () => {
  const ownerEmail = printed(/Email: +(\S+)/);
  const ownerPassword = printed(/Password: +(\S+)/);
  const page = await newPage();
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
  await page.getByLabel('clients: Read', { exact: true }).check();
  await page.getByLabel('time-entries: Read and write', { exact: true }).check();
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
  await reloadSignedIn(page, page.getByRole('heading', { name: 'API Keys' }));
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
  // Each row names the other's prefix ("replaced by …", "replaces …"): the old one is the one replaced by the new.
  const oldRow = rows.filter({ hasText: `replaced by ${rolled.slice(0, 13)}` });
  const expiresText = (await oldRow.locator('td').nth(5).innerText()).trim();
  const inAnHour = new Date(Date.now() + 3600_000);
  expect(expiresText).toContain('(expires within 7 days)');
  expect(expiresText).toContain(String(inAnHour.getFullYear()));

  // Revoke the new key (with a confirmation): 401 once the cache time has passed.
  const newRow = rows.filter({ hasText: `replaces ${secret.slice(0, 13)}` });
  await newRow.getByRole('button', { name: 'Revoke new key Browser key' }).click();
  await page.getByRole('button', { name: 'Confirm revoke' }).click();
  await page.locator('td.status-revoked').first().waitFor();
  await new Promise((r) => setTimeout(r, (CACHE_SECONDS + 1) * 1000));
  expect((await v1('/v1/clients', rolled)).status).toBe(401);

  // Usage counts the requests made: secret 3 (200, 403, 200 after roll) + the reload's none.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Usage' }).click();
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
  const context = await newContext();
  const vpage = await context.newPage();
  await signIn(vpage, 'viewer@demo.example', password);
  await vpage.locator('tr[data-key-id]', { hasText: 'Browser key' }).first().waitFor();
  for (const name of ['Create key', 'Edit', 'Roll', 'Revoke']) expect(await vpage.getByRole('button', { name }).count()).toBe(0);
  expect(await vpage.getByRole('heading', { name: 'Members' }).count()).toBe(0);
  expect(await vpage.getByRole('heading', { name: 'Audit log' }).count()).toBe(0);
  for (const name of ['Members', 'Audit log']) expect(await vpage.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name }).count()).toBe(0);
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

  const page = await newPage();
  const { problems, foreign } = watch(page);
  await signIn(page, ownerEmail, ownerPassword);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Invoices' }).click();
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
  // a draft has no number until it is sent (issue 32)
  const draft = page.getByRole('region', { name: 'Invoice Draft' });
  await draft.waitFor();
  expect(await draft.getByRole('heading').first().innerText()).toBe('Draft invoice (numbered when sent)');
  const detail = page.getByRole('region', { name: /^Invoice (Draft|INV-\d{6})$/ });
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

  await page.getByRole('button', { name: 'Finalize and mark sent' }).click();
  await page.locator('[data-testid="invoice-status"]', { hasText: 'sent' }).waitFor();
  const number = (await detail.getByRole('heading').first().innerText()).replace('Invoice ', '').trim();
  expect(number).toMatch(/^INV-\d{6}$/);
  const refused = await v1(entryPath, demoKey, { method: 'PUT', body: JSON.stringify({ notes: 'edited after sending' }) });
  expect(refused.status).toBe(409);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(`on invoice ${number} (sent)`);
  // "Mark paid" is a payment form: the day (today), the amount (what is due), a reference
  const pay = page.getByRole('form', { name: 'Record payment' });
  expect(await pay.getByLabel('Paid on').inputValue()).toBe(new Date().toISOString().slice(0, 10));
  expect(Number(await pay.getByLabel(/^Amount/).inputValue())).toBeGreaterThan(0);
  expect(await pay.getByRole('button', { name: 'Record payment' }).count()).toBe(1);
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

// ---------------------------------------------------------------- issue 36: the page people live in

/** Counts the page's requests to the console API (not the page, its assets, config.json or the provider). */
function apiRequests(page: Page) {
  const seen: Array<{ method: string; path: string; headers: Record<string, string>; body: string | null }> = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/console/api/')) seen.push({ method: r.method(), path: u.pathname, headers: r.headers(), body: r.postData() });
  });
  return seen;
}
const settle = (page: Page) => page.waitForLoadState('networkidle').then(() => page.waitForTimeout(300));
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();

async function createKey(page: Page, name: string, expires: string) {
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create key' });
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('clients: Read', { exact: true }).check();
  await dialog.getByLabel('Expires', { exact: true }).selectOption(expires);
  return dialog;
}

test('an edit sends only what changed: renaming a key that expires in 90 days keeps its expiry to the second', async () => {
  const page = await newPage();
  const { problems } = watch(page);
  const seen = apiRequests(page);
  await signIn(page, printed(/Email: +(\S+)/), printed(/Password: +(\S+)/));
  const dialog = await createKey(page, 'Ninety days', '90');
  const created = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api-keys'));
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  const made = (await (await created).json()) as { apiKey: { id: string; expiresAt: string } };
  expect(Date.parse(made.apiKey.expiresAt) - Date.now()).toBeGreaterThan(89 * 86_400_000);

  await page.getByRole('button', { name: /^Edit Ninety days/ }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Ninety days' });
  // The form starts from the key's values: its name, scopes, limits and expiry.
  expect(await edit.getByLabel('Name', { exact: true }).inputValue()).toBe('Ninety days');
  expect(await edit.getByLabel('clients: Read', { exact: true }).isChecked()).toBe(true);
  expect(await edit.getByLabel('Expires', { exact: true }).locator('option:checked').innerText()).toMatch(/^Unchanged: /);
  await edit.getByLabel('Name', { exact: true }).fill('Ninety days renamed');
  const patched = page.waitForResponse((r) => r.request().method() === 'PATCH');
  await edit.getByRole('button', { name: 'Save', exact: true }).click();
  const after = (await (await patched).json()) as { name: string; expiresAt: string };
  expect(JSON.parse(seen.find((r) => r.method === 'PATCH')!.body!)).toEqual({ name: 'Ninety days renamed' });
  expect(after.name).toBe('Ninety days renamed');
  expect(after.expiresAt).toBe(made.apiKey.expiresAt);
  // Escape-able dialog gone, the row shows the new name and focus is on it.
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await page.locator(`tr[data-key-id="${made.apiKey.id}"]`, { hasText: 'Ninety days renamed' }).waitFor();
  await until(page, "document.activeElement?.textContent === 'Ninety days renamed'"); // focus moves in an effect: waited for
  expect(problems).toEqual([]);
  await page.close();
});

test('one click, one effect: a double-click on Create sends one POST (with an Idempotency-Key) and makes one key; the button is busy meanwhile', async () => {
  const page = await newPage();
  const seen = apiRequests(page);
  await signIn(page, printed(/Email: +(\S+)/), printed(/Password: +(\S+)/));
  const dialog = await createKey(page, 'Double click', '30');
  const create = dialog.getByRole('button', { name: 'Create', exact: true });
  await create.dblclick();
  await page.getByRole('region', { name: 'New key' }).waitFor();
  await settle(page);
  const posts = seen.filter((r) => r.method === 'POST' && r.path.endsWith('/api-keys'));
  expect(posts).toHaveLength(1);
  expect(posts[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  expect(await page.locator('tr[data-key-id]', { hasText: 'Double click' }).count()).toBe(1);
  // Focus moved to the result: the new key's box.
  await until(page, "document.activeElement?.getAttribute('aria-label') === 'New key'"); // focus moves in an effect: waited for
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByText('Copied', { exact: true }).waitFor();

  // A second submission is a fresh key (and a fresh Idempotency-Key); while it runs the button is disabled and busy.
  await page.getByRole('button', { name: 'Create key' }).click();
  const again = page.getByRole('dialog', { name: 'Create key' });
  await again.getByLabel('Name', { exact: true }).fill('Second');
  await again.getByLabel('clients: Read', { exact: true }).check();
  // hold the real request until the busy state is seen (a gate, not a delay: a loaded machine cannot outrun it)
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/console/api/workspaces/*/api-keys', async (route) => {
    await held;
    await route.continue();
  });
  await again.getByRole('button', { name: 'Create', exact: true }).click();
  const busy = again.getByRole('button', { name: 'Create', exact: true });
  expect(await busy.isDisabled()).toBe(true);
  expect(await busy.getAttribute('aria-busy')).toBe('true');
  release();
  await page.getByRole('region', { name: 'New key' }).getByText('Key "Second" created').waitFor();
  await page.unroute('**/console/api/workspaces/*/api-keys');
  const keys = seen.filter((r) => r.method === 'POST' && r.path.endsWith('/api-keys')).map((r) => r.headers['idempotency-key']);
  expect(new Set(keys).size).toBe(2);
  await page.close();
});

test('every view has a URL: a reload returns to #/invoices/<id> signed in without the provider form; back and forward move between views', async () => {
  const page = await newPage();
  const { problems } = watch(page);
  await signIn(page, printed(/Email: +(\S+)/), printed(/Password: +(\S+)/));
  await nav(page, 'Invoices');
  await page.getByRole('table', { name: 'Invoices' }).waitFor();
  const first = page.locator('tr[data-invoice-id]').first();
  const id = await first.getAttribute('data-invoice-id');
  const number = (await first.locator('td').first().innerText()).trim();
  await first.getByRole('link').click();
  await page.getByRole('region', { name: `Invoice ${number}` }).waitFor();
  expect(new URL(page.url()).hash).toBe(`#/invoices/${id}`);

  const forms: string[] = [];
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame() && f.url().includes('/interaction/')) forms.push(f.url());
  });
  await page.reload();
  await page.getByRole('region', { name: `Invoice ${number}` }).waitFor();
  expect(new URL(page.url()).hash).toBe(`#/invoices/${id}`);
  expect(new URL(page.url()).search).toBe(''); // the code left the address bar
  expect(forms).toEqual([]);
  expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);

  await nav(page, 'API Keys');
  await page.getByRole('heading', { name: 'API Keys' }).waitFor();
  expect(new URL(page.url()).hash).toBe('#/keys');
  await page.goBack();
  await page.getByRole('region', { name: `Invoice ${number}` }).waitFor();
  await page.goForward();
  await page.getByRole('heading', { name: 'API Keys' }).waitFor();
  // A key has its own address too.
  const key = page.locator('tr[data-key-id]').first();
  const keyId = await key.getAttribute('data-key-id');
  await key.getByRole('link').click();
  await page.getByRole('region', { name: /^Key / }).waitFor();
  expect(new URL(page.url()).hash).toBe(`#/keys/${keyId}`);
  expect(problems).toEqual([]);
  await page.close();
});

test('requests in proportion: sign-in and the first section <= 4, creating a key <= 3 after the POST, opening an invoice <= 2', async () => {
  const page = await newPage();
  const seen = apiRequests(page);
  await signIn(page, printed(/Email: +(\S+)/), printed(/Password: +(\S+)/));
  await page.getByRole('table', { name: 'API keys' }).waitFor();
  await settle(page);
  expect(seen.length).toBeLessThanOrEqual(4);
  const listedAt = { signIn: seen.length, afterPost: 0 };

  const dialog = await createKey(page, 'Budget key', '30');
  const before = seen.length;
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await page.getByRole('region', { name: 'New key' }).waitFor();
  await settle(page);
  expect(seen[before]).toMatchObject({ method: 'POST' });
  expect(seen.length - before - 1).toBeLessThanOrEqual(3);
  listedAt.afterPost = seen.length - before - 1;

  await nav(page, 'Invoices');
  await page.getByRole('table', { name: 'Invoices' }).waitFor();
  await settle(page);
  const listed = seen.length;
  await page.locator('tr[data-invoice-id]').first().getByRole('link').click();
  await page.getByRole('region', { name: /^Invoice INV-/ }).waitFor();
  await settle(page);
  expect(seen.length - listed).toBeLessThanOrEqual(2);
  // The figures for the record (the closing note).
  console.log(`console API requests: sign-in + first section ${listedAt.signIn}, after the key POST ${listedAt.afterPost}, opening an invoice ${seen.length - listed}`);
  await page.close();
});

test('a page that fits people: 390 px without sideways scroll, axe-core without serious or critical findings in every section, Escape closes a dialog, errors tied to fields, role changes need Save', async () => {
  const page = await newPage({ viewport: { width: 1280, height: 800 } });
  const seen = apiRequests(page);
  await signIn(page, printed(/Email: +(\S+)/), printed(/Password: +(\S+)/));
  // the page's width is checked per section below, with a message of its own
  const audit = (where: string) => auditAt(page, where, { sideways: false });
  const sections: Array<[string, string]> = [
    ['API Keys', 'keys'],
    ['Usage', 'usage'],
    ['Members', 'members'],
    ['Audit log', 'audit'],
    ['Invoices', 'invoices'],
  ];
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    for (const [title, id] of sections) {
      await nav(page, title);
      await page.getByRole('heading', { name: title, level: 2 }).waitFor();
      await settle(page);
      const { scroll, client }: { scroll: number; client: number } = await page.evaluate(
        '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
      );
      expect({ width, id, scroll: scroll <= client }).toEqual({ width, id, scroll: true });
      const small: string[] = await page.evaluate(
        "[...document.querySelectorAll('main button, main select, main input:not([type=radio]), nav a')].filter((e) => e.offsetParent !== null && e.getBoundingClientRect().height < 24).map((e) => e.outerHTML.slice(0, 80))",
      );
      expect({ width, id, small }).toEqual({ width, id, small: [] });
      await audit(`${id} at ${width}`);
      await page.screenshot({ path: join(tmpdir(), `console-${id}-${width}.png`), fullPage: true });
    }
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await nav(page, 'API Keys');
  // The create dialog: axe inside it, a field error tied to its field, Escape closes it.
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create key' });
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  const name = dialog.getByLabel('Name', { exact: true });
  await page.locator('dialog input[name=name][aria-invalid=true]').waitFor();
  const describedBy = (await name.getAttribute('aria-describedby'))!;
  expect(await page.locator(`[id="${describedBy.split(' ')[0]}"]`).innerText()).toMatch(/1-100 characters|required/);
  await audit('create dialog at 390');
  await page.screenshot({ path: join(tmpdir(), 'console-create-390.png'), fullPage: true });
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });

  // Members: a role picker changes nothing until Save; the refused demotion of the last owner shows the server's role.
  await nav(page, 'Members');
  const owner = printed(/Email: +(\S+)/);
  const picker = page.getByLabel(`Role of ${owner}`, { exact: true });
  await picker.focus();
  await page.keyboard.press('ArrowDown');
  await page.waitForTimeout(300); // a lower bound: no PATCH may have gone in that time (a loaded run only waits longer)
  expect(seen.filter((r) => r.method === 'PATCH')).toHaveLength(0);
  await picker.selectOption('viewer');
  await page.getByRole('button', { name: `Save role of ${owner}` }).click();
  await page.getByRole('alert').filter({ hasText: /owner/i }).waitFor();
  await until(page, `document.querySelector('select[aria-label="Role of ${owner}"]').value === 'owner'`);
  // Removal asks first: Escape keeps the member.
  await page.getByLabel('Email', { exact: true }).fill('asks-first@demo.example');
  await page.getByRole('button', { name: 'Add member' }).click();
  await page.locator('tr[data-member="asks-first@demo.example"]').waitFor();
  await page.getByRole('button', { name: 'Remove asks-first@demo.example' }).click();
  await page.getByRole('dialog', { name: 'Remove asks-first@demo.example?' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  expect(seen.filter((r) => r.method === 'DELETE')).toHaveLength(0);
  await page.getByRole('button', { name: 'Remove asks-first@demo.example' }).click();
  await page.getByRole('button', { name: 'Confirm remove' }).click();
  await page.locator('tr[data-member="asks-first@demo.example"]').waitFor({ state: 'detached' });
  await page.close();
});

test('a 403 RATE_LIMITED shows when the page retries (Retry-After) and is retried once by itself (npm start with CONSOLE_RATE_PER_MINUTE=6)', async () => {
  const limited = await startSeededApi('console-limited', { CONSOLE_RATE_PER_MINUTE: '6' });
  const page = await newPage();
  try {
    const { email, password } = limited.owner();
    const seen = apiRequests(page);
    const answers: number[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/console/api/')) answers.push(r.status());
    });
    await signInAt(page, limited.base, email, password);
    await page.getByRole('table', { name: 'API keys' }).waitFor();
    // Spend the minute: each section opened is one or two requests. The limit counts per clock minute, so a
    // loaded run whose visits straddle a minute's end needs more of them: visit until the 403, at most 40.
    for (const name of Array.from({ length: 40 }, (_, i) => (i % 2 ? 'Audit log' : 'Members'))) {
      if (answers.includes(403)) break; // one that came while the last section settled: no further visit
      await nav(page, name);
      if (answers.includes(403)) break;
      await page.getByRole('heading', { name, level: 2 }).waitFor();
      await settle(page);
    }
    const notice = page.getByRole('status').filter({ hasText: /Too many requests: the console retries in \d+ s/ });
    await notice.waitFor();
    const refused = seen.length;
    // Once the window resets the same request goes again, once, and the section shows its content.
    await notice.waitFor({ state: 'detached', timeout: 75_000 });
    await page.getByRole('heading', { level: 2 }).waitFor();
    expect(answers.filter((s) => s === 403)).toHaveLength(1);
    expect(seen.length).toBe(refused + 1);
    expect(seen[refused]!.path).toBe(seen[refused - 1]!.path);
    expect(answers.at(-1)).toBe(200);
  } finally {
    await page.close();
    await limited.stop();
  }
}, 300_000);
