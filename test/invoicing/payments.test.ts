import { listAudit } from '../../shared/data/audit';
import { cents } from '../../shared/domain/entities/invoices';
import { createFromTime, getInvoice, payInvoice, sendInvoice, voidInvoice } from '../../shared/invoicing/service';
import { tableSnapshot, useTestTable } from '../support/harness';
import { billableFixture } from './support';

/**
 * Payments (issue 32, item 5): `payInvoice` records { paidAt, amount, reference? }; several payments;
 * partially_paid until they reach the total, then paid; amountDue; each payment in the audit log; bad input
 * is refused naming the field and changes nothing; concurrent payments never pay more than the total.
 */
useTestTable();
process.env.CHANGES_GAP_TIMEOUT_MS = '0';

const PERIOD = { startDate: '2026-03-01', endDate: '2026-03-31' };
const actor = { id: 'owner@pay.test' };
const errorOf = async (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: { reason?: string; message?: string }) => ({ reason: e.reason, message: e.message }),
  );
const today = () => new Date().toISOString().slice(0, 10);
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** A sent invoice of 8 entries (an exact total in cents). */
async function sentInvoice() {
  const f = await billableFixture(8);
  const draft = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD, taxRate: 19 });
  return { ws: f.ws, invoice: await sendInvoice(f.ws, draft.id) };
}

test('two payments: partially_paid with amountDue, then paid when they reach the total; both listed and audited', async () => {
  const { ws, invoice } = await sentInvoice();
  expect(invoice).toMatchObject({ status: 'sent', amountDue: invoice.total });
  const part = Math.floor(cents(invoice.total) / 3) / 100;
  const first = await payInvoice(ws, invoice.id, { paidAt: '2026-04-10', amount: part, reference: 'SEPA 4411' }, { actor });
  expect(first).toMatchObject({
    status: 'partially_paid',
    amountDue: (cents(invoice.total) - cents(part)) / 100,
    payments: [{ paidAt: '2026-04-10', amount: part, reference: 'SEPA 4411' }],
  });
  expect(first.paidAt).toBeUndefined();
  const rest = first.amountDue!;
  const second = await payInvoice(ws, invoice.id, { paidAt: today(), amount: rest }, { actor });
  expect(second).toMatchObject({ status: 'paid', amountDue: 0, paidAt: `${today()}T00:00:00.000Z` });
  expect(second.payments!.map((p) => [p.paidAt, p.amount])).toEqual([
    ['2026-04-10', part],
    [today(), rest],
  ]);
  expect(new Set(second.payments!.map((p) => p.id)).size).toBe(2);
  expect(await getInvoice(ws, invoice.id)).toEqual(second);
  const audit = (await listAudit(ws, { limit: 10, filter: { action: 'invoice.paid' } })).items;
  expect(audit.map((a) => [a.actor, a.target.id, a.changes])).toEqual([
    [actor.id, invoice.id, { amount: { to: rest }, paidAt: { to: today() }, amountDue: { from: rest, to: 0 }, status: { from: 'partially_paid', to: 'paid' } }],
    [
      actor.id,
      invoice.id,
      {
        amount: { to: part },
        paidAt: { to: '2026-04-10' },
        reference: { to: 'SEPA 4411' },
        amountDue: { from: invoice.total, to: rest },
        status: { from: 'sent', to: 'partially_paid' },
      },
    ],
  ]);
  // paid: no more payments; a partially paid invoice is not voided
  expect(await errorOf(payInvoice(ws, invoice.id, { paidAt: today(), amount: 1 }))).toEqual({
    reason: 'conflict',
    message: `Invoice ${invoice.number!} is paid; only sent or partially_paid invoices can be paid`,
  });
});

test('refused, naming the field, changing nothing: amount 0, negative, over what is due, 3 decimals; paidAt in the future or not a date; unknown fields; a draft or void invoice (409)', async () => {
  const { ws, invoice } = await sentInvoice();
  await payInvoice(ws, invoice.id, { paidAt: '2026-04-10', amount: 1 });
  const before = await tableSnapshot();
  const due = (cents(invoice.total) - 100) / 100;
  const cases: Array<[unknown, string]> = [
    [{ paidAt: today(), amount: 0 }, 'amount'],
    [{ paidAt: today(), amount: -5 }, 'amount'],
    [{ paidAt: today(), amount: due + 0.01 }, 'amount'],
    [{ paidAt: today(), amount: 1.005 }, 'amount'],
    [{ paidAt: today() }, 'amount'],
    [{ paidAt: tomorrow(), amount: 1 }, 'paidAt'],
    [{ paidAt: '2026-02-30', amount: 1 }, 'paidAt'],
    [{ paidAt: '2026-04-10T10:00:00Z', amount: 1 }, 'paidAt'],
    [{ amount: 1 }, 'paidAt'],
    [{ paidAt: today(), amount: 1, reference: 'a\u202eb' }, 'reference'],
    [{ paidAt: today(), amount: 1, extra: true }, 'body'],
  ];
  for (const [body, field] of cases) {
    const e = await errorOf(payInvoice(ws, invoice.id, body as never));
    expect([body, e?.reason, e?.message?.split(':')[0]]).toEqual([body, 'invalid', field]);
  }
  expect((await errorOf(payInvoice(ws, invoice.id, { paidAt: today(), amount: due + 0.01 })))?.message).toBe(
    `amount: must be at most the amount due (${due.toFixed(2)} ${invoice.currency})`,
  );
  expect(await tableSnapshot()).toEqual(before);

  const f = await billableFixture(3);
  const draft = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD });
  expect(await errorOf(payInvoice(f.ws, draft.id, { paidAt: today(), amount: 1 }))).toMatchObject({ reason: 'conflict', message: expect.stringContaining('is draft') });
  await voidInvoice(f.ws, draft.id);
  expect(await errorOf(payInvoice(f.ws, draft.id, { paidAt: today(), amount: 1 }))).toMatchObject({ reason: 'conflict', message: expect.stringContaining('is void') });
  expect(await errorOf(payInvoice(f.ws, 'missing', { paidAt: today(), amount: 1 }))).toEqual({ reason: 'not-found', message: 'Invoice not found' });
});

test('concurrent: 8 payments of a quarter of the total at once: exactly 4 recorded, paid, never more than the total; the rest refused', async () => {
  const { ws, invoice } = await sentInvoice();
  // a total divisible into quarters in cents: pay the odd cents first
  const odd = cents(invoice.total) % 4;
  if (odd > 0) await payInvoice(ws, invoice.id, { paidAt: today(), amount: odd / 100 });
  const quarter = (cents(invoice.total) - odd) / 4 / 100;
  const results = await Promise.allSettled(Array.from({ length: 8 }, () => payInvoice(ws, invoice.id, { paidAt: today(), amount: quarter })));
  const ok = results.filter((r) => r.status === 'fulfilled');
  expect(ok).toHaveLength(4);
  for (const r of results) if (r.status === 'rejected') expect(['invalid', 'conflict']).toContain((r.reason as { reason: string }).reason);
  const after = await getInvoice(ws, invoice.id);
  expect(after).toMatchObject({ status: 'paid', amountDue: 0 });
  expect(after.payments!.reduce((s, p) => s + cents(p.amount), 0)).toBe(cents(invoice.total));
  expect(after.payments).toHaveLength(odd > 0 ? 5 : 4);
});
