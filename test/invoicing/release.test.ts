import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/data/db';
import { keys } from '../../shared/data/keys';
import { invoices as invoiceRepo } from '../../shared/data/repositories';
import { beginFromTime, continueInvoice, createFromTime, deleteInvoice, isReleasing, sweepInvoiceJobs, voidInvoice } from '../../shared/invoicing/service';
import { listJobs } from '../../shared/invoicing/store';
import { startInvoiceSweep } from '../../local/invoice-sweep';
import { apiClient, makeKey, useTestTable } from '../support/harness';
import { billableFixture, invoicingViolations, storedState, type BillableFixture } from './support';

/**
 * Issue 32, item 2: locks always come free.
 * - The sweep `npm start` runs every INVOICE_SWEEP_INTERVAL_MS (local/invoice-sweep.ts, the same sweep as
 *   functions/invoice-sweep in AWS) rolls back a create whose page stopped asking, with no other request,
 *   in the first sweep after INVOICE_STEP_LEASE_MS (so within the lease plus one interval).
 * - Void and delete release in steps: each call stops starting batches at its budget and answers the progress
 *   (the invoice says `releasing: true`), `continue` goes on; every entry is free at the end, no job left.
 * - A release and a delete of the same invoice at once: the delete is 409 until the release ended.
 * - DELETE /v1/invoices/{id} answers 202 when its release does not end within the budget; the sweep finishes it.
 */
useTestTable();
jest.setTimeout(900_000);
process.env.CHANGES_GAP_TIMEOUT_MS = '0';
const PERIOD = { startDate: '2026-03-01', endDate: '2026-03-31' };

/** The workspace's entries that carry an invoice id (a strongly consistent count over the table: no item is sent back). */
async function lockedCount(ws: string): Promise<number> {
  let n = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk',
        FilterExpression: 'attribute_type(invoiceId, :s)',
        ExpressionAttributeValues: { ':pk': `${keys.workspacePartition(ws)}#TE`, ':s': 'S' },
        Select: 'COUNT',
        ConsistentRead: true,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    n += res.Count ?? 0;
    start = res.LastEvaluatedKey;
  } while (start);
  return n;
}

/**
 * Runs a release in steps of `budgetMs` (continue until done): each call's duration and progress. `between`
 * runs after the first call, outside the timed calls (what the test reads while the release is half done).
 */
async function inSteps<T>(first: () => Promise<T>, ws: string, id: string, budgetMs: number, between?: (r: T) => Promise<void>) {
  const calls: Array<{ ms: number; locked?: number }> = [];
  const t0 = Date.now();
  let r: unknown = await first();
  calls.push({ ms: Date.now() - t0, ...(isReleasing(r as object) ? { locked: (r as { locked: number }).locked } : {}) });
  await between?.(r as T);
  while (isReleasing(r as object)) {
    const t = Date.now();
    r = await continueInvoice(ws, id, { budgetMs });
    calls.push({ ms: Date.now() - t, ...(isReleasing(r as object) ? { locked: (r as { locked: number }).locked } : {}) });
    if (calls.length > 500) throw new Error('the release does not end');
  }
  return { result: r, calls };
}

test('an abandoned step is rolled back by the local sweep loop within INVOICE_STEP_LEASE_MS + one interval, with no other request', async () => {
  const f = await billableFixture(150);
  // a lease well over what the first step and the reads after it take on a loaded machine (the job must still
  // be live when they answer; the lease starts before the step's lock transaction)
  const LEASE = 10_000;
  const INTERVAL = 1000;
  process.env.INVOICE_STEP_LEASE_MS = String(LEASE);
  const runs: Array<{ startedAt: number; endedAt: number; rolledBack: number }> = [];
  let rolledBack: () => void = () => undefined;
  const rolled = new Promise<void>((r) => (rolledBack = r));
  const loop = startInvoiceSweep({
    intervalMs: INTERVAL,
    onReport: (startedAt, report) => {
      runs.push({ startedAt, endedAt: Date.now(), rolledBack: report.rolledBack });
      if (report.rolledBack > 0) rolledBack();
    },
  });
  try {
    const first = await beginFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD, budgetMs: 0 });
    const leftAt = Date.now(); // the page stops asking here
    const [job] = await listJobs(f.ws);
    expect(job).toMatchObject({ state: 'locking', locked: 49 });
    expect(first).toMatchObject({ status: 'pending', locked: 49 });
    expect(await lockedCount(f.ws)).toBe(49);
    // nothing else calls the invoicing code: only the loop runs (the wait ends with its run that rolls back;
    // the bound is for a loop that never does)
    await Promise.race([rolled, new Promise((_, reject) => setTimeout(() => reject(new Error(`no sweep rolled it back: ${JSON.stringify(runs)}`)), 120_000).unref())]);
    while ((await listJobs(f.ws)).length > 0) await new Promise((r) => setTimeout(r, 50));
    const at = runs.findIndex((r) => r.rolledBack > 0);
    const rollback = runs[at]!;
    expect(rollback).toBeDefined();
    // the sweep that rolled it back started at most one interval after the lease ran out; the loop runs one
    // sweep at a time (it waits the interval after a run ends), so a run still going then delays it by its own length
    const before = runs[at - 1];
    expect(rollback.startedAt - leftAt).toBeLessThanOrEqual(LEASE + INTERVAL + (before ? before.endedAt - before.startedAt : 0));
    expect(await lockedCount(f.ws)).toBe(0);
    expect(await invoicingViolations(f.ws)).toEqual([]);
  } finally {
    await loop.stop();
    delete process.env.INVOICE_STEP_LEASE_MS;
  }
});

describe('a 5,000-entry invoice', () => {
  let f: BillableFixture;
  beforeAll(async () => {
    f = await billableFixture(5000);
  });
  const BUDGET = 2000;

  test('void in steps: each call stops at its budget (one batch past it at most), the invoice says releasing meanwhile, every entry free at the end', async () => {
    const inv = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD });
    expect(await lockedCount(f.ws)).toBe(5000);
    let sawReleasing = false;
    const run = await inSteps(
      () => voidInvoice(f.ws, inv.id, { budgetMs: BUDGET }),
      f.ws,
      inv.id,
      BUDGET,
      async (r) => {
        if (isReleasing(r)) sawReleasing = (await invoiceRepo.get(f.ws, { id: inv.id })).releasing === true;
      },
    );
    console.log(`void of 5,000 entries: ${run.calls.length} calls of ${run.calls.map((c) => c.ms).join(', ')} ms (budget ${BUDGET} ms)`);
    expect(run.calls.length).toBeGreaterThan(1);
    expect(sawReleasing).toBe(true);
    // progress goes down to the end; every call under the console function's 10 s timeout
    const progress = run.calls.flatMap((c) => (c.locked === undefined ? [] : [c.locked]));
    expect(progress).toEqual([...progress].sort((a, b) => b - a));
    for (const c of run.calls) expect(c.ms).toBeLessThan(10_000);
    expect(run.result).toMatchObject({ id: inv.id, status: 'void' });
    expect((run.result as { releasing?: boolean }).releasing).toBeUndefined();
    expect(await lockedCount(f.ws)).toBe(0);
    expect(await listJobs(f.ws)).toEqual([]);
    expect(await invoicingViolations(f.ws)).toEqual([]);
  });

  test('delete of a 5,000-entry draft in steps: the invoice stays (releasing) until its last entry is free, then it is gone', async () => {
    const inv = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD });
    expect(await lockedCount(f.ws)).toBe(5000);
    const first = await deleteInvoice(f.ws, inv.id, { budgetMs: BUDGET });
    expect(first).toMatchObject({ id: inv.id, status: 'releasing', action: 'delete', entryCount: 5000 });
    expect(await invoiceRepo.get(f.ws, { id: inv.id })).toMatchObject({ status: 'draft', releasing: true });
    // nothing else may change it meanwhile
    await expect(voidInvoice(f.ws, inv.id)).rejects.toMatchObject({ reason: 'conflict' });
    const run = await inSteps(async () => first, f.ws, inv.id, BUDGET);
    console.log(`delete of 5,000 entries: ${run.calls.length} calls (budget ${BUDGET} ms)`);
    for (const c of run.calls.slice(1)) expect(c.ms).toBeLessThan(10_000);
    expect(run.result).toEqual({ deleted: true, id: inv.id });
    expect(await lockedCount(f.ws)).toBe(0);
    expect(await listJobs(f.ws)).toEqual([]);
    expect((await storedState(f.ws)).invoices.filter((i) => i.id === inv.id)).toEqual([]);
    expect(await invoicingViolations(f.ws)).toEqual([]);
  });
});

test('a release and a delete at once: the delete is 409 while the void releases (continue and the sweep racing), then 200; all free, no job', async () => {
  const f = await billableFixture(400);
  const inv = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD });
  const started = await voidInvoice(f.ws, inv.id, { budgetMs: 0 });
  expect(started).toMatchObject({ status: 'releasing', action: 'void' });
  // the page continues, the sweep (lease run out) works on it, and a delete comes, all at once
  const [cont, swept, del] = await Promise.allSettled([
    continueInvoice(f.ws, inv.id, { budgetMs: 60_000 }),
    sweepInvoiceJobs({ workspaceId: f.ws, now: Date.now() + 10 * 60_000 }),
    deleteInvoice(f.ws, inv.id),
  ]);
  expect(swept.status).toBe('fulfilled');
  if (cont.status === 'rejected') expect(cont.reason).toMatchObject({ reason: 'conflict' });
  expect(del.status).toBe('rejected');
  expect((del as PromiseRejectedResult).reason).toMatchObject({ reason: 'conflict', message: expect.stringContaining('still releasing') });
  // whichever ended it: the invoice is void, nothing carries its id, no job
  await sweepInvoiceJobs({ workspaceId: f.ws, now: Date.now() + 10 * 60_000 });
  expect(await invoiceRepo.get(f.ws, { id: inv.id })).toMatchObject({ status: 'void' });
  expect(await lockedCount(f.ws)).toBe(0);
  expect(await listJobs(f.ws)).toEqual([]);
  expect(await deleteInvoice(f.ws, inv.id)).toEqual({ deleted: true, id: inv.id });
  expect(await invoicingViolations(f.ws)).toEqual([]);
});

test('DELETE /v1/invoices/{id} of a draft whose release does not end in the budget: 202 with the progress; the sweep deletes it', async () => {
  const f = await billableFixture(200);
  const key = await makeKey(f.ws, { perMinute: 100_000, perHour: 100_000 });
  const inv = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD });
  process.env.INVOICE_STEP_BUDGET_MS = '0';
  try {
    const res = await apiClient().del(`/v1/invoices/${inv.id}`, { key });
    expect([res.status, res.body]).toEqual([202, expect.objectContaining({ id: inv.id, status: 'releasing', action: 'delete', entryCount: 200 })]);
    const shown = await apiClient().get(`/v1/invoices/${inv.id}`, { key });
    expect([shown.status, shown.body.releasing]).toEqual([200, true]);
  } finally {
    delete process.env.INVOICE_STEP_BUDGET_MS;
  }
  await sweepInvoiceJobs({ workspaceId: f.ws, now: Date.now() + 10 * 60_000 });
  expect((await apiClient().get(`/v1/invoices/${inv.id}`, { key })).status).toBe(404);
  expect(await lockedCount(f.ws)).toBe(0);
  expect(await invoicingViolations(f.ws)).toEqual([]);
});
