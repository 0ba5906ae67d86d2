import { DynamoCounter } from '../../bench/lib/dynamo-counter';
import { db, dynamoConfig } from '../../shared/data/db';
import { closeJob, openJob } from '../../shared/invoicing/store';
import { invoices as invoiceRepo } from '../../shared/data/repositories';
import { seedInvoices } from '../../shared/seed/seed-invoices';
import { deleteInvoice, voidInvoice } from '../../shared/invoicing/service';
import { apiClient, makeKey, newWorkspace, useTestTable } from '../support/harness';

/**
 * Deleting and voiding an invoice nothing carries the id of (a void one, or one not made from time): the
 * change writes against the one read of the invoice (its version guards the write) and checks, in its own
 * transaction, that no release of the invoice's entries is still running (the release job's item, keyed by
 * the invoice): 409 naming the invoice while one is, and nothing changes. The data calls: GetItem + the feed
 * position + the transaction (bench section 4's target for an update or delete).
 */
useTestTable();
process.env.CHANGES_GAP_TIMEOUT_MS = '0';
const api = apiClient();

async function workspace() {
  const ws = newWorkspace('inv-delete');
  const key = await makeKey(ws, { perMinute: 100_000, perHour: 100_000 });
  const seeded = await seedInvoices(ws, 4); // one of each status: draft, sent, paid, void
  const of = (status: string) => seeded.find((i) => i.status === status)!;
  return { ws, key, draft: of('draft'), sent: of('sent'), void: of('void') };
}

/** A release job left open for the invoice, as a void whose release has not finished leaves it. */
const releaseRunning = (workspaceId: string, invoice: { id: string; clientId: unknown }) =>
  openJob({
    workspaceId,
    invoiceId: invoice.id,
    kind: 'release',
    state: 'releasing',
    clientId: String(invoice.clientId),
    lo: '2026-03-01',
    hi: '2026-03-31',
    locked: 1,
    leaseUntil: Date.now() + 60_000,
    createdAt: new Date().toISOString(),
    token: 'test-release',
  });

test('DELETE /v1/invoices/{id} while its release still runs: 409 naming the invoice, nothing changes; once it is done, 200', async () => {
  const w = await workspace();
  await releaseRunning(w.ws, w.void);
  const refused = await api.del(`/v1/invoices/${w.void.id}`, { key: w.key });
  expect([refused.status, refused.body.error.code, refused.body.error.message]).toEqual([
    409,
    'CONFLICT',
    `Invoice ${w.void.number} is still releasing its entries; retry in a moment`,
  ]);
  expect((await api.get(`/v1/invoices/${w.void.id}`, { key: w.key })).body).toMatchObject({ id: w.void.id, status: 'void' });

  expect(await closeJob(w.ws, w.void.id, true)).toBe(true);
  expect((await api.del(`/v1/invoices/${w.void.id}`, { key: w.key })).status).toBe(200);
  expect((await api.get(`/v1/invoices/${w.void.id}`, { key: w.key })).status).toBe(404);
});

test('voiding while a release of the same invoice runs: 409, and the invoice keeps its status', async () => {
  const w = await workspace();
  await releaseRunning(w.ws, w.sent);
  await expect(voidInvoice(w.ws, w.sent.id)).rejects.toThrow(`Invoice ${w.sent.number} is still releasing its entries; retry in a moment`);
  expect((await invoiceRepo.get(w.ws, { id: w.sent.id })).status).toBe('sent');
  await closeJob(w.ws, w.sent.id, true);
  expect((await voidInvoice(w.ws, w.sent.id)).status).toBe('void');
});

test('the data calls of a delete and of a void: GetItem + the feed position + one transaction holding the release check', async () => {
  const w = await workspace();
  const counter = new DynamoCounter(dynamoConfig()).install(db());
  try {
    const calls = async (change: () => Promise<unknown>) => {
      counter.reset();
      await change();
      return counter.reset().map((c) => `${c.command}${c.feedPosition ? ' (position)' : ''}`);
    };
    const expected = ['GetItem', 'UpdateItem (position)', 'TransactWriteItems'];
    expect(await calls(() => deleteInvoice(w.ws, w.draft.id))).toEqual(expected);
    expect(await calls(() => voidInvoice(w.ws, w.sent.id))).toEqual(expected);
    expect(await calls(() => deleteInvoice(w.ws, w.sent.id))).toEqual(expected);
  } finally {
    counter.uninstall(db());
    counter.destroy();
  }
  expect(await invoiceRepo.getItem(w.ws, { id: w.draft.id })).toBeUndefined();
  expect(await invoiceRepo.getItem(w.ws, { id: w.sent.id })).toBeUndefined();
});
