import { clients, projects } from '../../shared/data/repositories';
import { db } from '../../shared/data/db';
import { keys } from '../../shared/data/keys';
import { createInvoiceInput } from '../../shared/invoicing/inputs';
import { setBillingProfile } from '../../shared/invoicing/profile';
import { useTestTable } from '../support/harness';
import { makeEntries, writeEntries } from '../invoicing/support';
import { billableClient, MARCH } from './invoice-fixtures';
import { consoleClient, person, startOidc, type Oidc } from './support';

/**
 * Issue 32, items 1 and 9: the console's create parses its body once (the kernel, with the route's schema: the
 * engine takes it parsed) and reads the client and the billing profile once each (before: the body 3 times, the
 * client 2-3 times), counted on the DynamoDB client every data call goes through; and the unbilled view's
 * amount comes from the create's own catalog (the currency falls back to the billing profile's, as a create's does).
 */
useTestTable();
jest.setTimeout(180_000);
process.env.CHANGES_GAP_TIMEOUT_MS = '0';
let oidc: Oidc;
const api = consoleClient();
const WS = 'ws-console-inv-reads';
const base = `/console/api/workspaces/${WS}/invoices`;
let owner: { email: string; token: string };

beforeAll(async () => {
  oidc = await startOidc();
  owner = await person(oidc.issuer, WS, 'owner', 'reads-owner');
});
afterAll(async () => {
  await oidc.stop();
});

/** The data calls made while `run` runs: each command's name and input. */
async function dataCalls<T>(run: () => Promise<T>): Promise<{ result: T; calls: Array<{ command: string; input: Record<string, unknown> }> }> {
  const calls: Array<{ command: string; input: Record<string, unknown> }> = [];
  const name = `invoice-reads-spy-${Math.random()}`;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      calls.push({ command: String(context.commandName), input: args.input as Record<string, unknown> });
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    return { result: await run(), calls };
  } finally {
    db().middlewareStack.remove(name);
  }
}

/** The reads (GetItem, or BatchGetItem holding it) of one item's key among the calls. */
const readsOf = (calls: ReadonlyArray<{ command: string; input: Record<string, unknown> }>, key: { PK: string; SK: string }) =>
  calls.filter(({ command, input }) => {
    const same = (k: unknown) => typeof k === 'object' && k !== null && (k as { PK?: unknown }).PK === key.PK && (k as { SK?: unknown }).SK === key.SK;
    if (command === 'GetItemCommand' || command === 'GetCommand') return same(input.Key);
    if (command === 'BatchGetItemCommand' || command === 'BatchGetCommand')
      return Object.values(input.RequestItems as Record<string, { Keys: unknown[] }>).some((r) => r.Keys.some(same));
    return false;
  }).length;

test('a console create in one step: the body parsed once, the client and the billing profile each read once', async () => {
  await setBillingProfile(WS, { displayName: 'Studio North', defaultTaxRate: 19 }, { id: owner.email });
  const c = await billableClient(WS, 5);
  const clientKey = clients.key(WS, { id: c.clientId });
  const parses = jest.spyOn(createInvoiceInput, 'safeParse');
  // the count is of a create made in one request: a step budget no loaded machine spends on 5 entries (the
  // default 5 s could answer 202 under load, and the counts would be of a first step only)
  process.env.INVOICE_STEP_BUDGET_MS = '120000';
  try {
    const { result: made, calls } = await dataCalls(() => api.call('POST', base, { token: owner.token, body: { clientId: c.clientId, ...MARCH, lines: 'entry' } }));
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ status: 'draft', taxRate: 19, lineItems: expect.any(Array) });
    expect(parses).toHaveBeenCalledTimes(1);
    expect([readsOf(calls, clientKey), readsOf(calls, keys.billingProfile(WS))]).toEqual([1, 1]);
    // the counter sees the create's other reads too (it is not blind): the project's rate, read for the check and for the commit
    const project = projects.key(WS, { id: c.projectId });
    expect(readsOf(calls, project)).toBe(2);
  } finally {
    parses.mockRestore();
    delete process.env.INVOICE_STEP_BUDGET_MS;
  }
});

test("the unbilled amount is the create's: a client and project without currency bill in the billing profile's default currency", async () => {
  const ws = 'ws-console-inv-reads-cur';
  const viewer = await person(oidc.issuer, ws, 'owner', 'reads-cur');
  await setBillingProfile(ws, { displayName: 'Studio South', defaultCurrency: 'CHF' }, { id: viewer.email });
  const client = await clients.create(ws, { name: 'No currency' });
  const project = await projects.create(ws, { name: 'Rated', clientId: client.id, hourlyRate: 90 });
  await writeEntries(ws, makeEntries(4, client.id, [project.id], []));
  const unbilled = await api.call('GET', `/console/api/workspaces/${ws}/invoices/unbilled`, { token: viewer.token });
  expect(unbilled.status).toBe(200);
  const row = unbilled.body.items.find((i: { clientId: string }) => i.clientId === client.id);
  expect(row).toMatchObject({ entries: 4, currency: 'CHF' });
  expect(row.problem).toBeUndefined();
  const preview = await api.call('POST', `/console/api/workspaces/${ws}/invoices/preview`, {
    token: viewer.token,
    body: { clientId: client.id, startDate: row.oldestDate, endDate: row.newestDate },
  });
  expect(preview.status).toBe(200);
  expect([preview.body.currency, preview.body.subtotal, preview.body.entryCount]).toEqual(['CHF', row.amount, 4]);
});
