import { clients, createInvoice, projects } from '../../shared/data/repositories';
import { createFromTime, deleteInvoice, getInvoice, previewFromTime, sendInvoice, updateDraft, voidInvoice } from '../../shared/invoicing/service';
import { tableSnapshot, useTestTable } from '../support/harness';
import { billableFixture, makeEntries, writeEntries } from './support';

/**
 * Numbers issued like Stripe's (issue 32, item 4): a draft has no number (`null`); sending (finalizing)
 * assigns the next of the workspace's sequence, consecutive with no gap among issued invoices, under
 * concurrent sends too; a deleted draft uses none; a custom number set on a draft is unique among every
 * number ever issued; an issued number is never issued again, even after void and delete.
 */
useTestTable();
process.env.CHANGES_GAP_TIMEOUT_MS = '0';

const PERIOD = { startDate: '2026-03-01', endDate: '2026-03-31' };
const seq = (n: number) => `INV-${String(n).padStart(6, '0')}`;
const errorOf = async (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: { reason?: string; message?: string }) => ({ reason: e.reason, message: e.message }),
  );

/** A workspace with `n` clients, each with 3 billable entries of March 2026 at 60/h. */
async function clientsWithTime(n: number) {
  const f = await billableFixture(0);
  const clientIds: string[] = [];
  for (let i = 0; i < n; i++) {
    const c = await clients.create(f.ws, { name: `C${i}`, currency: 'EUR' });
    const p = await projects.create(f.ws, { name: `P${i}`, clientId: c.id, hourlyRate: 60 });
    await writeEntries(f.ws, makeEntries(3, c.id, [p.id], []));
    clientIds.push(c.id);
  }
  return { ws: f.ws, clientIds };
}

test('a draft has no number (preview and draft); 6 drafts sent at once get 6 consecutive numbers, no gap, no repeat; a sent invoice is not sent twice', async () => {
  const { ws, clientIds } = await clientsWithTime(6);
  expect(await previewFromTime({ workspaceId: ws, clientId: clientIds[0]!, ...PERIOD })).toMatchObject({ number: null });
  const drafts = await Promise.all(clientIds.map((clientId) => createFromTime({ workspaceId: ws, clientId, ...PERIOD })));
  expect(drafts.map((d) => [d.status, d.number])).toEqual(drafts.map(() => ['draft', null]));
  const sent = await Promise.all(drafts.map((d) => sendInvoice(ws, d.id)));
  expect(sent.map((i) => i.number).sort()).toEqual([1, 2, 3, 4, 5, 6].map(seq));
  expect(sent.map((i) => i.status)).toEqual(sent.map(() => 'sent'));
  // what is stored says the same
  for (const s of sent) expect((await getInvoice(ws, s.id)).number).toBe(s.number);
  expect(await errorOf(sendInvoice(ws, sent[0]!.id))).toEqual({ reason: 'conflict', message: `Invoice ${sent[0]!.number!} is sent; only draft invoices can be sent` });
});

test('a deleted draft uses no number; a voided and deleted invoice keeps its number: sending goes on after it and nobody takes it again (409 naming it)', async () => {
  const { ws, clientIds } = await clientsWithTime(4);
  const [a, b, c, d] = clientIds as [string, string, string, string];
  const first = await sendInvoice(ws, (await createFromTime({ workspaceId: ws, clientId: a, ...PERIOD })).id);
  expect(first.number).toBe(seq(1));
  // a draft made and deleted: no number used
  const gone = await createFromTime({ workspaceId: ws, clientId: b, ...PERIOD });
  expect(await deleteInvoice(ws, gone.id)).toEqual({ deleted: true, id: gone.id });
  const second = await sendInvoice(ws, (await createFromTime({ workspaceId: ws, clientId: b, ...PERIOD })).id);
  expect(second.number).toBe(seq(2));
  // the first voided, then deleted: its number stays issued
  expect(await voidInvoice(ws, first.id)).toMatchObject({ status: 'void', number: seq(1) });
  expect(await deleteInvoice(ws, first.id)).toEqual({ deleted: true, id: first.id });
  const third = await sendInvoice(ws, (await createFromTime({ workspaceId: ws, clientId: c, ...PERIOD })).id);
  expect(third.number).toBe(seq(3));
  // written by hand (the admin CLI's path): refused, naming it, and nothing written
  const before = await tableSnapshot();
  const again = await errorOf(
    createInvoice(ws, {
      number: seq(1).toLowerCase(),
      clientId: d,
      status: 'sent',
      issueDate: '2026-04-01',
      dueDate: '2026-04-30',
      currency: 'EUR',
      lineItems: [{ description: 'x', quantity: 1, unitPrice: 1, amount: 1 }],
      subtotal: 1,
      tax: 0,
      total: 1,
    }),
  );
  expect(again).toEqual({ reason: 'conflict', message: expect.stringContaining(`"${seq(1).toLowerCase()}" already exists or existed in this workspace`) });
  expect(await tableSnapshot()).toEqual(before);
});

test('custom numbers: set on a draft (create or change), unique among every number ever issued, free again when a draft drops it; the sequence form is refused', async () => {
  const { ws, clientIds } = await clientsWithTime(4);
  const [a, b, c, d] = clientIds as [string, string, string, string];
  const custom = await createFromTime({ workspaceId: ws, clientId: a, ...PERIOD, number: 'ACME-7' });
  expect(custom.number).toBe('ACME-7');
  // another draft cannot take it (any case), neither on create nor by a change
  expect(await errorOf(createFromTime({ workspaceId: ws, clientId: b, ...PERIOD, number: 'acme-7' }))).toMatchObject({
    reason: 'conflict',
    message: expect.stringContaining('acme-7'),
  });
  const other = await createFromTime({ workspaceId: ws, clientId: b, ...PERIOD });
  expect(await errorOf(updateDraft(ws, other.id, { number: 'Acme-7' }))).toMatchObject({ reason: 'conflict', message: expect.stringContaining('Acme-7') });
  // a draft that drops its custom number frees it (it was never issued); null goes back to the sequence
  expect((await updateDraft(ws, custom.id, { number: null })).number).toBeNull();
  expect((await updateDraft(ws, other.id, { number: 'ACME-7' })).number).toBe('ACME-7');
  // sent with its custom number: the sequence is not used
  const sentCustom = await sendInvoice(ws, other.id);
  expect(sentCustom.number).toBe('ACME-7');
  expect((await sendInvoice(ws, custom.id)).number).toBe(seq(1));
  // issued, then void and deleted: the custom number is never taken again
  await voidInvoice(ws, sentCustom.id);
  await deleteInvoice(ws, sentCustom.id);
  expect(await errorOf(createFromTime({ workspaceId: ws, clientId: c, ...PERIOD, number: 'ACME-7' }))).toMatchObject({
    reason: 'conflict',
    message: expect.stringContaining('ACME-7'),
  });
  // a deleted draft's custom number comes free
  const dropped = await createFromTime({ workspaceId: ws, clientId: c, ...PERIOD, number: 'TEMP-1' });
  await deleteInvoice(ws, dropped.id);
  expect((await createFromTime({ workspaceId: ws, clientId: c, ...PERIOD, number: 'temp-1' })).number).toBe('temp-1');
  // the sequence's form is sending's alone (400 naming the field), so issued numbers stay consecutive
  for (const number of ['INV-000002', 'inv-1234567']) {
    expect(await errorOf(createFromTime({ workspaceId: ws, clientId: d, ...PERIOD, number }))).toMatchObject({ reason: 'invalid', message: expect.stringMatching(/^number: /) });
    expect(await errorOf(updateDraft(ws, custom.id, { number }))).toMatchObject({ reason: 'invalid' });
  }
  const next = await sendInvoice(ws, (await createFromTime({ workspaceId: ws, clientId: d, ...PERIOD })).id);
  expect(next.number).toBe(seq(2));
});

test('concurrent: 6 drafts sent at once while 3 more drafts are made and deleted: the sent ones hold 1..6, nothing else took a number', async () => {
  const { ws, clientIds } = await clientsWithTime(9);
  const drafts = await Promise.all(clientIds.slice(0, 6).map((clientId) => createFromTime({ workspaceId: ws, clientId, ...PERIOD })));
  const [sent] = await Promise.all([
    Promise.all(drafts.map((d) => sendInvoice(ws, d.id))),
    Promise.all(
      clientIds.slice(6).map(async (clientId) => {
        const d = await createFromTime({ workspaceId: ws, clientId, ...PERIOD });
        return deleteInvoice(ws, d.id);
      }),
    ),
  ]);
  expect(sent.map((i) => i.number).sort()).toEqual([1, 2, 3, 4, 5, 6].map(seq));
  const last = await sendInvoice(ws, (await createFromTime({ workspaceId: ws, clientId: clientIds[6]!, ...PERIOD })).id);
  expect(last.number).toBe(seq(7));
});
