// @run-alone: npm start and chromium (run after the parallel files, one at a time)
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort } from '../../local/dynamodb';
import { admin, startApi, type RunningApi } from '../local/npm-start';
import { until } from './support';

/**
 * The console's Settings section (issue 32 item 6) in chromium against `npm start`: its own address
 * (`#/settings`), the owner's billing-profile form (a refused field named beside it, then saved: the result
 * announced and focused, kept over a reload), axe-core clean and no sideways scroll at 1280 and 390 px
 * (screenshots in the temp dir), and a viewer who reads the profile without any control to change it.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
jest.setTimeout(240_000);

let api: RunningApi;
let browser: Browser;
let base: string;
let dynamo: string;
let dataDir: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`No browser at ${CHROMIUM}: install Debian's chromium or set CHROMIUM_PATH`);
  dataDir = mkdtempSync(join(tmpdir(), 'console-settings-'));
  const port = await freePort();
  const dynamoPort = await freePort();
  api = startApi({ PORT: String(port), DYNAMODB_PORT: String(dynamoPort), DATA_DIR: dataDir });
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
async function signIn(page: Page, email: string, password: string, hash = '') {
  await page.goto(`${base}/console${hash}`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#section-heading').waitFor();
}

test('an owner sets the billing profile at #/settings (a refused field named beside it; saved, announced, focused, kept over a reload); axe and 390 px; a viewer reads it', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await signIn(page, printed(/Email: +(\S+)/), printed(/Password: +(\S+)/), '#/settings');
  await page.getByRole('heading', { name: 'Settings', level: 2 }).waitFor();
  const form = page.getByRole('form', { name: 'Billing profile' });
  await form.waitFor();
  expect(await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' }).getAttribute('aria-current')).toBe('page');

  // a zero-width space in the display name: refused, the field marked and its message beside it; nothing saved
  await form.getByLabel('Display name').fill('Studio\u200bNorth');
  await form.getByLabel('Tax ID').fill('DE123456789');
  await form.getByRole('button', { name: 'Save billing profile' }).click();
  const name = form.getByLabel('Display name');
  await until(page, `document.querySelector('[aria-invalid="true"]') !== null`);
  expect(await name.getAttribute('aria-invalid')).toBe('true');
  expect(await form.locator('.field-error').first().innerText()).toContain('zero-width');

  await name.fill('Studio North GmbH');
  await form.getByLabel('Address').fill('Harbour 5\n20457 Hamburg');
  await form.getByLabel('Billing e-mail').fill('billing@studio-north.test');
  await form.getByLabel('Default currency').fill('eur');
  await form.getByLabel('Default tax rate (%)').fill('19');
  await form.getByLabel('Payment terms (days)').fill('14');
  await form.getByLabel('Invoice footer').fill('Bank transfer within 14 days.');
  await form.getByRole('button', { name: 'Save billing profile' }).click();
  await until(page, `document.activeElement?.textContent?.startsWith('Billing profile saved at') === true`);
  expect(await page.locator('[aria-invalid="true"]').count()).toBe(0);

  await page.reload();
  if (await page.getByRole('button', { name: 'Sign in' }).isVisible()) await page.getByRole('button', { name: 'Sign in' }).click();
  const again = page.getByRole('form', { name: 'Billing profile' });
  await again.waitFor();
  expect(await again.getByLabel('Display name').inputValue()).toBe('Studio North GmbH');
  expect(await again.getByLabel('Address').inputValue()).toBe('Harbour 5\n20457 Hamburg');
  expect(await again.getByLabel('Default currency').inputValue()).toBe('EUR');
  expect(await again.getByLabel('Payment terms (days)').inputValue()).toBe('14');

  const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.waitForTimeout(300);
    await page.evaluate(axeSource);
    const found: string[] = await page.evaluate(
      "axe.run({ resultTypes: ['violations'] }).then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ' ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))",
    );
    expect({ width, found }).toEqual({ width, found: [] });
    const { scroll, client }: { scroll: number; client: number } = await page.evaluate(
      '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
    );
    expect({ width, sideways: scroll > client }).toEqual({ width, sideways: false });
    await page.screenshot({ path: join(tmpdir(), `console-settings-owner-${width}.png`), fullPage: true });
  }
  await page.close();

  // a viewer reads it, with no control to change it
  const viewer = await admin(dynamo, 'members', 'add', '--workspace', 'demo', '--email', 'settings-viewer@demo.example', '--role', 'viewer', '--json');
  expect(viewer.code).toBe(0);
  const { password } = JSON.parse(viewer.stdout) as { password: string };
  const vpage = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await signIn(vpage, 'settings-viewer@demo.example', password, '#/settings');
  const shown = vpage.getByRole('definition');
  await shown.first().waitFor();
  const text = await vpage.locator('dl.profile').innerText();
  for (const v of ['Studio North GmbH', 'Harbour 5', '20457 Hamburg', 'DE123456789', 'EUR', '19 %', '14 days', 'Bank transfer within 14 days.']) expect(text).toContain(v);
  expect(await vpage.getByRole('form', { name: 'Billing profile' }).count()).toBe(0);
  expect(await vpage.getByRole('button', { name: 'Save billing profile' }).count()).toBe(0);
  expect(await vpage.getByRole('textbox').count()).toBe(0);
  await vpage.evaluate(axeSource);
  const found: string[] = await vpage.evaluate(
    "axe.run({ resultTypes: ['violations'] }).then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id))",
  );
  expect(found).toEqual([]);
  await vpage.screenshot({ path: join(tmpdir(), 'console-settings-viewer-390.png'), fullPage: true });
  await vpage.close();
});
