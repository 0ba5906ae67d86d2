import type { AddressInfo } from 'node:net';
import { listJobs } from '../../shared/invoicing/store';
import { timeEntries } from '../../shared/data/repositories';
import { stepLeaseMs, sweepInvoiceJobs } from '../../shared/invoicing/service';
import { createLocalServer } from '../../local/server';
import { apiClient, makeKey, newWorkspace, useTestTable } from '../support/harness';
import { invoicingViolations } from '../invoicing/support';
import { billableClient, draftOf, MARCH, sentOf } from './invoice-fixtures';
import { consoleClient, person, startOidc, type Oidc } from './support';

/**
 * The console's Invoices routes (shared/console/features/invoices.ts) through the local gateway, signed in
 * at the real OpenID Provider: preview then create (201), the entries and the PDF (bytes over HTTP), every
 * transition and the 409 naming the status of each wrong one, 400 naming the field, 404 for unknown and
 * foreign ids, a viewer's writes 403; an invoice made in steps (202, continue, ... 200) and one whose page
 * stopped asking (rolled back by the sweep); a /v1 PUT on an invoiced entry 409 naming the number, then
 * accepted after the void. (The role x route matrix is in api.test.ts.)
 */
useTestTable();
jest.setTimeout(180_000);
process.env.CHANGES_GAP_TIMEOUT_MS = '0';
let oidc: Oidc;
const api = consoleClient();
const v1 = apiClient();
const WS = 'ws-console-inv';
const OTHER = 'ws-console-inv-b';
let owner: { email: string; token: string };
let viewer: { email: string; token: string };
const base = `/console/api/workspaces/${WS}/invoices`;

beforeAll(async () => {
  oidc = await startOidc();
  owner = await person(oidc.issuer, WS, 'owner', 'inv-owner');
  viewer = await person(oidc.issuer, WS, 'viewer', 'inv-viewer');
});
afterAll(async () => {
  delete process.env.INVOICE_STEP_BUDGET_MS;
  await oidc.stop();
});

test('preview writes nothing and shows the lines; create makes the same draft (201); list, get, entries', async () => {
  const c = await billableClient(WS, 6);
  const body = { clientId: c.clientId, ...MARCH, lines: 'task', taxRate: 19, dueDate: '2026-05-01', issueDate: '2026-04-01', notes: 'Thanks' };
  const preview = await api.call('POST', `${base}/preview`, { token: owner.token, body });
  expect(preview.status).toBe(200);
  expect(preview.body).toMatchObject({ clientId: c.clientId, currency: 'EUR', entryCount: 6, taxRate: 19, dueDate: '2026-05-01' });
  expect(preview.body.lineItems).toHaveLength(2); // the task, and no task
  expect((await timeEntries.page(WS, { limit: 100 })).items.filter((e) => e.invoiceId !== undefined)).toHaveLength(0);

  let made = await api.call('POST', base, { token: owner.token, body });
  // 201 in one step; on a loaded machine the step's budget (5 s) may run out first: 202, then continue
  for (let i = 0; made.status === 202 && i < 20; i++) made = await api.call('POST', `${base}/${made.body.id}/continue`, { token: owner.token });
  expect([201, 200]).toContain(made.status);
  expect(made.headers['Cache-Control']).toBe('no-store');
  expect(made.body).toMatchObject({ status: 'draft', number: preview.body.number, lineItems: preview.body.lineItems, total: preview.body.total, tax: preview.body.tax });
  const id = made.body.id as string;

  const got = await api.call('GET', `${base}/${id}`, { token: viewer.token });
  expect([got.status, got.body.number]).toEqual([200, made.body.number]);
  const entries = await api.call('GET', `${base}/${id}/entries`, { token: viewer.token });
  expect(entries.body.items.map((e: { id: string }) => e.id).sort()).toEqual(c.entries.map((e) => e.id).sort());
  expect(entries.body.items.every((e: { invoiceId: string }) => e.invoiceId === id)).toBe(true);
  const list = await api.call('GET', base, { token: viewer.token, query: { status: 'draft', clientId: c.clientId } });
  expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([id]);
  expect(list.body.hasMore).toBe(false);
  expect(await invoicingViolations(WS)).toEqual([]);
});

test('the PDF: application/pdf, base64 with isBase64Encoded to API Gateway, bytes over HTTP (the local server decodes as API Gateway does)', async () => {
  const { invoice } = await draftOf(WS);
  const r = await api.call('GET', `${base}/${invoice.id}/pdf`, { token: viewer.token });
  expect(r.status).toBe(200);
  expect(r.headers['Content-Type']).toBe('application/pdf');
  expect(r.headers['Content-Disposition']).toBe(`inline; filename="draft-${invoice.id}.pdf"`); // a draft has no number yet
  expect(Buffer.from(r.text, 'base64').subarray(0, 5).toString()).toBe('%PDF-');

  const server = createLocalServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}${base}/${invoice.id}/pdf`, { headers: { Authorization: `Bearer ${viewer.token}`, Accept: 'application/pdf' } });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.subarray(-6).toString()).toContain('%%EOF');
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('every transition, and each wrong one a 409 naming the status; nothing changes on a refusal', async () => {
  const { invoice } = await draftOf(WS);
  const path = `${base}/${invoice.id}`;
  const conflict = async (method: string, suffix: string, status: string, body?: unknown) => {
    const r = await api.call(method, `${path}${suffix}`, { token: owner.token, body });
    expect([method, suffix, r.status, r.body.error.code]).toEqual([method, suffix, 409, 'CONFLICT']);
    expect(r.body.error.message).toContain(`Invoice ${label} is ${status}`);
  };
  // a draft has no number (issue 32): its messages name it by id until sending numbers it
  expect(invoice.number).toBeNull();
  let label = `draft ${invoice.id}`;
  await conflict('POST', '/pay', 'draft', { paidAt: '2026-04-10', amount: 1 });
  const patched = await api.call('PATCH', path, { token: owner.token, body: { taxRate: 10, lineDescriptions: ['Design work'] } });
  expect(patched.status).toBe(200);
  expect(patched.body.lineItems[0].description).toBe('Design work');
  expect(patched.body.tax).toBeCloseTo(patched.body.subtotal * 0.1, 2);
  const sent = await api.call('POST', `${path}/send`, { token: owner.token });
  expect([sent.status, sent.body.status, sent.body.number]).toEqual([200, 'sent', expect.stringMatching(/^INV-\d{6}$/)]);
  label = sent.body.number;
  await conflict('POST', '/send', 'sent');
  await conflict('PATCH', '', 'sent', { notes: 'late' });
  await conflict('DELETE', '', 'sent');
  // a payment of part, then of the rest (issue 32: payments with partially_paid)
  const part = await api.call('POST', `${path}/pay`, { token: owner.token, body: { paidAt: '2026-04-09', amount: 1, reference: 'first' } });
  expect([part.status, part.body.status, part.body.amountDue]).toEqual([200, 'partially_paid', Math.round(sent.body.total * 100 - 100) / 100]);
  await conflict('POST', '/void', 'partially_paid');
  const paid = await api.call('POST', `${path}/pay`, { token: owner.token, body: { paidAt: '2026-04-10', amount: part.body.amountDue } });
  expect([paid.status, paid.body.status, paid.body.paidAt, paid.body.amountDue, paid.body.payments.length]).toEqual([200, 'paid', '2026-04-10T00:00:00.000Z', 0, 2]);
  await conflict('POST', '/void', 'paid');
  await conflict('DELETE', '', 'paid');
  await conflict('POST', '/pay', 'paid', { paidAt: '2026-04-10', amount: 1 });
  const after = await api.call('GET', path, { token: owner.token });
  expect([after.body.status, after.body.notes, after.body.etag]).toEqual(['paid', undefined, paid.body.etag]);

  // void (draft or sent) releases the entries; a void one can be deleted, not sent
  const other = await sentOf(WS);
  const voided = await api.call('POST', `${base}/${other.invoice.id}/void`, { token: owner.token });
  expect([voided.status, voided.body.status]).toEqual([200, 'void']);
  expect((await api.call('GET', `${base}/${other.invoice.id}/entries`, { token: owner.token })).body.items).toEqual([]);
  const r = await api.call('POST', `${base}/${other.invoice.id}/send`, { token: owner.token });
  expect([r.status, r.body.error.message]).toEqual([409, expect.stringContaining('is void')]);
  const deleted = await api.call('DELETE', `${base}/${other.invoice.id}`, { token: owner.token });
  expect([deleted.status, deleted.body]).toEqual([200, { deleted: true, id: other.invoice.id }]);
  expect((await api.call('GET', `${base}/${other.invoice.id}`, { token: owner.token })).status).toBe(404);
  expect(await invoicingViolations(WS)).toEqual([]);
});

test('bad input: 400 naming the field, nothing written; nothing to invoice, a taken number: 409', async () => {
  const c = await billableClient(WS, 2);
  const cases: Array<[unknown, string]> = [
    [{ ...MARCH }, 'clientId'],
    [{ clientId: c.clientId, startDate: '2026-13-01', endDate: MARCH.endDate }, 'startDate'],
    [{ clientId: c.clientId, ...MARCH, taxRate: 101 }, 'taxRate'],
    [{ clientId: c.clientId, ...MARCH, lines: 'month' }, 'lines'],
    [{ clientId: c.clientId, ...MARCH, colour: 'red' }, 'colour'],
    [{ clientId: 'nope', ...MARCH }, 'clientId'],
    [{ clientId: c.clientId, ...MARCH, issueDate: '2026-04-10', dueDate: '2026-04-01' }, 'dueDate'],
  ];
  for (const route of ['', '/preview']) {
    for (const [body, field] of cases) {
      const r = await api.call('POST', `${base}${route}`, { token: owner.token, body });
      expect([route, field, r.status, r.body.error.details.map((d: { field: string }) => d.field)]).toEqual([route, field, 400, expect.arrayContaining([field])]);
    }
  }
  expect((await api.call('POST', base, { token: owner.token })).body.error.details[0].field).toBe('body');
  const { invoice } = await draftOf(WS);
  for (const [method, suffix, body, field] of [
    ['PATCH', '', { taxRate: -1 }, 'taxRate'],
    ['PATCH', '', { lineDescriptions: ['a', 'b', 'c'] }, 'lineDescriptions'],
    ['POST', '/pay', { paidAt: 'yesterday', amount: 1 }, 'paidAt'],
    ['POST', '/pay', { paidAt: '2026-04-10' }, 'amount'],
    ['PATCH', '', { number: 'INV-000099' }, 'number'],
  ] as const) {
    const r = await api.call(method, `${base}/${invoice.id}${suffix}`, { token: owner.token, body });
    expect([method, suffix, r.status, r.body.error.details?.[0]?.field]).toEqual([method, suffix, 400, field]);
  }
  expect((await api.call('GET', base, { token: owner.token, query: { status: 'late' } })).body.error.details[0].field).toBe('status');
  expect((await api.call('GET', base, { token: owner.token, query: { limit: '0' } })).body.error.details[0].field).toBe('limit');
  expect((await timeEntries.page(WS, { limit: 500 })).items.filter((e) => c.entries.some((x) => x.id === e.id) && e.invoiceId)).toEqual([]);

  const empty = await api.call('POST', base, { token: owner.token, body: { clientId: c.clientId, startDate: '2025-01-01', endDate: '2025-01-31' } });
  expect([empty.status, empty.body.error.message]).toEqual([409, expect.stringContaining('Nothing to invoice')]);
  const numbered = await api.call('PATCH', `${base}/${invoice.id}`, { token: owner.token, body: { number: 'Q-2026-1' } });
  expect([numbered.status, numbered.body.number]).toEqual([200, 'Q-2026-1']);
  const taken = await api.call('POST', base, { token: owner.token, body: { clientId: c.clientId, ...MARCH, number: 'q-2026-1' } });
  expect([taken.status, taken.body.error.code]).toEqual([409, 'CONFLICT']);
  expect(taken.body.error.message).toContain('q-2026-1');
});

test("unknown and another workspace's invoices are 404 and change nothing; a viewer's writes are 403 ROLE", async () => {
  const otherOwner = await person(oidc.issuer, OTHER, 'owner', 'inv-other');
  const theirs = await draftOf(OTHER);
  for (const [method, suffix] of [
    ['GET', ''],
    ['GET', '/entries'],
    ['GET', '/pdf'],
    ['PATCH', ''],
    ['POST', '/send'],
    ['POST', '/pay'],
    ['POST', '/void'],
    ['POST', '/continue'],
    ['DELETE', ''],
  ] as const) {
    for (const id of [theirs.invoice.id, '01ABSENT000000000000000000']) {
      const body = method === 'PATCH' ? { notes: 'x' } : suffix === '/pay' ? { paidAt: '2026-04-10', amount: 1 } : undefined;
      const r = await api.call(method, `${base}/${id}${suffix}`, { token: owner.token, body });
      expect([method, suffix, r.status]).toEqual([method, suffix, 404]);
    }
  }
  expect((await api.call('GET', `/console/api/workspaces/${OTHER}/invoices`, { token: owner.token })).status).toBe(404);
  const still = await api.call('GET', `/console/api/workspaces/${OTHER}/invoices/${theirs.invoice.id}`, { token: otherOwner.token });
  expect(still.body).toMatchObject({ status: 'draft', etag: theirs.invoice.etag });

  const mine = await draftOf(WS);
  for (const [method, suffix] of [
    ['POST', '/send'],
    ['POST', '/void'],
    ['DELETE', ''],
  ] as const) {
    const r = await api.call(method, `${base}/${mine.invoice.id}${suffix}`, { token: viewer.token });
    expect([method, suffix, r.status, r.body.error.details]).toEqual([method, suffix, 403, [{ reason: 'ROLE', required: 'admin' }]]);
  }
  expect((await api.call('GET', `${base}/${mine.invoice.id}`, { token: viewer.token })).body.status).toBe('draft');
});

test('an invoice made in steps: 202 with its progress, continue until 200 with the draft; whole and exact', async () => {
  const ws = newWorkspace('inv-steps');
  const p = await person(oidc.issuer, ws, 'admin', 'steps');
  const c = await billableClient(ws, 120);
  process.env.INVOICE_STEP_BUDGET_MS = '0'; // one lock batch (49 entries) per step
  try {
    const path = `/console/api/workspaces/${ws}/invoices`;
    const first = await api.call('POST', path, { token: p.token, body: { clientId: c.clientId, ...MARCH } });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ id: expect.any(String), status: 'pending', clientId: c.clientId, entryCount: 120, locked: 49 });
    const id = first.body.id as string;
    expect((await api.call('GET', `${path}/${id}`, { token: p.token })).status).toBe(404); // not visible until whole
    const seen: Array<[number, number | string]> = [];
    let r = first;
    while (r.status === 202 && seen.length < 10) {
      r = await api.call('POST', `${path}/${id}/continue`, { token: p.token });
      seen.push([r.status, r.status === 202 ? r.body.locked : r.body.status]);
    }
    expect(seen).toEqual([
      [202, 98],
      [202, 120],
      [200, 'draft'],
    ]);
    expect(r.body).toMatchObject({ id, status: 'draft', number: null });
    const again = await api.call('POST', `${path}/${id}/continue`, { token: p.token });
    expect([again.status, again.body.etag]).toEqual([200, r.body.etag]);
    expect((await api.call('GET', `${path}/${id}/entries`, { token: p.token, query: { limit: '200' } })).body.items).toHaveLength(120);
    expect(await listJobs(ws)).toEqual([]);
    expect(await invoicingViolations(ws)).toEqual([]);
  } finally {
    delete process.env.INVOICE_STEP_BUDGET_MS;
  }
});

test('an invoice whose page stopped asking is rolled back by the sweep after its lease; continue is then 409; nothing half made', async () => {
  const ws = newWorkspace('inv-gone');
  const p = await person(oidc.issuer, ws, 'owner', 'gone');
  const c = await billableClient(ws, 100);
  process.env.INVOICE_STEP_BUDGET_MS = '0';
  try {
    const path = `/console/api/workspaces/${ws}/invoices`;
    const first = await api.call('POST', path, { token: p.token, body: { clientId: c.clientId, ...MARCH } });
    expect([first.status, first.body.locked]).toEqual([202, 49]);
    expect((await sweepInvoiceJobs({ workspaceId: ws })).rolledBack).toBe(0); // its lease is live
    const report = await sweepInvoiceJobs({ workspaceId: ws, now: Date.now() + stepLeaseMs() + 1000 });
    expect(report).toMatchObject({ rolledBack: 1, released: 1, left: 0 });
    const r = await api.call('POST', `${path}/${first.body.id}/continue`, { token: p.token });
    expect([r.status, r.body.error.message]).toEqual([404, expect.any(String)]);
    expect((await timeEntries.page(ws, { limit: 200 })).items.filter((e) => e.invoiceId !== undefined)).toEqual([]);
    expect(await invoicingViolations(ws)).toEqual([]);
    // made again (in as many steps as the machine needs at the default budget): sent, it takes the first number
    delete process.env.INVOICE_STEP_BUDGET_MS;
    let made = await api.call('POST', path, { token: p.token, body: { clientId: c.clientId, ...MARCH } });
    for (let i = 0; made.status === 202 && i < 20; i++) made = await api.call('POST', `${path}/${made.body.id}/continue`, { token: p.token });
    expect([made.status === 201 || made.status === 200, made.body.status, made.body.number]).toEqual([true, 'draft', null]);
    const sent = await api.call('POST', `${path}/${made.body.id}/send`, { token: p.token });
    expect([sent.status, sent.body.number]).toEqual([200, 'INV-000001']);
    expect(await invoicingViolations(ws)).toEqual([]);
  } finally {
    delete process.env.INVOICE_STEP_BUDGET_MS;
  }
});

test('a /v1 PUT on an entry of a sent invoice is 409 naming its number; after the void through the console it succeeds', async () => {
  const s = await sentOf(WS);
  const key = await makeKey(WS, { perMinute: 1000, perHour: 10_000 });
  const entry = (await timeEntries.page(WS, { limit: 500 })).items.find((e) => e.id === s.entries[0]!.id)!;
  const put = `/v1/time-entries/${entry.id}?sortKey=${encodeURIComponent(String(entry.sortKey))}`;
  const refused = await v1.put(put, { notes: 'changed' }, { key });
  expect([refused.status, refused.body.error.message]).toEqual([409, expect.stringContaining(`on invoice ${s.invoice.number} (sent)`)]);
  expect((await api.call('POST', `${base}/${s.invoice.id}/void`, { token: owner.token })).status).toBe(200);
  const accepted = await v1.put(put, { notes: 'changed' }, { key });
  expect([accepted.status, accepted.body.notes, accepted.body.invoiceId]).toEqual([200, 'changed', undefined]);
});

test("the console's invoice actions are in its audit log (actor, action, target, changes), written with the change; refusals and engine calls without an actor write none", async () => {
  const WSA = 'ws-console-inv-audit';
  const admin = await person(oidc.issuer, WSA, 'admin', 'inv-audit-admin');
  const inv = `/console/api/workspaces/${WSA}/invoices`;
  const make = async (clientId: string) => {
    let made = await api.call('POST', inv, { token: admin.token, body: { clientId, ...MARCH } });
    for (let i = 0; made.status === 202 && i < 20; i++) made = await api.call('POST', `${inv}/${made.body.id}/continue`, { token: admin.token });
    expect([201, 200]).toContain(made.status);
    return made.body as { id: string; number: string | null; total: number; clientId: string };
  };
  const first = await make((await billableClient(WSA, 2)).clientId);
  expect((await api.call('PATCH', `${inv}/${first.id}`, { token: admin.token, body: { notes: 'Net 30', taxRate: 7, lineDescriptions: ['Design work'] } })).status).toBe(200);
  const sent = await api.call('POST', `${inv}/${first.id}/send`, { token: admin.token });
  expect(sent.status).toBe(200);
  expect((await api.call('POST', `${inv}/${first.id}/send`, { token: admin.token })).status).toBe(409); // refused: no entry
  expect((await api.call('POST', `${inv}/${first.id}/pay`, { token: admin.token, body: { paidAt: '2026-04-10', amount: sent.body.total } })).status).toBe(200);
  const second = await make((await billableClient(WSA, 1)).clientId);
  expect((await api.call('POST', `${inv}/${second.id}/void`, { token: admin.token })).status).toBe(200);
  expect((await api.call('DELETE', `${inv}/${second.id}`, { token: admin.token })).status).toBe(200);
  const engine = await draftOf(WSA); // the engine without an actor (as /v1, the seed, the admin CLI): not in the console's log

  const log = await api.call('GET', `/console/api/workspaces/${WSA}/audit-log`, { token: admin.token, query: { limit: '50' } });
  expect(log.status).toBe(200);
  const entries = (log.body.items as Array<{ actor: string; action: string; target: { type: string; id: string }; changes: Record<string, unknown> }>)
    .filter((e) => e.target.type === 'invoice')
    .reverse();
  expect(entries.map((e) => [e.action, e.target.id, e.actor])).toEqual([
    ['invoice.created', first.id, admin.email],
    ['invoice.updated', first.id, admin.email],
    ['invoice.sent', first.id, admin.email],
    ['invoice.paid', first.id, admin.email],
    ['invoice.created', second.id, admin.email],
    ['invoice.voided', second.id, admin.email],
    ['invoice.deleted', second.id, admin.email],
  ]);
  expect(entries[0]!.changes).toEqual({ number: { to: first.number }, clientId: { to: first.clientId }, total: { to: first.total }, currency: { to: 'EUR' } });
  expect(entries[1]!.changes).toMatchObject({ notes: { from: null, to: 'Net 30' }, taxRate: { from: 0, to: 7 }, lineDescriptions: { to: 1 } });
  expect(entries[1]!.changes).not.toHaveProperty('subtotal'); // unchanged fields are not listed
  expect(first.number).toBeNull(); // a draft: sending numbers it (issue 32)
  expect(entries[2]!.changes).toEqual({ status: { from: 'draft', to: 'sent' }, sentAt: { to: expect.any(String) }, number: { from: null, to: sent.body.number } });
  // each payment is an invoice.paid entry
  expect(entries[3]!.changes).toEqual({
    amount: { to: sent.body.total },
    paidAt: { to: '2026-04-10' },
    amountDue: { from: sent.body.total, to: 0 },
    status: { from: 'sent', to: 'paid' },
  });
  expect(entries[5]!.changes).toEqual({ status: { from: 'draft', to: 'void' } });
  expect(entries[6]!.changes).toEqual({ number: { from: second.number }, status: { from: 'void' } });
  expect(log.body.items.some((e: { target: { id: string } }) => e.target.id === engine.invoice.id)).toBe(false);
  expect(await invoicingViolations(WSA)).toEqual([]);
});
