import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readChanges } from '../../shared/data/changes';
import { clients, createInvoice, projects, timeEntries } from '../../shared/data/repositories';
import { cents } from '../../shared/domain/entities/invoices';
import { addDays } from '../../shared/invoicing/rules';
import { formatMoney, renderInvoicePdf } from '../../shared/services/invoice-pdf';
import {
  createFromTime,
  deleteInvoice,
  getInvoice,
  invoiceEntries,
  invoiceEveryClient,
  listInvoices,
  payInvoice,
  previewFromTime,
  sendInvoice,
  updateDraft,
  voidInvoice,
} from '../../shared/invoicing/service';
import { tableSnapshot, useTestTable } from '../support/harness';
import { billableFixture, makeEntries, writeEntries as writeTimeEntries, type BillableFixture } from './support';

/**
 * Invoices made from billable time (shared/invoicing/service.ts), item 1 of issue 24: the lines (by
 * project, task or entry; hours to 2 decimals; amounts in cents), currency, tax, due date, numbering,
 * the refusals (409 naming projects or the status), preview, draft changes, transitions, the PDF.
 */
useTestTable();
process.env.CHANGES_GAP_TIMEOUT_MS = '0';

const PERIOD = { startDate: '2026-03-01', endDate: '2026-03-31' };
/**
 * The text of a PDF, read by pdf-parse (pdf.js) in a plain Node process: pdf.js loads its worker with a
 * dynamic import, which jest's module sandbox does not allow.
 */
function pdfText(bytes: Uint8Array): string {
  const file = join(mkdtempSync(join(tmpdir(), 'invoice-pdf-')), 'invoice.pdf');
  writeFileSync(file, bytes);
  const script =
    "const { PDFParse } = require('pdf-parse'); const p = new PDFParse({ data: require('fs').readFileSync(process.argv[1]) }); p.getText().then((r) => { process.stdout.write(r.text); return p.destroy(); });";
  return execFileSync(process.execPath, ['-e', script, file], { cwd: join(__dirname, '../..'), encoding: 'utf8' });
}
const today = () => new Date().toISOString().slice(0, 10);
/** An invoice the admin CLI could write (one line of 1). */
const validDraft = (clientId: string) => ({
  number: null,
  clientId,
  status: 'draft',
  issueDate: '2026-01-01',
  dueDate: '2026-01-31',
  currency: 'EUR',
  lineItems: [{ description: 'x', quantity: 1, unitPrice: 1, amount: 1 }],
  subtotal: 1,
  tax: 0,
  total: 1,
});

/** The expected lines, computed from the entries by brute force. */
function expectedLines(f: BillableFixture, key: (e: BillableFixture['entries'][number]) => string, rateOf: (k: string) => number) {
  const minutes = new Map<string, number>();
  for (const e of f.entries) minutes.set(key(e), (minutes.get(key(e)) ?? 0) + Number(e.durationMinutes));
  return [...minutes].map(([k, m]) => {
    // issue 32: the hours shown rounded, the amount from the exact minutes, rounded once
    const quantity = Math.round((m / 60) * 100) / 100;
    return { key: k, quantity, unitPrice: rateOf(k), amount: Math.round((Math.round(rateOf(k) * 100) * m) / 60) / 100 };
  });
}
const errorOf = async (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: { reason?: string; message: string }) => ({ reason: e.reason, message: e.message }),
  );

describe('lines, totals, currency, number, due date', () => {
  test('by project (default): hours to 2 decimals, unit price = the rate, cents; tax %; client currency; no number (a draft); due +30 days; every entry locked with one event', async () => {
    const f = await billableFixture(40);
    const inv = await createFromTime({ workspaceId: f.ws, actor: { id: 'owner-1' }, clientId: f.clientId, ...PERIOD, taxRate: 19 });
    const rates = new Map(f.projectIds.map((id, i) => [id, [100, 80.5][i]!]));
    const expected = expectedLines(
      f,
      (e) => String(e.projectId),
      (k) => rates.get(k)!,
    );
    expect(inv.lineItems.map((li) => ({ quantity: li.quantity, unitPrice: li.unitPrice, amount: li.amount }))).toEqual(
      expected.sort((a, b) => f.projectIds.indexOf(a.key) - f.projectIds.indexOf(b.key)).map(({ key: _k, ...rest }) => rest),
    );
    expect(inv.lineItems.map((li) => li.description)).toEqual(['Project A', 'Project B']);
    const subtotal = expected.reduce((s, l) => s + cents(l.amount), 0);
    expect(cents(inv.subtotal)).toBe(subtotal);
    expect(cents(inv.tax)).toBe(Math.round(subtotal * 0.19));
    expect(cents(inv.total)).toBe(subtotal + Math.round(subtotal * 0.19));
    expect(inv).toMatchObject({ number: null, status: 'draft', currency: 'EUR', taxRate: 19, issueDate: today(), dueDate: addDays(today(), 30), clientId: f.clientId });

    const onIt = await invoiceEntries(f.ws, inv.id);
    expect(onIt.map((e) => e.id).sort()).toEqual(f.entries.map((e) => e.id).sort());
    expect(onIt.every((e) => e.invoiceId === inv.id)).toBe(true);
    const { events } = await readChanges(f.ws, { after: 0, limit: 10_000 });
    const locks = events.filter((e) => e.type === 'time-entry.updated');
    expect(locks.map((e) => e.resourceId).sort()).toEqual(f.entries.map((e) => e.id).sort());
    expect(locks.every((e) => e.data.invoiceId === inv.id)).toBe(true);
    expect(events.filter((e) => e.type === 'invoice.created').map((e) => e.resourceId)).toEqual([inv.id]);
  });

  test('by task and by entry; the project currency wins over the client one', async () => {
    const f = await billableFixture(12, { rates: [100, 80.5, 70], projectCurrency: ['USD', 'USD', 'USD'] });
    const byTask = await previewFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD, lines: 'task' });
    // entry i is on project i % 3, with the project's task when i is even
    const labels = ['A', 'B', 'C'].flatMap((p, i) => [`Project ${p} / (no task)`, `Project ${p} / Task ${i}`]);
    expect(byTask.lineItems.map((l) => l.description)).toEqual(labels);
    expect(byTask.currency).toBe('USD');
    const byEntry = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD, lines: 'entry', issueDate: '2026-04-01' });
    expect(byEntry.lineItems).toHaveLength(12);
    expect(byEntry.lineItems[0]!.description).toBe(`${f.entries[0]!.startTime.slice(0, 10)} Project A: Work 0`);
    expect(byEntry.lineItems.every((l, i) => l.quantity === Math.round((Number(f.entries[i]!.durationMinutes) / 60) * 100) / 100)).toBe(true);
    expect(byEntry).toMatchObject({ currency: 'USD', issueDate: '2026-04-01', dueDate: '2026-05-01', tax: 0 });
  });

  test('409s: mixed currencies and missing rates name the projects; nothing to invoice; 400 beyond 200 lines; a taken number', async () => {
    const mixed = await billableFixture(4, { projectCurrency: ['USD', 'GBP'] });
    const e1 = await errorOf(createFromTime({ workspaceId: mixed.ws, clientId: mixed.clientId, ...PERIOD }));
    expect(e1).toEqual({ reason: 'conflict', message: expect.stringMatching(/one currency.*GBP: Project B.*USD: Project A|USD: Project A.*GBP: Project B/) });

    const noRate = await billableFixture(4);
    await projects.update(noRate.ws, { id: noRate.projectIds[1]! }, { hourlyRate: null });
    const e2 = await errorOf(createFromTime({ workspaceId: noRate.ws, clientId: noRate.clientId, ...PERIOD }));
    expect(e2).toEqual({ reason: 'conflict', message: expect.stringContaining('without an hourly rate cannot be invoiced: set the rate of Project B') });

    const e3 = await errorOf(createFromTime({ workspaceId: noRate.ws, clientId: noRate.clientId, startDate: '2025-01-01', endDate: '2025-01-31' }));
    expect(e3).toEqual({ reason: 'conflict', message: expect.stringContaining('Nothing to invoice') });

    const many = await billableFixture(201, { rates: [50] });
    const e4 = await errorOf(createFromTime({ workspaceId: many.ws, clientId: many.clientId, ...PERIOD, lines: 'entry' }));
    expect(e4).toEqual({ reason: 'invalid', message: expect.stringContaining('at most 200') });

    await createInvoice(many.ws, {
      number: 'INV-000042',
      clientId: many.clientId,
      status: 'sent',
      issueDate: '2026-01-01',
      dueDate: '2026-01-31',
      currency: 'EUR',
      lineItems: [{ description: 'x', quantity: 1, unitPrice: 1, amount: 1 }],
      subtotal: 1,
      tax: 0,
      total: 1,
    });
    // the sequence's form is the sequence's alone (issue 32: a custom number never takes one sending would give)
    const e5 = await errorOf(createFromTime({ workspaceId: many.ws, clientId: many.clientId, ...PERIOD, number: 'inv-000042' }));
    expect(e5).toEqual({ reason: 'invalid', message: expect.stringContaining("number: must not look like the workspace's sequence") });
    await createInvoice(many.ws, { ...validDraft(many.clientId), number: 'C-42', status: 'void' });
    const e5b = await errorOf(createFromTime({ workspaceId: many.ws, clientId: many.clientId, ...PERIOD, number: 'c-42' }));
    expect(e5b).toEqual({ reason: 'conflict', message: expect.stringContaining('already exists') });
    // nothing was locked by the refusals
    expect((await timeEntries.page(many.ws, { where: { invoiced: 'true' } })).items).toEqual([]);
    // sending continues after the highest number taken (a seeded or hand-given one)
    const next = await createFromTime({ workspaceId: many.ws, clientId: many.clientId, ...PERIOD });
    expect(next.number).toBeNull();
    expect((await sendInvoice(many.ws, next.id)).number).toBe('INV-000043');

    const e6 = await errorOf(createFromTime({ workspaceId: many.ws, clientId: 'nope', ...PERIOD }));
    expect(e6).toEqual({ reason: 'invalid', message: expect.stringContaining('clientId') });
    const e7 = await errorOf(createFromTime({ workspaceId: many.ws, clientId: many.clientId, startDate: '2026-03-02', endDate: '2026-03-01' }));
    expect(e7?.reason).toBe('invalid');
    const e8 = await errorOf(createFromTime({ workspaceId: many.ws, clientId: many.clientId, ...PERIOD, issueDate: '2026-04-10', dueDate: '2026-04-01' }));
    expect(e8).toEqual({ reason: 'invalid', message: 'dueDate: must not be before issueDate' });
    const e9 = await errorOf(createFromTime({ workspaceId: many.ws, clientId: many.clientId, ...PERIOD, taxRate: 101 }));
    expect(e9?.reason).toBe('invalid');
  });

  test('only billable, stopped, not yet invoiced entries of the client in the period (days inclusive)', async () => {
    const f = await billableFixture(6);
    const other = await clients.create(f.ws, { name: 'Other', currency: 'EUR' });
    const otherProject = await projects.create(f.ws, { name: 'Other P', clientId: other.id, hourlyRate: 10 });
    const extra = [
      ...makeEntries(1, other.id, [otherProject.id], []), // another client
      ...makeEntries(1, f.clientId, f.projectIds, f.taskIds, Date.UTC(2026, 1, 28, 23, 59)), // the day before
      ...makeEntries(1, f.clientId, f.projectIds, f.taskIds, Date.UTC(2026, 3, 1, 0, 0)), // the day after
    ];
    const notBillable = { ...makeEntries(1, f.clientId, f.projectIds, f.taskIds, Date.UTC(2026, 2, 31, 23, 0))[0]!, billable: false };
    const lastMinute = makeEntries(1, f.clientId, f.projectIds, f.taskIds, Date.UTC(2026, 2, 31, 23, 59))[0]!;
    await writeTimeEntries(f.ws, [...extra, notBillable, lastMinute]);
    const running = await timeEntries.create(f.ws, { userId: 'u9', projectId: f.projectIds[0], startTime: '2026-03-10T10:00:00Z' });
    const preview = await previewFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD });
    expect(preview.entryCount).toBe(7);
    expect(preview.lineEntries.flat().sort()).toEqual([...f.entries.map((e) => e.id), lastMinute.id].sort());
    expect(preview.lineEntries.flat()).not.toContain(running.id);
  });
});

describe('preview, sequence, draft changes, transitions, list, PDF', () => {
  test('preview writes nothing and shows what create makes', async () => {
    const f = await billableFixture(10);
    const before = await tableSnapshot();
    const preview = await previewFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD, taxRate: 7.5, notes: 'Thanks' });
    expect(await tableSnapshot()).toEqual(before);
    const inv = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD, taxRate: 7.5, notes: 'Thanks' });
    expect({ ...preview, entryCount: undefined, lineEntries: undefined }).toEqual({
      clientId: inv.clientId,
      number: inv.number,
      issueDate: inv.issueDate,
      dueDate: inv.dueDate,
      currency: inv.currency,
      lineItems: inv.lineItems,
      subtotal: inv.subtotal,
      tax: inv.tax,
      total: inv.total,
      taxRate: 7.5,
      notes: 'Thanks',
      entryCount: undefined,
      lineEntries: undefined,
    });
    // once invoiced, the same period has nothing left
    expect(await errorOf(previewFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD }))).toMatchObject({ reason: 'conflict' });
  });

  test('numbers: 8 drafts made at once have none; sent at once they get INV-000001..INV-000008, no gap, no repeat', async () => {
    const f = await billableFixture(0);
    const clientIds: string[] = [];
    for (let i = 0; i < 8; i++) {
      const c = await clients.create(f.ws, { name: `C${i}`, currency: 'EUR' });
      const p = await projects.create(f.ws, { name: `P${i}`, clientId: c.id, hourlyRate: 60 });
      await writeTimeEntries(f.ws, makeEntries(3, c.id, [p.id], []));
      clientIds.push(c.id);
    }
    const made = await Promise.all(clientIds.map((clientId) => createFromTime({ workspaceId: f.ws, clientId, ...PERIOD })));
    expect(made.map((i) => i.number)).toEqual(made.map(() => null));
    const sent = await Promise.all(made.map((i) => sendInvoice(f.ws, i.id)));
    expect(sent.map((i) => i.number).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `INV-${String(n).padStart(6, '0')}`));
  });

  test('a draft changes (number, dates, tax rate -> tax and total, notes, line descriptions); send, pay; other transitions are 409 naming the status', async () => {
    const f = await billableFixture(8);
    const inv = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD });
    const changed = await updateDraft(f.ws, inv.id, {
      number: 'A-7',
      issueDate: '2026-04-02',
      dueDate: '2026-04-20',
      taxRate: 20,
      notes: 'Net 18',
      lineDescriptions: ['Design', 'Build'],
    });
    expect(changed).toMatchObject({ number: 'A-7', issueDate: '2026-04-02', dueDate: '2026-04-20', taxRate: 20, notes: 'Net 18', subtotal: inv.subtotal });
    expect(changed.lineItems.map((l) => l.description)).toEqual(['Design', 'Build']);
    expect(cents(changed.tax)).toBe(Math.round(cents(inv.subtotal) * 0.2));
    expect(cents(changed.total)).toBe(cents(inv.subtotal) + cents(changed.tax));
    expect(await errorOf(updateDraft(f.ws, inv.id, { lineDescriptions: ['only one'] }))).toMatchObject({ reason: 'invalid' });
    expect(await errorOf(updateDraft(f.ws, inv.id, { dueDate: '2026-01-01' }))).toMatchObject({ reason: 'invalid', message: 'dueDate: must not be before issueDate' });
    expect(await errorOf(updateDraft(f.ws, inv.id, {}, { ifMatch: [1] }))).toMatchObject({ reason: 'precondition-failed' });
    expect((await updateDraft(f.ws, inv.id, { notes: null })).notes).toBeUndefined();

    const full = { paidAt: '2026-04-25', amount: changed.total };
    expect(await errorOf(payInvoice(f.ws, inv.id, full))).toEqual({ reason: 'conflict', message: 'Invoice A-7 is draft; only sent or partially_paid invoices can be paid' });
    const sent = await sendInvoice(f.ws, inv.id);
    expect(sent).toMatchObject({ status: 'sent', sentAt: expect.any(String) });
    expect(await errorOf(sendInvoice(f.ws, inv.id))).toEqual({ reason: 'conflict', message: 'Invoice A-7 is sent; only draft invoices can be sent' });
    expect(await errorOf(updateDraft(f.ws, inv.id, { notes: 'x' }))).toEqual({ reason: 'conflict', message: 'Invoice A-7 is sent; only draft invoices can be changed' });
    expect(await errorOf(deleteInvoice(f.ws, inv.id))).toEqual({ reason: 'conflict', message: 'Invoice A-7 is sent; only draft or void invoices can be deleted' });
    const paid = await payInvoice(f.ws, inv.id, full);
    expect(paid).toMatchObject({ status: 'paid', paidAt: '2026-04-25T00:00:00.000Z', amountDue: 0, payments: [{ paidAt: '2026-04-25', amount: changed.total }] });
    expect(await errorOf(voidInvoice(f.ws, inv.id))).toEqual({ reason: 'conflict', message: 'Invoice A-7 is paid; only draft or sent invoices can be voided' });
    expect(await errorOf(getInvoice(f.ws, 'missing'))).toEqual({ reason: 'not-found', message: 'Invoice not found' });
    expect(await errorOf(voidInvoice(f.ws, 'missing'))).toEqual({ reason: 'not-found', message: 'Invoice not found' });
  });

  test('list: the /v1 filters (status, clientId, issueDate range), paged', async () => {
    const f = await billableFixture(6);
    const a = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, startDate: '2026-03-01', endDate: '2026-03-10', issueDate: '2026-03-11' });
    const b = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, startDate: '2026-03-11', endDate: '2026-03-31', issueDate: '2026-04-01' });
    await sendInvoice(f.ws, b.id);
    expect((await listInvoices(f.ws)).items.map((i) => i.id)).toEqual([b.id, a.id]);
    expect((await listInvoices(f.ws, { status: 'sent' })).items.map((i) => i.id)).toEqual([b.id]);
    expect((await listInvoices(f.ws, { startDate: '2026-03-01', endDate: '2026-03-31' })).items.map((i) => i.id)).toEqual([a.id]);
    const first = await listInvoices(f.ws, { limit: 1, clientId: f.clientId });
    expect(first).toMatchObject({ hasMore: true, items: [{ id: b.id }] });
    expect((await listInvoices(f.ws, { limit: 1, clientId: f.clientId, cursor: first.nextCursor! })).items.map((i) => i.id)).toEqual([a.id]);
    expect(await errorOf(listInvoices(f.ws, { status: 'lost' as never }))).toMatchObject({ reason: 'invalid' });
  });

  test('the PDF: parsed back, its text holds the number, the client, each line and the totals in the currency', async () => {
    const f = await billableFixture(9, { currency: 'EUR' });
    const draft = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD, lines: 'task', taxRate: 19, notes: 'Bank transfer within 30 days' });
    const workspace = { workspace: { name: 'Studio North', address: 'Harbour 5\nHamburg' } };
    const draftText = pdfText(await renderInvoicePdf(f.ws, draft.id, workspace));
    expect(draftText).toContain('Invoice (draft)');
    // a draft's "From" follows the live sender: with no billing profile set, the fallback given
    expect(draftText).toContain('Studio North');
    const inv = await sendInvoice(f.ws, draft.id);
    const bytes = await renderInvoicePdf(f.ws, inv.id, workspace);
    const text = pdfText(bytes);
    expect(text).toContain(`Invoice ${inv.number!}`);
    expect(inv.number).toBe('INV-000001');
    expect(text).toContain('Acme Corp');
    // once sent, "Bill to" is the snapshot taken at the send (issue 32 item 5); no billing profile was set, so
    // the invoice keeps no "From" (it would hold the workspace id) and the document names the workspace
    expect(inv.billTo).toMatchObject({ name: 'Acme Corp' });
    expect(inv.from).toBeUndefined();
    expect(text).toContain('Studio North');
    expect(text).toContain('billing@acme.test');
    for (const li of inv.lineItems) expect(text).toContain(`${li.description} ${li.quantity.toFixed(2)} ${formatMoney(li.unitPrice, 'EUR')} ${formatMoney(li.amount, 'EUR')}`);
    expect(text).toContain(`Total ${formatMoney(inv.total, 'EUR')}`);
    expect(text).toContain(`Tax (19%) ${formatMoney(inv.tax, 'EUR')}`);
    expect(formatMoney(1234.5, 'EUR')).toBe('€1,234.50');
    expect(text).toContain('Bank transfer within 30 days');
  });
});

test('seed-friendly: invoiceEveryClient makes one invoice per client with billable time and skips the others with the reason', async () => {
  const f = await billableFixture(6);
  const idle = await clients.create(f.ws, { name: 'Idle client' });
  const { made, skipped } = await invoiceEveryClient(f.ws, PERIOD);
  expect(made.map((i) => i.clientId)).toEqual([f.clientId]);
  expect(skipped).toEqual([{ clientId: idle.id, reason: expect.stringContaining('Nothing to invoice') }]);
});

test('invoiceEveryClient parses its period as every non-HTTP entry point does: a refused tax rate or date is a 400 naming the field, and nothing is written', async () => {
  const f = await billableFixture(3);
  const before = await tableSnapshot();
  for (const [period, field] of [
    [{ ...PERIOD, taxRate: 150 }, 'taxRate'],
    [{ ...PERIOD, taxRate: 19.12345 }, 'taxRate'],
    [{ ...PERIOD, issueDate: '2026-02-30' }, 'issueDate'],
    [{ startDate: 'March', endDate: PERIOD.endDate }, 'startDate'],
  ] as const) {
    await expect(invoiceEveryClient(f.ws, period)).rejects.toMatchObject({ reason: 'invalid', details: [expect.objectContaining({ field })] });
  }
  expect(await tableSnapshot()).toEqual(before);
});
