import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clients, projects } from '../../shared/data/repositories';
import { setBillingProfile, type BillingProfileInput } from '../../shared/invoicing/profile';
import { addDays } from '../../shared/invoicing/rules';
import { createFromTime, getInvoice, payInvoice, previewFromTime, sendInvoice, voidInvoice } from '../../shared/invoicing/service';
import { renderInvoicePdf } from '../../shared/services/invoice-pdf';
import { useTestTable } from '../support/harness';
import { billableFixture, makeEntries, writeEntries } from './support';

/**
 * Issue 32 items 5 (the snapshot half) and 6 against DynamoDB Local: a new invoice's defaults from the
 * workspace's billing profile (tax rate, notes from its footer, due date from its payment terms, currency when
 * neither project nor client sets one; what the create gives wins); the PDF's "From" is the profile (display
 * name, address, tax id, e-mail), else the workspace; sending copies "From" and "Bill to" into the invoice, so
 * the PDF text (pdf-parse) and the detail of a sent, paid or void invoice stay the same after the client is
 * renamed and the profile changed, while a draft's follow the live records.
 */
useTestTable();
jest.setTimeout(120_000);

const PERIOD = { startDate: '2026-03-01', endDate: '2026-03-31', issueDate: '2026-04-01' } as const;
const PROFILE: BillingProfileInput = {
  displayName: 'Studio North GmbH',
  address: 'Harbour 5\n20457 Hamburg',
  taxId: 'DE123456789',
  email: 'billing@studio-north.test',
  defaultCurrency: 'CHF',
  defaultTaxRate: 7.7,
  paymentTermsDays: 14,
  invoiceFooter: 'IBAN CH93 0076 2011 6238 5295 7, within 14 days',
};
const OWNER = { id: 'owner@studio-north.test' };

/** The text of a PDF by pdf-parse (pdf.js) in a plain Node process (pdf.js loads its worker with a dynamic import jest does not allow). */
function pdfText(bytes: Uint8Array): string {
  const file = join(mkdtempSync(join(tmpdir(), 'invoice-snapshot-')), 'invoice.pdf');
  writeFileSync(file, bytes);
  const script =
    "const { PDFParse } = require('pdf-parse'); const p = new PDFParse({ data: require('fs').readFileSync(process.argv[1]) }); p.getText().then((r) => { process.stdout.write(r.text); return p.destroy(); });";
  return execFileSync(process.execPath, ['-e', script, file], { cwd: join(__dirname, '../..'), encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
}

test('defaults from the profile: tax rate, notes (footer), due date (payment terms), currency when neither project nor client sets one; what the create gives wins', async () => {
  const f = await billableFixture(4, { label: 'snap-def' });
  // without a profile: 0 % tax, no notes, 30 days
  const bare = await previewFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD });
  expect([bare.taxRate, bare.notes, bare.dueDate]).toEqual([0, undefined, addDays(PERIOD.issueDate, 30)]);

  await setBillingProfile(f.ws, PROFILE, OWNER);
  const preview = await previewFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD });
  expect(preview).toMatchObject({ taxRate: 7.7, notes: PROFILE.invoiceFooter, dueDate: '2026-04-15', currency: 'EUR' }); // the client's EUR wins over the profile's CHF
  expect(preview.tax).toBe(Math.round(preview.subtotal * 7.7) / 100);
  const made = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD });
  expect(made).toMatchObject({ taxRate: 7.7, notes: PROFILE.invoiceFooter, dueDate: '2026-04-15', total: preview.total });

  // what the create gives wins
  const c = await clients.create(f.ws, { name: 'No currency client' });
  const p = await projects.create(f.ws, { name: 'No currency project', clientId: c.id, hourlyRate: 90 });
  await writeEntries(f.ws, makeEntries(3, c.id, [p.id], []));
  const given = await previewFromTime({ workspaceId: f.ws, clientId: c.id, ...PERIOD, taxRate: 0, notes: 'Own notes', dueDate: '2026-05-30' });
  expect(given).toMatchObject({ taxRate: 0, tax: 0, notes: 'Own notes', dueDate: '2026-05-30', currency: 'CHF' }); // no currency on project or client: the profile's
  // a profile without a default currency: that time cannot be invoiced (409 saying where a currency is set)
  await setBillingProfile(f.ws, { ...PROFILE, defaultCurrency: null }, OWNER);
  await expect(previewFromTime({ workspaceId: f.ws, clientId: c.id, ...PERIOD })).rejects.toMatchObject({
    reason: 'conflict',
    message: expect.stringContaining('billing profile'),
  });
});

test("the PDF's From: the profile (name, address, tax id, e-mail), else the workspace", async () => {
  const f = await billableFixture(2, { label: 'snap-from' });
  const draft = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD });
  const before = pdfText(await renderInvoicePdf(f.ws, draft.id));
  expect(before).toContain(`From\n${f.ws}\nBill to`);
  await setBillingProfile(f.ws, PROFILE, OWNER);
  const text = pdfText(await renderInvoicePdf(f.ws, draft.id));
  for (const shown of ['Studio North GmbH', 'Harbour 5', '20457 Hamburg', 'Tax ID: DE123456789', 'billing@studio-north.test', 'Acme Corp', 'billing@acme.test'])
    expect(text).toContain(shown);
  expect(text).not.toContain(f.ws);
});

test('sent, paid and void invoices keep their document: rename the client and change the profile, the PDF text and the detail are unchanged; a draft follows', async () => {
  const f = await billableFixture(6, { label: 'snap-send', rates: [100, 80, 120] });
  await setBillingProfile(f.ws, PROFILE, OWNER);
  const [a, b, c] = [
    // (the fixture's 6 entries start on March 1, 6, 11, 16, 21 and 26)
    await createFromTime({ workspaceId: f.ws, clientId: f.clientId, startDate: '2026-03-01', endDate: '2026-03-05', issueDate: '2026-04-01' }),
    await createFromTime({ workspaceId: f.ws, clientId: f.clientId, startDate: '2026-03-06', endDate: '2026-03-10', issueDate: '2026-04-01' }),
    await createFromTime({ workspaceId: f.ws, clientId: f.clientId, startDate: '2026-03-11', endDate: '2026-03-31', issueDate: '2026-04-01' }),
  ];

  const sent = await sendInvoice(f.ws, a.id, { actor: OWNER });
  expect(sent.billTo).toEqual({ name: 'Acme Corp', address: '1 Main Street\nSpringfield', email: 'billing@acme.test' });
  expect(sent.from).toEqual({ name: PROFILE.displayName, address: PROFILE.address, taxId: PROFILE.taxId, email: PROFILE.email });
  const sentB = await sendInvoice(f.ws, b.id);
  const paid = await payInvoice(f.ws, b.id, { paidAt: '2026-04-10', amount: sentB.total });
  const voided = await voidInvoice(f.ws, c.id); // voided as a draft: its document is fixed too
  expect(voided).toMatchObject({ status: 'void', billTo: { name: 'Acme Corp' }, from: { name: PROFILE.displayName } });
  const fixed = [sent, paid, voided].map((i) => i.id);
  const pdfs = new Map<string, string>();
  const details = new Map<string, unknown>();
  for (const id of fixed) {
    pdfs.set(id, pdfText(await renderInvoicePdf(f.ws, id)));
    details.set(id, await getInvoice(f.ws, id));
    expect(pdfs.get(id)).toContain('Acme Corp');
    expect(pdfs.get(id)).toContain('Tax ID: DE123456789');
  }

  // a draft made now follows the live records
  await writeEntries(f.ws, makeEntries(2, f.clientId, [f.projectIds[0]!], [], Date.UTC(2026, 4, 4, 8)));
  const liveDraft = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, startDate: '2026-05-01', endDate: '2026-05-31', issueDate: '2026-06-01' });
  expect([liveDraft.from, liveDraft.billTo]).toEqual([undefined, undefined]);

  // rename the client, change its address and e-mail, change the profile, rename a project
  await clients.update(f.ws, { id: f.clientId }, { name: 'Acme Renamed Ltd', address: '9 Other Road', email: 'ap@renamed.test' });
  await setBillingProfile(f.ws, { ...PROFILE, displayName: 'Studio South AG', address: 'Quay 1', taxId: 'CHE-999.999.999', email: 'new@studio-south.test' }, OWNER);
  await projects.update(f.ws, { id: f.projectIds[0]! }, { name: 'Renamed project', hourlyRate: 1 });

  for (const id of fixed) {
    const text = pdfText(await renderInvoicePdf(f.ws, id));
    expect(text).toBe(pdfs.get(id));
    expect(text).not.toContain('Renamed');
    expect(text).not.toContain('Studio South');
    expect(await getInvoice(f.ws, id)).toEqual(details.get(id));
  }
  const draftText = pdfText(await renderInvoicePdf(f.ws, liveDraft.id));
  for (const shown of ['Acme Renamed Ltd', '9 Other Road', 'ap@renamed.test', 'Studio South AG', 'Quay 1', 'Tax ID: CHE-999.999.999']) expect(draftText).toContain(shown);
  expect(draftText).not.toContain('Studio North');

  // sending the draft now copies the records as they are now
  const sentLater = await sendInvoice(f.ws, liveDraft.id);
  expect([sentLater.billTo?.name, sentLater.from?.name]).toEqual(['Acme Renamed Ltd', 'Studio South AG']);
});

test('sends racing a client rename and a profile change: each snapshot is one whole version of the client and of the profile, and the PDF shows exactly it', async () => {
  const f = await billableFixture(4, { label: 'snap-race' }); // entries on March 1, 8, 16 and 23
  await setBillingProfile(f.ws, { ...PROFILE, displayName: 'Studio v0', address: 'Quay v0' }, OWNER);
  await clients.update(f.ws, { id: f.clientId }, { name: 'Acme v0', address: 'Street v0' });
  const periods = [
    ['2026-03-01', '2026-03-07'],
    ['2026-03-08', '2026-03-15'],
    ['2026-03-16', '2026-03-22'],
    ['2026-03-23', '2026-03-31'],
  ] as const;
  const drafts = [];
  for (const [startDate, endDate] of periods) drafts.push(await createFromTime({ workspaceId: f.ws, clientId: f.clientId, startDate, endDate, issueDate: '2026-04-01' }));
  for (const [k, draft] of drafts.entries()) {
    const v = k + 1;
    const [sent] = await Promise.all([
      sendInvoice(f.ws, draft.id),
      clients.update(f.ws, { id: f.clientId }, { name: `Acme v${v}`, address: `Street v${v}` }),
      setBillingProfile(f.ws, { ...PROFILE, displayName: `Studio v${v}`, address: `Quay v${v}` }, OWNER),
    ]);
    // the version before or the version after, never half of each
    const client = /^Acme v(\d)$/.exec(sent.billTo!.name)?.[1];
    expect([k, v].map(String)).toContain(client);
    expect(sent.billTo!.address).toBe(`Street v${client}`);
    const studio = /^Studio v(\d)$/.exec(sent.from!.name)?.[1];
    expect([k, v].map(String)).toContain(studio);
    expect(sent.from!.address).toBe(`Quay v${studio}`);
    const text = pdfText(await renderInvoicePdf(f.ws, draft.id));
    expect(text).toContain(`From\nStudio v${studio}\nQuay v${studio}`);
    expect(text).toContain(`Bill to\nAcme v${client}\nStreet v${client}`);
  }
});
