// Shares the machine with the other test files (no run-alone mark): its npm start (own DynamoDB Local, free ports,
// a DATA_DIR of its own) and chromium are its own, every wait is a bounded poll or locator wait of 60 s (support.ts),
// and nothing it asserts is a time: a loaded run is slower, not red. (It ran alone until issue 34: the alone group
// is pure wall time.)
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { admin } from '../local/npm-start';
import { audit, painted, patientPages, reloadSignedIn, signIn as signInAt, startConsole, until, type ConsoleRun } from './support';

/**
 * The console's Settings section (issue 32 item 6) in chromium against `npm start`: its own address
 * (`#/settings`), the owner's billing-profile form (a refused field named beside it, then saved: the result
 * announced and focused, kept over a reload), axe-core clean and no sideways scroll at 1280 and 390 px
 * (screenshots in the temp dir), and a viewer who reads the profile without any control to change it.
 */
jest.setTimeout(240_000);

let run: ConsoleRun;
beforeAll(async () => {
  run = await startConsole('console-settings');
}, 180_000);
afterAll(() => run?.stop());
const { newPage } = patientPages(() => run.browser);

const signIn = (page: Page, email: string, password: string, hash = '') => signInAt(page, run.base, email, password, hash);

test('an owner sets the billing profile at #/settings (a refused field named beside it; saved, announced, focused, kept over a reload); axe and 390 px; a viewer reads it', async () => {
  const page = await newPage({ viewport: { width: 1280, height: 800 } });
  await signIn(page, run.owner().email, run.owner().password, '#/settings');
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

  const again = page.getByRole('form', { name: 'Billing profile' });
  await reloadSignedIn(page, again);
  expect(await again.getByLabel('Display name').inputValue()).toBe('Studio North GmbH');
  expect(await again.getByLabel('Address').inputValue()).toBe('Harbour 5\n20457 Hamburg');
  expect(await again.getByLabel('Default currency').inputValue()).toBe('EUR');
  expect(await again.getByLabel('Payment terms (days)').inputValue()).toBe('14');

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await painted(page);
    await audit(page, `owner at ${width} px`);
    await page.screenshot({ path: join(tmpdir(), `console-settings-owner-${width}.png`), fullPage: true });
  }
  await page.close();

  // a viewer reads it, with no control to change it
  const viewer = await admin(run.dynamo, 'members', 'add', '--workspace', 'demo', '--email', 'settings-viewer@demo.example', '--role', 'viewer', '--json');
  expect(viewer.code).toBe(0);
  const { password } = JSON.parse(viewer.stdout) as { password: string };
  const vpage = await newPage({ viewport: { width: 390, height: 844 } });
  await signIn(vpage, 'settings-viewer@demo.example', password, '#/settings');
  const shown = vpage.getByRole('definition');
  await shown.first().waitFor();
  const text = await vpage.locator('dl.profile').innerText();
  for (const v of ['Studio North GmbH', 'Harbour 5', '20457 Hamburg', 'DE123456789', 'EUR', '19 %', '14 days', 'Bank transfer within 14 days.']) expect(text).toContain(v);
  expect(await vpage.getByRole('form', { name: 'Billing profile' }).count()).toBe(0);
  expect(await vpage.getByRole('button', { name: 'Save billing profile' }).count()).toBe(0);
  expect(await vpage.getByRole('textbox').count()).toBe(0);
  await audit(vpage, 'viewer at 390 px', { sideways: false });
  await vpage.screenshot({ path: join(tmpdir(), 'console-settings-viewer-390.png'), fullPage: true });
  await vpage.close();
});
