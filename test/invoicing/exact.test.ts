import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoConfig, setDb } from '../../shared/data/db';
import { projects, timeEntries } from '../../shared/data/repositories';
import { DomainError } from '../../shared/domain/errors';
import { createFromTime, deleteInvoice, sendInvoice, sweepInvoiceJobs, voidInvoice } from '../../shared/invoicing/service';
import { ENTRY_BATCH } from '../../shared/invoicing/store';
import { withCrashAt, withFaultClient } from '../faults/inject';
import { useTestTable } from '../support/harness';
import { billableFixture, invoicingViolations, storedState, type BillableFixture } from './support';

/**
 * Issue 24, item 3 (issue 32: createFromTime is now the console's create in steps run with no budget, so
 * every scenario below runs the one algorithm the console runs: beginFromTime, continueFromTime, the sweep): invoices exact at any size (a 50-entry invoice takes two lock transactions, 49 + 1; the bench
 * makes 5,000), proven against DynamoDB Local:
 * - a crash before any data call of createFromTime, voidInvoice and deleteInvoice leaves, after the named
 *   sweep (sweepInvoiceJobs, once the job's lease ran out), a whole invoice with all its entries locked or
 *   no invoice and no locked entry; the named retry (createFromTime again) then invoices everything;
 * - a response lost after DynamoDB applied a call (at every call) changes nothing of the outcome;
 * - overlapping invoices made at once never share an entry; entries edited while being invoiced are
 *   invoiced with their final values or their edit gets 409; line totals = the sum of the entries;
 * - every lock and release is exactly one time-entry.updated event (test/invoicing/support.ts).
 */
useTestTable();
process.env.CHANGES_GAP_TIMEOUT_MS = '0';
afterEach(() => setDb(undefined));
// each scenario matrix below runs one fresh workspace per data call
jest.setTimeout(300_000);
const PERIOD = { startDate: '2026-03-01', endDate: '2026-03-31' };
const LATER = () => Date.now() + 16 * 60_000;
const ratesOf = (f: BillableFixture, rates = [100, 80.5]) => new Map(f.projectIds.map((id, i) => [id, { name: `Project ${String.fromCharCode(65 + i)}`, hourlyRate: rates[i]! }]));
// two lock transactions (ENTRY_BATCH + 1): every crash point between and within them is a data call of its own
const SIZE = ENTRY_BATCH + 1;

async function outcome(f: BillableFixture) {
  const { entries, invoices } = await storedState(f.ws);
  return { invoices: invoices.length, locked: entries.filter((e) => typeof e.invoiceId === 'string').length, entries: entries.length };
}

test('a crash before each data call of createFromTime: after the sweep, the whole invoice or nothing; the retry then invoices everything', async () => {
  // how many data calls an undisturbed create makes
  const probe = await billableFixture(SIZE);
  const clean = await withFaultClient(undefined, () => createFromTime({ workspaceId: probe.ws, clientId: probe.clientId, ...PERIOD }));
  expect(await invoicingViolations(probe.ws, { rates: ratesOf(probe), clientCurrency: 'EUR' })).toEqual([]);
  const total = clean.calls.length;
  expect(total).toBeGreaterThan(10);
  // two lock transactions and the commit
  expect(clean.calls.filter((c) => c === 'TransactWriteItemsCommand').length).toBeGreaterThanOrEqual(3);
  const seen = { whole: 0, none: 0 };
  for (let k = 1; k <= total; k++) {
    const f = await billableFixture(SIZE);
    const crash = await withCrashAt(k, () => createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD }));
    expect(crash.error).toBeDefined();
    await sweepInvoiceJobs({ workspaceId: f.ws, now: LATER() });
    const after = await outcome(f);
    // whole (the commit landed before the crash) or nothing
    expect([k, after]).toEqual([k, after.invoices === 1 ? { invoices: 1, locked: SIZE, entries: SIZE } : { invoices: 0, locked: 0, entries: SIZE }]);
    seen[after.invoices === 1 ? 'whole' : 'none']++;
    expect([k, await invoicingViolations(f.ws, { rates: ratesOf(f), clientCurrency: 'EUR' })]).toEqual([k, []]);
    if (after.invoices === 0) {
      // the named retry
      const inv = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD });
      expect(inv.number).toBeNull(); // a draft: sending numbers it
      expect(await outcome(f)).toEqual({ invoices: 1, locked: SIZE, entries: SIZE });
      expect(await invoicingViolations(f.ws, { rates: ratesOf(f), clientCurrency: 'EUR' })).toEqual([]);
    }
  }
  expect(seen.none).toBeGreaterThan(5);
});

test('a crash before each data call of voidInvoice and deleteInvoice: after the sweep, the invoice as it was with all entries, or changed with none', async () => {
  for (const action of ['void', 'delete'] as const) {
    const run = (ws: string, id: string): Promise<unknown> => (action === 'void' ? voidInvoice(ws, id) : deleteInvoice(ws, id));
    // the calls of the action on a draft and on a sent invoice (a draft's void also reads the parties it copies in: issue 32 item 5)
    const probe = async (sent: boolean) => {
      const p = await billableFixture(SIZE);
      const inv0 = await createFromTime({ workspaceId: p.ws, clientId: p.clientId, ...PERIOD });
      if (sent) await sendInvoice(p.ws, inv0.id);
      return (await withFaultClient(undefined, () => run(p.ws, inv0.id))).calls.length;
    };
    const totals = { draft: await probe(false), sent: action === 'void' ? await probe(true) : 0 };
    for (let k = 1; k <= totals.draft; k++) {
      const sent = k % 2 === 0 && action === 'void';
      if (k > (sent ? totals.sent : totals.draft)) continue;
      const f = await billableFixture(SIZE);
      const inv = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD });
      if (sent) await sendInvoice(f.ws, inv.id);
      const crash = await withCrashAt(k, () => run(f.ws, inv.id));
      expect(crash.error).toBeDefined();
      await sweepInvoiceJobs({ workspaceId: f.ws, now: LATER() });
      const { invoices } = await storedState(f.ws);
      const changed = action === 'void' ? invoices[0]?.status === 'void' : invoices.length === 0;
      expect([action, k, await outcome(f)]).toEqual([action, k, { invoices: action === 'delete' && changed ? 0 : 1, locked: changed ? 0 : SIZE, entries: SIZE }]);
      expect([action, k, await invoicingViolations(f.ws, { rates: ratesOf(f), clientCurrency: 'EUR' })]).toEqual([action, k, []]);
    }
  }
});

test('a response lost after DynamoDB applied each call of createFromTime (the SDK sends it again): one whole invoice, each lock one event', async () => {
  const probe = await billableFixture(SIZE);
  const total = (await withFaultClient(undefined, () => createFromTime({ workspaceId: probe.ws, clientId: probe.clientId, ...PERIOD }))).calls.length;
  for (let k = 1; k <= total; k++) {
    const f = await billableFixture(SIZE);
    const run = await withFaultClient({ call: k, kind: 'timeout-after-apply', times: 'once' }, () => createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD }));
    expect(run.injected).toBe(1);
    expect(run.res).toMatchObject({ status: 'draft', number: null });
    expect([k, await outcome(f)]).toEqual([k, { invoices: 1, locked: SIZE, entries: SIZE }]);
    expect([k, await invoicingViolations(f.ws, { rates: ratesOf(f), clientCurrency: 'EUR' })]).toEqual([k, []]);
  }
});

test('overlapping invoices made at once never share an entry: two overlapping periods, then four of the same period', async () => {
  const f = await billableFixture(200);
  const [a, b] = await Promise.allSettled([
    createFromTime({ workspaceId: f.ws, clientId: f.clientId, startDate: '2026-03-01', endDate: '2026-03-20' }),
    createFromTime({ workspaceId: f.ws, clientId: f.clientId, startDate: '2026-03-10', endDate: '2026-03-31' }),
  ]);
  expect([a.status, b.status]).toEqual(['fulfilled', 'fulfilled']);
  expect(await outcome(f)).toEqual({ invoices: 2, locked: 200, entries: 200 });
  expect(await invoicingViolations(f.ws, { rates: ratesOf(f), clientCurrency: 'EUR' })).toEqual([]);

  const g = await billableFixture(200);
  const four = await Promise.allSettled([1, 2, 3, 4].map(() => createFromTime({ workspaceId: g.ws, clientId: g.clientId, ...PERIOD })));
  const made = four.filter((r) => r.status === 'fulfilled');
  for (const r of four) if (r.status === 'rejected') expect(r.reason).toMatchObject({ reason: 'conflict' });
  expect(made.length).toBeGreaterThanOrEqual(1);
  // drafts: no number until sent (issue 32)
  expect(made.map((r) => (r as PromiseFulfilledResult<{ number: string | null }>).value.number)).toEqual(made.map(() => null));
  expect(await outcome(g)).toEqual({ invoices: made.length, locked: 200, entries: 200 });
  expect(await invoicingViolations(g.ws, { rates: ratesOf(g), clientCurrency: 'EUR' })).toEqual([]);
});

test('entries edited while being invoiced: invoiced with their final values, or the edit is 409; lines = the sum of the entries', async () => {
  const f = await billableFixture(150);
  const all = (await timeEntries.page(f.ws, { limit: 200 })).items;
  // Before each of the first transactions of the invoicing (lock batches, retries), 3 entries are edited through
  // the repository: deterministic interleaving of edits with the locks (entries already locked, entries not yet).
  const outcomes: string[] = [];
  let next = 0;
  let inHook = false;
  const client = new DynamoDBClient(dynamoConfig());
  client.middlewareStack.add(
    (run, context) => async (args) => {
      // (the first 8 transactions: an editor that never stops can keep a batch from locking, which is a 409 after 5 rounds)
      if (context.commandName === 'TransactWriteItemsCommand' && !inHook && next < 24) {
        inHook = true;
        try {
          for (let j = 0; j < 3; j++) {
            const i = next++;
            const e = all[(i * 37) % all.length]!;
            const patch = i % 4 === 0 ? { billable: false } : { endTime: new Date(Date.parse(String(e.startTime)) + (20 + i) * 60_000).toISOString() };
            outcomes.push(
              await timeEntries.update(f.ws, { id: e.id, sortKey: String(e.sortKey) }, patch).then(
                () => 'ok',
                (err: unknown) => (err instanceof DomainError && err.reason === 'conflict' ? '409' : Promise.reject(err)),
              ),
            );
          }
        } finally {
          inHook = false;
        }
      }
      return run(args);
    },
    { step: 'initialize', priority: 'high', name: 'editsBetweenLocks' },
  );
  setDb(DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }));
  const inv = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD });
  setDb(undefined);
  client.destroy();
  // both happened: edits before their entry's lock (applied, then locked with the new values or left out
  // when no longer billable) and edits after it (409)
  expect(outcomes.filter((r) => r === 'ok').length).toBeGreaterThan(0);
  expect(outcomes.filter((r) => r === '409').length).toBeGreaterThan(0);
  const { entries } = await storedState(f.ws);
  const mine = entries.filter((e) => e.invoiceId === inv.id);
  expect(mine.every((e) => e.billable === true)).toBe(true);
  expect(entries.filter((e) => e.billable !== true).every((e) => e.invoiceId === undefined)).toBe(true);
  expect(entries.filter((e) => e.billable === true).every((e) => e.invoiceId === inv.id)).toBe(true);
  // the lines are those of the entries as they are now (final values), and each entry's last event is its state
  expect(await invoicingViolations(f.ws, { rates: ratesOf(f), clientCurrency: 'EUR' })).toEqual([]);
  console.log(
    `edits while invoicing: ${outcomes.filter((r) => r === 'ok').length} applied, ${outcomes.filter((r) => r === '409').length} refused (409); ${mine.length} entries invoiced`,
  );
});

test("a sweep running while invoices are made (leases of 0 ms: every job is the sweep's at once): still whole or nothing", async () => {
  const f = await billableFixture(150);
  process.env.INVOICE_STEP_LEASE_MS = '0';
  try {
    let sweeping = true;
    const sweeper = (async () => {
      while (sweeping) await sweepInvoiceJobs({ workspaceId: f.ws });
    })();
    const results = await Promise.allSettled([
      createFromTime({ workspaceId: f.ws, clientId: f.clientId, startDate: '2026-03-01', endDate: '2026-03-20' }),
      createFromTime({ workspaceId: f.ws, clientId: f.clientId, startDate: '2026-03-05', endDate: '2026-03-31' }),
      createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD }),
    ]);
    sweeping = false;
    await sweeper;
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ reason: 'conflict' });
    await sweepInvoiceJobs({ workspaceId: f.ws, now: LATER() });
    expect(await invoicingViolations(f.ws, { rates: ratesOf(f), clientCurrency: 'EUR' })).toEqual([]);
    const o = await outcome(f);
    expect(o.invoices).toBe(results.filter((r) => r.status === 'fulfilled').length);
  } finally {
    delete process.env.INVOICE_STEP_LEASE_MS;
  }
});

test('a project whose rate changes while entries are locked: the invoice uses the rate read at commit; the rule still holds (409 and all released if it is removed)', async () => {
  const f = await billableFixture(80);
  const making = createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD });
  await new Promise((r) => setTimeout(r, 30));
  await projects.update(f.ws, { id: f.projectIds[1]! }, { hourlyRate: null });
  const res = await making.then(
    (inv) => ({ made: inv.id }),
    (err: DomainError) => ({ refused: err.reason }),
  );
  if ('refused' in res) {
    expect(res.refused).toBe('conflict');
    expect(await outcome(f)).toEqual({ invoices: 0, locked: 0, entries: 80 });
  }
  expect(await invoicingViolations(f.ws)).toEqual([]);
});
