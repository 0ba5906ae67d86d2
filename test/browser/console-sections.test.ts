// Shares the machine with the other test files (no @run-alone mark): its npm start (own DynamoDB Local, free
// ports, a DATA_DIR of its own) and chromium are its own, and its waits are lower bounds (an authorizer cache
// time, a rate-limit window waited out) or bounded polls, so a loaded run is slower, not red.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { admin } from '../local/npm-start';
import { audit, eventually, painted, patientPages, reloadSignedIn, signIn as signInAt, sleep, startConsole, until, v1 as v1At, type ConsoleRun } from './support';

/**
 * What the console API grew in issue 36, shown in the page (chromium against `npm start`): a rolled pair of
 * keys labelled, the old one revoked by its own action; a member's invitation link shown once, which signs the
 * new member in through the local provider's set-password page; the audit log's names, "field: before ->
 * after" lines and filters in the address; the Webhooks section by role (list, attempts, disable, enable,
 * delete after a confirmation; the key's revoke confirmation lists its webhooks), axe-core and 390 px.
 */
const CACHE_SECONDS = 3;
jest.setTimeout(300_000);

let browser: Browser;
const { newContext, newPage } = patientPages(() => browser);
let base: string;
let dynamo: string;
let owner: ConsoleRun['owner'];
let stop: ConsoleRun['stop'];
let receiver: Server;
let receiverUrl: string;
const received: Array<{ type: string }> = [];

beforeAll(async () => {
  // A real receiver for the webhook: answers 200 to every delivery and keeps what came.
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += String(d)));
    req.on('end', () => {
      try {
        received.push(JSON.parse(body) as { type: string });
      } catch {
        received.push({ type: 'unreadable' });
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  ({ browser, base, dynamo, owner, stop } = await startConsole('console-sections', { AUTH_CACHE_TTL_SECONDS: String(CACHE_SECONDS) }));
}, 300_000);
afterAll(async () => {
  await stop?.();
  await new Promise((r) => receiver?.close(r));
});

const signIn = (page: Page, email: string, password: string, hash = '') => signInAt(page, base, email, password, hash);
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();
const v1 = (path: string, key: string, init: RequestInit = {}) => v1At(base, path, key, init);

/** A key made with the admin CLI: its secret and id. */
async function cliKey(name: string, scopes: string): Promise<{ key: string; id: string; prefix: string }> {
  const made = await admin(dynamo, 'keys', 'create', '--workspace', 'demo', '--name', name, '--scopes', scopes, '--json');
  expect({ code: made.code, stderr: made.stderr }).toEqual({ code: 0, stderr: '' });
  const { key, id } = JSON.parse(made.stdout) as { key: string; id: string };
  return { key, id, prefix: key.slice(0, 13) };
}

test('a rolled pair is labelled ("replaced by …, stops at"; "replaces …") and the old key is revoked by its own action, naming its prefix', async () => {
  const old = await cliKey('Pair key', 'clients:read');
  const page = await newPage({ viewport: { width: 1280, height: 800 } });
  await signIn(page, owner().email, owner().password, '#/keys');
  await page.getByRole('button', { name: `Roll Pair key (${old.prefix}…)` }).click();
  await page.getByLabel('Old key keeps working').selectOption('3600');
  await page.getByRole('button', { name: 'Roll key' }).click();
  const made = page.getByRole('region', { name: 'New key' });
  await made.waitFor();
  const fresh = (await made.locator('code').innerText()).trim();
  const freshPrefix = fresh.slice(0, 13);

  const oldRow = page.locator(`tr[data-key-id="${old.id}"]`);
  const newRow = page.locator('tr[data-key-id]', { hasText: `replaces ${old.prefix}…` });
  const oldText = await oldRow.innerText();
  expect(oldText).toContain(`replaced by ${freshPrefix}…, stops at`);
  expect(oldText).toContain(String(new Date(Date.now() + 3600_000).getFullYear()));
  expect(await newRow.innerText()).toContain(`replaces ${old.prefix}…`);
  await page.screenshot({ path: join(tmpdir(), 'console-roll-pair-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(tmpdir(), 'console-roll-pair-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Two different, labelled actions; the old one's confirmation names the old prefix and the successor.
  expect(await oldRow.getByRole('button', { name: 'Revoke new key' }).count()).toBe(0);
  expect(await newRow.getByRole('button', { name: 'Revoke old key' }).count()).toBe(0);
  await newRow.getByRole('button', { name: `Revoke new key Pair key (${freshPrefix}…)` }).click();
  const newDialog = page.getByRole('dialog', { name: `Revoke new key Pair key (${freshPrefix}…)?` });
  expect(await newDialog.innerText()).toContain(`The old key ${old.prefix}… keeps working only until`);
  await page.keyboard.press('Escape');
  await newDialog.waitFor({ state: 'detached' });

  await oldRow.getByRole('button', { name: `Revoke old key Pair key (${old.prefix}…)` }).click();
  const dialog = page.getByRole('dialog', { name: `Revoke old key Pair key (${old.prefix}…)?` });
  expect(await dialog.innerText()).toContain(`Its successor ${freshPrefix}… keeps working`);
  await dialog.getByRole('button', { name: `Confirm revoke of ${old.prefix}…` }).click();
  await dialog.waitFor({ state: 'detached' });
  await oldRow.locator('td.status-revoked').waitFor();
  expect(await newRow.locator('td.status-active').count()).toBe(1);

  // The server agrees: the old key refused, the new one works (after the authorizer cache).
  await sleep((CACHE_SECONDS + 1) * 1000);
  expect((await v1('/v1/clients', old.key)).status).toBe(401);
  expect((await v1('/v1/clients', fresh)).status).toBe(200);
  await page.close();
});

test('a member added gets an invitation link shown once (Copy link, "Copied", its expiry); following it and setting a password signs them in', async () => {
  const context = await newContext({ viewport: { width: 390, height: 844 }, permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  await signIn(page, owner().email, owner().password, '#/members');
  await page.getByRole('heading', { name: 'Members', level: 2 }).waitFor();
  await page.getByLabel('Email', { exact: true }).fill('invited@demo.example');
  await page.getByLabel('Role', { exact: true }).selectOption('admin');
  await page.getByRole('button', { name: 'Add member' }).click();
  const region = page.getByRole('region', { name: 'Invitation link' });
  await region.waitFor();
  // focus moves to the result
  await until(page, 'document.activeElement?.getAttribute("aria-label") === "Invitation link"');
  const url = (await region.locator('code').innerText()).trim();
  expect(url).toMatch(/\/invitation\/[^/]+$/);
  const inAWeek = new Date(Date.now() + 7 * 86_400_000);
  expect(await region.innerText()).toContain(String(inAWeek.getFullYear()));
  await region.getByRole('button', { name: 'Copy link' }).click();
  await region.getByText('Copied', { exact: true }).waitFor();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(url);
  await page.screenshot({ path: join(tmpdir(), 'console-invitation-390.png'), fullPage: true });
  await region.getByRole('button', { name: 'Done' }).click();
  await region.waitFor({ state: 'detached' });
  // Shown once: a reload shows the member, not the link.
  await page.reload();
  await page.locator('tr[data-member="invited@demo.example"]').waitFor();
  expect(await page.content()).not.toContain(url);
  await context.close();

  // The new member follows the link, sets a password, signs in and sees the workspace with their role.
  const theirs = await newContext();
  const them = await theirs.newPage();
  await them.goto(url);
  await them.getByLabel('New password').fill('invited-password-1');
  await them.getByLabel('Repeat the password').fill('invited-password-1');
  await them.getByRole('button', { name: 'Set password' }).click();
  await them.getByRole('link', { name: 'Sign in to the console' }).click();
  await them.getByRole('button', { name: 'Sign in' }).click();
  await them.getByLabel('Email').fill('invited@demo.example');
  await them.getByLabel('Password').fill('invited-password-1');
  await them.getByRole('button', { name: 'Sign in' }).click();
  await them.getByRole('heading', { name: 'API Keys', level: 2 }).waitFor();
  expect(await them.getByText('Workspace demo').count()).toBe(1);
  expect(await them.getByText('Your role: admin').count()).toBe(1);
  // The link works once.
  expect((await fetch(url)).status).toBe(410);
  await theirs.close();
});

/** Waits until the audit table has rows and every one passes `predicate` (a function's source, run in the page). */
const everyRow = (page: Page, predicate: string) =>
  until(page, `(() => { const rows = [...document.querySelectorAll('table[aria-label="Audit log"] tbody tr')]; return rows.length > 0 && rows.every(${predicate}); })()`);
test('the audit log shows names and "field: before -> after"; filters by action, actor and target are in the address', async () => {
  const k = await cliKey('Audit key', 'clients:read');
  const page = await newPage({ viewport: { width: 1280, height: 800 } });
  await signIn(page, owner().email, owner().password, '#/keys');
  await page.getByRole('button', { name: `Edit Audit key (${k.prefix}…)` }).click();
  await page.getByLabel('Name', { exact: true }).fill('Audit key renamed');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });

  await nav(page, 'Audit log');
  const rows = page.getByRole('table', { name: 'Audit log' }).locator('tbody tr');
  await rows.first().waitFor();
  const renamed = rows.filter({ hasText: 'api-key.updated' }).filter({ hasText: k.id });
  const text = await renamed.innerText();
  expect(text).toContain(`Audit key renamed (${k.prefix}`);
  expect(text).toContain('name: Audit key -> Audit key renamed');

  // By action, from the form: the address says so and every row matches.
  await page.getByLabel('Action', { exact: true }).selectOption('api-key.created');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await until(page, "location.hash.includes('action=api-key.created')");
  await everyRow(page, "(r) => r.cells[2].textContent === 'api-key.created'");
  await rows.filter({ hasText: k.id }).waitFor();
  const actions = await rows.locator('td:nth-child(3)').allInnerTexts();
  expect(actions.length).toBeGreaterThan(0);
  expect(new Set(actions)).toEqual(new Set(['api-key.created']));
  await page.screenshot({ path: join(tmpdir(), 'console-audit-filtered-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(tmpdir(), 'console-audit-filtered-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // By actor, from the address (a reload keeps the filter and fills the form).
  await page.goto(`${base}/console#/audit?actor=admin-cli`);
  await page.getByRole('heading', { name: 'Audit log', level: 2 }).waitFor();
  if (await page.getByRole('button', { name: 'Sign in' }).isVisible()) await page.getByRole('button', { name: 'Sign in' }).click();
  await everyRow(page, "(r) => r.cells[1].textContent === 'admin-cli'");
  expect(await page.getByLabel('Actor', { exact: true }).inputValue()).toBe('admin-cli');
  expect(new Set(await rows.locator('td:nth-child(2)').allInnerTexts())).toEqual(new Set(['admin-cli']));

  // By target: its id's link; back returns to the actor filter.
  await page.getByLabel('Actor', { exact: true }).fill('');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await until(page, "!location.hash.includes('actor=')");
  await rows.filter({ hasText: 'api-key.updated' }).filter({ hasText: k.id }).getByRole('link', { name: k.id }).click();
  await until(page, `location.hash.includes('targetId=${k.id}')`);
  await everyRow(page, `(r) => r.textContent.includes('${k.id}')`);
  expect(new Set(await rows.locator('td:nth-child(3)').allInnerTexts())).toEqual(new Set(['api-key.created', 'api-key.updated']));
  expect(await page.getByLabel('Target id', { exact: true }).inputValue()).toBe(k.id);
  await page.getByLabel('Action', { exact: true }).selectOption('member.removed');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('No entry matches the filter.').waitFor();
  await page.goBack();
  await until(page, `location.hash.includes('targetId=${k.id}') && !location.hash.includes('action=')`);
  await rows.filter({ hasText: 'api-key.updated' }).waitFor();
  await page.close();
});

test("webhooks: the list (key, last delivery), one webhook at #/webhooks/<id> with its attempts, disable, enable, delete after a confirmation; a key's revoke lists its webhooks; viewers read; axe and 390 px", async () => {
  const k = await cliKey('Hook key', 'clients:read,clients:write,webhooks:read,webhooks:write');
  const hook = await v1('/v1/webhooks', k.key, { method: 'POST', body: JSON.stringify({ url: receiverUrl, events: ['client.*'], description: 'to billing' }) });
  expect(hook.status).toBe(201);
  const { id: hookId } = (await hook.json()) as { id: string };
  expect((await v1('/v1/clients', k.key, { method: 'POST', body: JSON.stringify({ name: 'Hooked client' }) })).status).toBe(201);
  await eventually('the receiver has client.created', () => received.some((e) => e.type === 'client.created'));
  expect(received.map((e) => e.type)).toContain('client.created');
  // the attempt is recorded after the receiver's answer: wait until the delivery log has it (not a fixed sleep)
  const recorded = async () => {
    const log = await v1(`/v1/webhooks/${hookId}/deliveries`, k.key);
    return log.status === 200 && ((await log.json()) as { items: Array<{ statusCode?: number }> }).items.some((a) => a.statusCode === 200);
  };
  await eventually('the delivery log has the 200 attempt', recorded);

  const page = await newPage({ viewport: { width: 1280, height: 800 } });
  await signIn(page, owner().email, owner().password, '#/webhooks');
  await page.getByRole('heading', { name: 'Webhooks', level: 2 }).waitFor();
  const row = page.locator(`tr[data-webhook-id="${hookId}"]`);
  await row.waitFor();
  const text = await row.innerText();
  expect(text).toContain(receiverUrl);
  expect(text).toContain('client.*');
  expect(text).toContain('enabled');
  expect(text).toContain(`Hook key (${k.prefix}…)`);
  expect(text).toMatch(/200 at /);

  // One webhook: its own address and its attempts.
  await row.getByRole('link', { name: receiverUrl }).click();
  await until(page, `location.hash.startsWith('#/webhooks/${hookId}')`);
  const detail = page.getByRole('region', { name: `Webhook ${receiverUrl}` });
  const attempts = detail.getByRole('table', { name: 'Delivery attempts' });
  await attempts.waitFor();
  expect(await attempts.locator('tbody tr', { hasText: 'client.created' }).first().innerText()).toMatch(/client\.created[\s\S]*\b200\b/);
  await reloadSignedIn(page, page.getByRole('region', { name: `Webhook ${receiverUrl}` }).getByRole('table', { name: 'Delivery attempts' }));

  // Disable, enable: busy while the request runs, the result announced and focused.
  await row.getByRole('button', { name: `Disable webhook ${receiverUrl}` }).click();
  await row.getByRole('button', { name: `Enable webhook ${receiverUrl}` }).waitFor();
  expect(await row.innerText()).toContain('disabled');
  await until(page, `document.activeElement?.textContent === ${JSON.stringify(`${receiverUrl} is disabled.`)}`);
  await row.getByRole('button', { name: `Enable webhook ${receiverUrl}` }).click();
  await row.getByRole('button', { name: `Disable webhook ${receiverUrl}` }).waitFor();

  // axe-core and no sideways scroll, at both widths, with the detail open.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await painted(page);
    await audit(page, `webhooks at ${width} px`);
    await page.screenshot({ path: join(tmpdir(), `console-webhooks-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // The key's revoke confirmation lists the webhooks it made; so does narrowing its scopes.
  await nav(page, 'API Keys');
  const keyRow = page.locator(`tr[data-key-id="${k.id}"]`);
  await keyRow.getByRole('button', { name: `Revoke Hook key (${k.prefix}…)` }).click();
  const revoke = page.getByRole('dialog', { name: `Revoke Hook key (${k.prefix}…)?` });
  await revoke.getByText('stop delivering when it is revoked').waitFor();
  expect(await revoke.locator('.key-webhooks li').allInnerTexts()).toEqual([`${receiverUrl} (client.*)`]);
  await page.keyboard.press('Escape');
  await revoke.waitFor({ state: 'detached' });
  await keyRow.getByRole('button', { name: `Edit Hook key (${k.prefix}…)` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Hook key' });
  expect(await edit.locator('.key-webhooks').count()).toBe(0);
  await edit.getByLabel('clients: None', { exact: true }).check();
  await edit.getByText('Narrowing its scopes').waitFor();
  expect(await edit.locator('.key-webhooks li').allInnerTexts()).toEqual([`${receiverUrl} (client.*)`]);
  await page.keyboard.press('Escape');
  await edit.waitFor({ state: 'detached' });

  // A viewer reads: the list and the attempts, no write control.
  const viewer = await admin(dynamo, 'members', 'add', '--workspace', 'demo', '--email', 'hook-viewer@demo.example', '--role', 'viewer', '--json');
  expect(viewer.code).toBe(0);
  const { password } = JSON.parse(viewer.stdout) as { password: string };
  const vcontext = await newContext();
  const vpage = await vcontext.newPage();
  await signIn(vpage, 'hook-viewer@demo.example', password, `#/webhooks/${hookId}`);
  await vpage.getByRole('table', { name: 'Delivery attempts' }).waitFor();
  await vpage.locator(`tr[data-webhook-id="${hookId}"]`).waitFor();
  for (const name of ['Disable', 'Enable', 'Delete']) expect(await vpage.getByRole('button', { name }).count()).toBe(0);
  await vcontext.close();

  // Delete asks first: Escape keeps it; Confirm deletes it.
  await nav(page, 'Webhooks');
  await row.getByRole('button', { name: `Delete webhook ${receiverUrl}` }).click();
  const del = page.getByRole('dialog', { name: `Delete the webhook to ${receiverUrl}?` });
  await del.waitFor();
  await page.keyboard.press('Escape');
  await del.waitFor({ state: 'detached' });
  expect((await v1(`/v1/webhooks/${hookId}`, k.key)).status).toBe(200);
  await row.getByRole('button', { name: `Delete webhook ${receiverUrl}` }).click();
  await del.getByRole('button', { name: 'Confirm delete' }).click();
  await row.waitFor({ state: 'detached' });
  await page.getByText(`Deleted the webhook to ${receiverUrl}.`).waitFor();
  expect((await v1(`/v1/webhooks/${hookId}`, k.key)).status).toBe(404);
  await page.close();
});
