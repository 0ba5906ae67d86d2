// Shares the machine with the other test files (no run-alone mark): its npm start (own DynamoDB Local, free
// ports, a DATA_DIR of its own) and chromium are its own, the workspace it changes is the demo of its own copy,
// every wait is a bounded poll or a locator wait of 60 s (support.ts), and nothing it asserts is a time.
import type { Page } from 'playwright-core';
import { admin } from '../local/npm-start';
import { audit, patientPages, signIn as signInAt, startConsole, until, type ConsoleRun } from './support';

/**
 * Issue 32, items 7 and 8, in the page (chromium against `npm start` and its demo seed, which leaves two weeks
 * of billable time uninvoiced): the Invoices section shows the unbilled time first; "Invoice this" opens
 * "New invoice" at its own address, prefilled with that client and period, whose preview totals what the row
 * said before tax; the made draft is edited in the page (dates, tax rate, notes, a line's description) with a
 * live preview of the totals, saved with a busy state and the result focused; "Finalize and mark sent" says
 * what happens; the detail reads its entries by page; axe-core finds nothing serious at 1280 and 390 px, and
 * the page never scrolls sideways. An invoice of 105 entries (made through /v1 with a key the admin CLI makes)
 * pages from the keyboard: "Show more entries" appends the rest, each entry once, the focus on the first new
 * row. "Record payment" (at 390 px): busy while it runs, partially paid with the amount due, refusals beside the
 * field changing nothing (checked through /v1), then paid; each result announced and focused.
 */
jest.setTimeout(300_000);

let run: ConsoleRun;
beforeAll(async () => {
  run = await startConsole('console-invoices');
}, 180_000);
afterAll(() => run?.stop());
// pages whose steps wait up to 60 s (support.ts), not Playwright's 30 s: the file shares a loaded machine
const { newPage } = patientPages(() => run.browser);

async function signIn(page: Page) {
  await signInAt(page, run.base, run.owner().email, run.owner().password, '#/invoices');
  await page.getByRole('heading', { name: 'Invoices', exact: true }).waitFor();
}

test('unbilled first; "Invoice this" prefills the form (its own address) and previews the row\'s amount; the draft edited with a live preview; "Finalize and mark sent"; axe at 1280 and 390 px', async () => {
  const page = await newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  const entryPages: string[] = [];
  page.on('request', (r) => {
    if (/\/invoices\/[^/]+\/entries/.test(r.url())) entryPages.push(new URL(r.url()).search);
  });
  await signIn(page);

  // the unbilled time comes first, above the invoice list
  const unbilled = page.getByRole('table', { name: 'Unbilled time' });
  await unbilled.waitFor();
  const rows = unbilled.locator('tbody tr');
  expect(await rows.count()).toBeGreaterThan(0);
  expect((await page.getByRole('heading', { name: 'Unbilled time' }).boundingBox())!.y).toBeLessThan((await page.getByRole('heading', { name: 'Invoice list' }).boundingBox())!.y);
  await audit(page, 'Invoices at 1280 px');

  // "New invoice" alone: the first client with unbilled time and its period (not last month, which may hold nothing)
  const firstRow = rows.first();
  const firstPeriod = (await firstRow.locator('td').nth(4).innerText()).split(' – ');
  await page.getByRole('button', { name: 'New invoice' }).click();
  const blank = page.getByRole('form', { name: 'New invoice' });
  await blank.waitFor();
  expect([
    await blank.getByLabel('Client', { exact: true }).inputValue(),
    await blank.getByLabel('Period start', { exact: true }).inputValue(),
    await blank.getByLabel('Period end', { exact: true }).inputValue(),
  ]).toEqual([await firstRow.getAttribute('data-unbilled-client'), ...firstPeriod]);
  await page.getByRole('button', { name: 'New invoice' }).click(); // closes it
  await blank.waitFor({ state: 'detached' });

  // "Invoice this" of the first row with an amount
  const row = rows.filter({ has: page.getByRole('link', { name: /^Invoice this: / }) }).first();
  const clientId = (await row.getAttribute('data-unbilled-client'))!;
  const cells = await row.locator('td').allInnerTexts();
  const [from, to] = cells[4]!.split(' – ') as [string, string];
  await row.getByRole('link', { name: /^Invoice this: / }).click();
  const form = page.getByRole('form', { name: 'New invoice' });
  await form.waitFor();
  const hash = new URLSearchParams(new URL(page.url()).hash.split('?')[1]);
  expect([hash.get('new'), hash.get('from'), hash.get('to')]).toEqual([clientId, from, to]);
  // the form takes the focus once it has rendered (an effect after the route change): waited for, bounded
  await until(page, "document.activeElement?.getAttribute('aria-label') === 'New invoice'", 10_000);
  expect(await form.getByLabel('Client', { exact: true }).inputValue()).toBe(clientId);
  expect(await form.getByLabel('Period start', { exact: true }).inputValue()).toBe(from);
  expect(await form.getByLabel('Period end', { exact: true }).inputValue()).toBe(to);
  await form.getByRole('button', { name: 'Preview', exact: true }).click();
  const preview = page.getByRole('table', { name: 'Preview lines' });
  await preview.waitFor();
  // the preview's subtotal is the row's amount before tax
  expect(await preview.locator('tbody tr', { hasText: 'Subtotal' }).locator('td').last().innerText()).toBe(cells[3]);
  await audit(page, 'New invoice (prefilled) at 1280 px');
  await form.getByRole('button', { name: 'Create invoice' }).click();
  const detail = page.locator('div.invoice-detail[role="region"]');
  await detail.getByTestId('invoice-status').filter({ hasText: 'draft' }).waitFor();
  // the client's time is on the draft now: its row left the unbilled list
  await page.locator(`tr[data-unbilled-client="${clientId}"]`).waitFor({ state: 'detached' });
  expect(entryPages.every((q) => q.includes('limit=100'))).toBe(true); // the detail reads its entries by page
  expect(entryPages.length).toBeGreaterThan(0);

  // edit the draft: its own address, a live preview of the totals, Save with a busy state, the result focused
  await detail.getByRole('link', { name: 'Edit draft' }).click();
  const editor = page.getByRole('form', { name: 'Edit draft' });
  await editor.waitFor();
  expect(new URL(page.url()).hash).toMatch(/\?edit=1$/);
  const live = page.getByRole('table', { name: 'Draft preview lines' });
  const subtotal = await live.locator('tbody tr', { hasText: 'Subtotal' }).locator('td').last().innerText();
  await editor.getByLabel('Tax rate (%)', { exact: true }).fill('19');
  await live.locator('tbody tr.tax td', { hasText: 'Tax (19 %)' }).waitFor();
  const liveTax = await live.locator('tbody tr.tax td').last().innerText();
  const liveTotal = await live.locator('tbody tr.total td').last().innerText();
  expect(liveTax).not.toMatch(/^\D*0[.,]00\D*$/); // 19 % of a subtotal above 0
  await editor.getByLabel('Line 1 description', { exact: true }).fill('Design and build, as agreed');
  await live.locator('tbody td', { hasText: 'Design and build, as agreed' }).waitFor();
  await editor.getByLabel('Notes', { exact: true }).fill('Thank you for your business.');
  await editor.getByLabel('Due date', { exact: true }).fill('2030-01-31');
  await audit(page, 'Edit draft at 1280 px');
  // a refused value: the field names the error, nothing is saved
  await editor.getByLabel('Line 1 description', { exact: true }).fill('Zero\u200bwidth');
  await editor.getByRole('button', { name: 'Save draft' }).click();
  await editor.getByRole('alert').filter({ hasText: 'zero-width' }).waitFor();
  await editor.getByLabel('Line 1 description', { exact: true }).fill('Design and build, as agreed');
  await editor.getByRole('button', { name: 'Save draft' }).click();
  await editor.waitFor({ state: 'detached' });
  const lines = detail.getByRole('table', { name: 'Invoice lines' });
  expect(await lines.locator('tbody tr').first().locator('td').first().innerText()).toBe('Design and build, as agreed');
  expect(await lines.locator('tbody tr', { hasText: 'Subtotal' }).locator('td').last().innerText()).toBe(subtotal);
  // the saved totals are those the live preview showed
  expect([await lines.locator('tbody tr.tax td').last().innerText(), await lines.locator('tbody tr.total td').last().innerText()]).toEqual([liveTax, liveTotal]);
  expect(await detail.innerText()).toContain('due 2030-01-31');
  expect(await detail.innerText()).toContain('Thank you for your business.');
  await until(page, "/^Invoice [^ ]+$/.test(document.activeElement?.getAttribute('aria-label') ?? '')"); // the detail region (not one of its tables), focused in an effect: waited for
  expect(new URL(page.url()).hash).not.toContain('edit=1');

  // what the button does, said: nothing is e-mailed
  expect(await detail.getByRole('button', { name: 'Send invoice' }).count()).toBe(0);
  await detail.getByRole('button', { name: 'Finalize and mark sent' }).click();
  await detail.getByTestId('invoice-status').filter({ hasText: 'sent' }).waitFor();
  expect(await detail.getByRole('link', { name: 'Edit draft' }).count()).toBe(0);

  // 390 px: the section, the prefilled form and the editor of another draft
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${run.base}/console#/invoices`);
  await unbilled.waitFor();
  await audit(page, 'Invoices at 390 px');
  const other = rows.filter({ has: page.getByRole('link', { name: /^Invoice this: / }) }).first();
  if ((await other.count()) > 0) {
    await other.getByRole('link', { name: /^Invoice this: / }).click();
    await form.waitFor();
    await audit(page, 'New invoice at 390 px');
  }
  const draftRow = page.locator('tr[data-invoice-id]', { has: page.locator('td.status-draft') }).first();
  await draftRow.getByRole('link').click();
  await page.getByRole('link', { name: 'Edit draft' }).click();
  await editor.waitFor();
  await audit(page, 'Edit draft at 390 px');
  // the one refusal provoked above (the zero-width space) is the browser's only logged failure
  expect(problems).toEqual(['console error: Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  await page.close();
});

/** `/v1` with an API key: the parsed answer, or a thrown error naming the status and body. */
async function v1<T>(path: string, key: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const r = await fetch(`${run.base}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'X-API-Key': key, ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${r.status} ${text}`);
  return JSON.parse(text) as T;
}
const focused = (page: Page) =>
  page.evaluate<{ tag: string; label: string | null; entry: string | null }>(
    "({ tag: document.activeElement?.tagName ?? '', label: document.activeElement?.getAttribute('aria-label') ?? null, entry: document.activeElement?.getAttribute('data-entry-id') ?? null })",
  );

test('"Show more entries" on an invoice of 105 entries: the next page appears, the focus on its first row, every entry once, the count right; keyboard only', async () => {
  // a key with room for the 107 writes (the demo key allows 60 a minute): the admin CLI against npm start's DynamoDB Local
  const made = await admin(run.dynamo, 'keys', 'create', '--workspace', 'demo', '--name', 'bulk', '--scopes', 'all', '--per-minute', '1000', '--per-hour', '5000', '--json');
  expect(made.code).toBe(0);
  const key = (JSON.parse(made.stdout) as { key: string }).key;
  const clientId = (await v1<{ id: string }>('/v1/clients', key, { method: 'POST', body: { name: 'Many Entries Ltd', currency: 'EUR' } })).id;
  const projectId = (await v1<{ id: string }>('/v1/projects', key, { method: 'POST', body: { name: 'Support', clientId, billable: true, hourlyRate: 100 } })).id;
  // 105 stopped, billable entries of 30 minutes in October 2026, 8 a day, 40 minutes apart; notes name their order
  const COUNT = 105;
  const notes = Array.from({ length: COUNT }, (_, i) => `Ticket ${String(i + 1).padStart(3, '0')}`);
  const starts = notes.map((_, i) => Date.UTC(2026, 9, 1 + Math.floor(i / 8), 8) + (i % 8) * 40 * 60_000);
  for (let i = 0; i < COUNT; i += 8)
    await Promise.all(
      notes.slice(i, i + 8).map((n, j) =>
        v1('/v1/time-entries', key, {
          method: 'POST',
          body: {
            userId: 'dana',
            projectId,
            clientId,
            billable: true,
            notes: n,
            startTime: new Date(starts[i + j]!).toISOString(),
            endTime: new Date(starts[i + j]! + 30 * 60_000).toISOString(),
          },
        }),
      ),
    );

  const page = await newPage({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  await signIn(page);
  // "Invoice this" of that client, from the keyboard: its row says 105 entries
  const row = page.locator(`tr[data-unbilled-client="${clientId}"]`);
  await row.waitFor();
  expect(await row.locator('td[data-label="Entries"]').innerText()).toBe(String(COUNT));
  await row.getByRole('link', { name: 'Invoice this: Many Entries Ltd' }).focus();
  await page.keyboard.press('Enter');
  const form = page.getByRole('form', { name: 'New invoice' });
  await form.waitFor();
  await form.getByRole('button', { name: 'Create invoice' }).focus();
  await page.keyboard.press('Enter');
  const detail = page.locator('div.invoice-detail[role="region"]');
  await detail.getByTestId('invoice-status').filter({ hasText: 'draft' }).waitFor();
  const table = detail.getByRole('table', { name: 'Invoice time entries' });
  const ids = () => table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-entry-id')));
  const works = () => table.locator('tbody td[data-label="Work"]').allInnerTexts();

  // the first page: 100 entries, oldest first, a note that more exist, and the button
  expect(await ids()).toHaveLength(100);
  expect(await works()).toEqual(notes.slice(0, 100));
  expect(await detail.getByRole('heading', { name: 'Time entries (100)' }).count()).toBe(1);
  expect(await detail.getByText('The first 100 entries are shown.').count()).toBe(1);
  const more = detail.getByRole('button', { name: 'Show more entries' });
  await more.focus();
  await page.keyboard.press('Enter');

  // the next page: the 5 others appended, the focus on the first of them, the status says what happened
  await detail.getByRole('heading', { name: `Time entries (${COUNT})` }).waitFor();
  const all = await ids();
  expect(all).toHaveLength(COUNT);
  expect(new Set(all).size).toBe(COUNT); // no entry twice
  expect(await works()).toEqual(notes); // every entry, in order
  await until(page, `document.activeElement?.getAttribute('data-entry-id') === ${JSON.stringify(all[100])}`, 10_000);
  expect(await focused(page)).toEqual({ tag: 'TR', label: null, entry: all[100] });
  expect(await detail.getByRole('status').innerText()).toBe(`5 more time entries shown: ${COUNT}, all of them.`);
  expect(await more.count()).toBe(0); // the last page: no button, no note
  expect(await detail.getByText(/^The first \d+ entries are shown\.$/).count()).toBe(0);
  // the invoice bills them all: 105 x 30 minutes at 100 EUR an hour
  expect(await detail.getByRole('table', { name: 'Invoice lines' }).locator('tbody tr.total td').last().innerText()).toBe('€5,250.00');
  await audit(page, 'Invoice of 105 entries, all shown, at 1280 px');
  await page.setViewportSize({ width: 390, height: 844 });
  await audit(page, 'Invoice of 105 entries, all shown, at 390 px');
  await page.close();
});

test('"Record payment": busy while it is recorded, a partial payment makes the invoice partially paid with the amount due, refused amounts (over the amount due, zero) are named beside the field and change nothing, the rest makes it paid; result announced and focused', async () => {
  const demoKey = run.printed(/Demo API key[^\n]*\n\n\s+(svc_live_\S+)/);
  const page = await newPage({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
  await signIn(page);
  // a sent invoice of the demo (the seed sends one): opened from the list
  const sentRow = page.locator('tr[data-invoice-id]', { has: page.locator('td.status-sent') }).first();
  await sentRow.waitFor();
  const invoiceId = (await sentRow.getAttribute('data-invoice-id'))!;
  await sentRow.getByRole('link').click();
  const detail = page.locator('div.invoice-detail[role="region"]');
  const status = detail.getByTestId('invoice-status');
  await status.filter({ hasText: 'sent' }).waitFor();
  const pay = detail.getByRole('form', { name: 'Record payment' });
  const amount = pay.getByLabel(/^Amount \(/);
  const due = Number(await amount.inputValue()); // prefilled with the amount due: the total
  const before = await v1<{ total: number; amountDue: number; status: string; payments?: unknown[] }>(`/v1/invoices/${invoiceId}`, demoKey);
  expect([before.status, before.amountDue, before.payments]).toEqual(['sent', before.total, undefined]);
  expect(due).toBe(before.total);
  const usd = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n);
  const first = Math.round((due / 3) * 100) / 100;
  const rest = Math.round((due - first) * 100) / 100;
  await audit(page, 'Record payment at 390 px');

  // a partial payment, from the keyboard; the button is busy while the request runs (held until that is seen)
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/invoices/*/pay', async (route) => {
    await held;
    await route.continue();
  });
  await pay.getByLabel('Paid on').fill('2026-11-20');
  await amount.fill(String(first));
  await pay.getByLabel('Reference').fill('SEPA 4411');
  await pay.getByRole('button', { name: 'Record payment' }).focus();
  await page.keyboard.press('Enter');
  const button = pay.getByRole('button', { name: 'Record payment' });
  await until(page, `document.querySelector('form[aria-label="Record payment"] button[type=submit]')?.getAttribute('aria-busy') === 'true'`, 10_000);
  expect(await button.isDisabled()).toBe(true);
  release(); // (the route lets every later payment through at once)
  await status.filter({ hasText: 'partially paid' }).waitFor();
  expect(await detail.getByTestId('amount-due').innerText()).toBe(`Amount due: ${usd(rest)}`);
  const payments = detail.getByRole('table', { name: 'Payments' });
  expect(await payments.locator('tbody tr').allInnerTexts()).toHaveLength(1);
  expect(await payments.locator('tbody td[data-label="Reference"]').innerText()).toBe('SEPA 4411');
  expect(await payments.locator('tbody td[data-label="Paid on"]').innerText()).toBe('2026-11-20');
  // announced, and the payments (the result) have the focus
  const number = (await detail.getByRole('heading').first().innerText()).replace('Invoice ', '');
  expect(await detail.getByRole('status').innerText()).toBe(`Invoice ${number} partially paid: ${usd(rest)} still due.`);
  await until(page, "document.activeElement?.getAttribute('aria-label') === 'Payments'", 10_000);
  expect(await amount.inputValue()).toBe(String(rest)); // the form now offers what is still due
  await page.locator(`tr[data-invoice-id="${invoiceId}"] td[data-label="Status"]`).filter({ hasText: 'partially paid' }).waitFor(); // the list follows
  await audit(page, 'Partially paid at 390 px');

  // refused: more than is due, then zero; the error beside the amount, the field focused, nothing recorded
  for (const [refused, says] of [
    [Math.round((rest + 0.01) * 100) / 100, 'must be at most the amount due'],
    [0, 'must be greater than 0'],
  ] as const) {
    await amount.fill(String(refused));
    await pay.getByRole('button', { name: 'Record payment' }).click();
    // waits for this refusal's own message (the previous one is still on screen until the answer comes)
    const error = pay.locator('.field-error').filter({ hasText: says });
    await error.waitFor();
    expect(await amount.getAttribute('aria-invalid')).toBe('true');
    expect(await amount.getAttribute('aria-describedby')).toBe(await error.getAttribute('id'));
    await until(
      page,
      `document.activeElement?.getAttribute('aria-invalid') === 'true' && document.activeElement?.id === ${JSON.stringify(await amount.getAttribute('id'))}`,
      10_000,
    );
    expect(await status.innerText()).toBe('partially paid');
    expect(await payments.locator('tbody tr').count()).toBe(1);
    const now = await v1<{ amountDue: number; status: string; payments: unknown[] }>(`/v1/invoices/${invoiceId}`, demoKey);
    expect([now.status, now.amountDue, now.payments.length]).toEqual(['partially_paid', rest, 1]);
  }
  await audit(page, 'A refused payment at 390 px');

  // the rest: paid, the form gone, the amount due 0
  await amount.fill(String(rest));
  await pay.getByRole('button', { name: 'Record payment' }).click();
  await status.filter({ hasText: /^paid$/ }).waitFor();
  expect(await detail.getByTestId('amount-due').innerText()).toBe(`Amount due: ${usd(0)}`);
  expect(await payments.locator('tbody tr').count()).toBe(2);
  expect(await detail.getByRole('form', { name: 'Record payment' }).count()).toBe(0);
  expect(await detail.getByRole('status').innerText()).toBe(`Invoice ${number} paid in full.`);
  await until(page, "document.activeElement?.getAttribute('aria-label') === 'Payments'", 10_000);
  const after = await v1<{ amountDue: number; status: string; payments: { amount: number }[] }>(`/v1/invoices/${invoiceId}`, demoKey);
  expect([after.status, after.amountDue, after.payments.map((p) => p.amount)]).toEqual(['paid', 0, [first, rest]]);
  await page.close();
});
