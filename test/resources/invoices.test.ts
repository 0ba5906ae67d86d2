import { apiClient, makeKey, useTestTable } from '../support/harness';
import { seedWorkspace } from '../../shared/seed/seed';
import { invoiceNumber, seedInvoices } from '../../shared/seed/seed-invoices';
import { run } from '../../admin/cli';
import { responseSchema } from '../../shared/api/schemas';
import { cents, INVOICE_STATUSES, invoices as invoiceEntity } from '../../shared/domain/entities/invoices';
import { clients, createInvoice } from '../../shared/data/repositories';
import { toApiError } from '../../shared/api/response';

const invoiceSchema = responseSchema(invoiceEntity);
import { ApiError } from '../../shared/api/errors';
import { dataSnapshot, err, fields, HIGH_LIMITS, workspaceWithKey } from './support';

/** Invoices: read, paginated list, delete rules, 501 on writes, the seed. */
useTestTable();
const api = apiClient();

type Invoice = {
  id: string;
  number: string | null;
  clientId: string;
  status: string;
  issueDate: string;
  dueDate: string;
  currency: string;
  lineItems: Array<{ quantity: number; unitPrice: number; amount: number; description: string }>;
  subtotal: number;
  tax: number;
  total: number;
  notes?: string;
};

async function pageAll(key: string, query: Record<string, string> = {}) {
  const pages: Array<{ items: Invoice[]; hasMore: boolean; nextCursor?: string }> = [];
  let cursor: string | undefined;
  do {
    const res = await api.get('/v1/invoices', { key, query: { ...query, ...(cursor ? { cursor } : {}) } });
    expect(res.status).toBe(200);
    pages.push(res.body);
    cursor = res.body.nextCursor;
    expect(res.body.hasMore).toBe(cursor !== undefined);
  } while (cursor && pages.length < 50);
  return pages;
}

const validInput = (clientId: string, extra: Record<string, unknown> = {}) => ({
  number: 'T-1',
  clientId,
  status: 'draft',
  issueDate: '2026-03-01',
  dueDate: '2026-03-31',
  currency: 'USD',
  lineItems: [
    { description: 'Work', quantity: 2.5, unitPrice: 150.5, amount: 376.25 },
    { description: 'More', quantity: 1, unitPrice: 0.1, amount: 0.1 },
  ],
  subtotal: 376.35,
  tax: 37.64,
  total: 413.99,
  ...extra,
});

describe('120 seeded invoices', () => {
  let ws: string;
  let key: string;
  let all: Invoice[];
  beforeAll(async () => {
    ({ ws, key } = await workspaceWithKey('inv'));
    const result = await seedWorkspace(ws, { invoices: 120 });
    expect(result).toMatchObject({ workspaceId: ws, invoices: 120 });
    const pages = await pageAll(key);
    all = pages.flatMap((p) => p.items);
  });

  test('page as 50/50/20 with a signed cursor, newest issueDate first, nothing dropped or repeated', async () => {
    const pages = await pageAll(key);
    expect(pages.map((p) => p.items.length)).toEqual([50, 50, 20]);
    expect(pages.map((p) => p.hasMore)).toEqual([true, true, false]);
    expect(pages[2]).not.toHaveProperty('nextCursor');
    expect(pages[0]!.nextCursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const ids = pages.flatMap((p) => p.items.map((i) => i.id));
    expect(new Set(ids).size).toBe(120);
    const dates = pages.flatMap((p) => p.items.map((i) => i.issueDate));
    expect(dates).toEqual([...dates].sort().reverse());
    expect(dates[0]! > dates[119]!).toBe(true);
  });

  test('limit: exact hasMore at the boundary; 1..200 only', async () => {
    const exact = await api.get('/v1/invoices', { key, query: { limit: '120' } });
    expect(exact.body.items).toHaveLength(120);
    expect(exact.body.hasMore).toBe(false);
    expect(exact.body).not.toHaveProperty('nextCursor');
    const max = await api.get('/v1/invoices', { key, query: { limit: '200' } });
    expect(max.body.items.map((i: Invoice) => i.id)).toEqual(all.map((i) => i.id));
    const almost = await api.get('/v1/invoices', { key, query: { limit: '119' } });
    expect(almost.body).toMatchObject({ hasMore: true });
    const last = await api.get('/v1/invoices', { key, query: { limit: '119', cursor: almost.body.nextCursor } });
    expect(last.body.items.map((i: Invoice) => i.id)).toEqual([all[119]!.id]);
    expect(last.body.hasMore).toBe(false);
    const one = await api.get('/v1/invoices', { key, query: { limit: '1' } });
    expect(one.body.items.map((i: Invoice) => i.id)).toEqual([all[0]!.id]);
    // a cursor is not bound to the page size: continue with another limit
    const next = await api.get('/v1/invoices', { key, query: { limit: '3', cursor: one.body.nextCursor } });
    expect(next.body.items.map((i: Invoice) => i.id)).toEqual(all.slice(1, 4).map((i) => i.id));
    for (const limit of ['0', '201', '-1', '1.5', 'abc', '', '1e2']) {
      const res = await api.get('/v1/invoices', { key, query: { limit } });
      expect(err(res)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
      expect(fields(res)).toEqual(['limit']);
    }
    expect(err(await api.get('/v1/invoices', { key, query: { status: 'lost' } }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(err(await api.get('/v1/invoices', { key, query: { number: '1' } }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  });

  test('cursors are verified: altered, truncated, foreign or garbage cursors give 400 on cursor', async () => {
    const first = await api.get('/v1/invoices', { key, query: { limit: '10' } });
    const cursor: string = first.body.nextCursor;
    const [payload, sig] = cursor.split('.') as [string, string];
    // another position (the encrypted payload of the next page's cursor) under this cursor's signature
    const forged = ((await api.get('/v1/invoices', { key, query: { limit: '10', cursor } })).body.nextCursor as string).split('.')[0]!;
    const other = await workspaceWithKey('inv-other');
    await seedInvoices(other.ws, 3);
    const foreign = (await api.get('/v1/invoices', { key: other.key, query: { limit: '1' } })).body.nextCursor as string;
    expect(foreign).toBeDefined();
    for (const bad of [`${forged}.${sig}`, cursor.slice(0, -2), `${payload}.`, 'not-a-cursor', `${cursor}x`, foreign]) {
      const res = await api.get('/v1/invoices', { key, query: { cursor: bad } });
      expect(err(res)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
      expect(fields(res)).toEqual(['cursor']);
    }
    // and the foreign key cannot use ours either
    expect((await api.get('/v1/invoices', { key: other.key, query: { cursor } })).status).toBe(400);
  });

  test('every status is present; numbers unique; clients real; totals add up; shape is the documented one', async () => {
    expect(all).toHaveLength(120);
    const counts = Object.fromEntries(INVOICE_STATUSES.map((s) => [s, all.filter((i) => i.status === s).length]));
    // the seed makes no partially_paid invoice (recording a payment does)
    expect(counts).toEqual({ draft: 30, sent: 30, partially_paid: 0, paid: 30, void: 30 });
    // issued numbers are unique and consecutive; a draft has none (issue 32)
    const issued = all.filter((i) => i.status !== 'draft');
    expect(all.filter((i) => i.status === 'draft').map((i) => i.number)).toEqual(Array.from({ length: 30 }, () => null));
    expect(issued.map((i) => i.number!).sort()).toEqual(Array.from({ length: 90 }, (_, i) => invoiceNumber(i + 1)));
    const clientIds = new Set((await clients.listAll(ws)).map((c) => c.id));
    expect(clientIds.size).toBe(5);
    // optional: notes, and what invoices made from time carry (taxRate, sentAt, paidAt, payments: the seed sets paidAt and payments on paid ones), and
    // releasing (issue 32: only while a void or delete releases the entries)
    // from and billTo: the parties an issued invoice keeps as sent (issue 32 item 5), absent on drafts (checked below)
    const optional = ['notes', 'taxRate', 'sentAt', 'paidAt', 'releasing', 'payments', 'from', 'billTo'];
    // (the seed sets no billing profile: an issued invoice keeps billTo and no from, which would name the workspace)
    for (const inv of all) expect([inv.status, 'from' in inv, 'billTo' in inv]).toEqual([inv.status, false, inv.status !== 'draft']);
    const shape = Object.keys(invoiceSchema.shape).sort();
    for (const inv of all) {
      expect(clientIds.has(inv.clientId)).toBe(true);
      expect(invoiceSchema.safeParse(inv).success).toBe(true);
      expect(
        Object.keys(inv)
          .filter((k) => !optional.includes(k))
          .sort(),
      ).toEqual(shape.filter((k) => !optional.includes(k)));
      expect(inv.lineItems.length).toBeGreaterThan(0);
      for (const li of inv.lineItems) expect(cents(li.amount)).toBe(Math.round(li.quantity * li.unitPrice * 100));
      expect(cents(inv.subtotal)).toBe(inv.lineItems.reduce((s, li) => s + cents(li.amount), 0));
      expect(cents(inv.total)).toBe(cents(inv.subtotal) + cents(inv.tax));
      expect(inv.dueDate >= inv.issueDate).toBe(true);
      expect(inv.issueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    // clients with invoices cannot be deleted (the seed keeps their usage counters)
    const res = await api.del(`/v1/clients/${all[0]!.clientId}`, { key });
    expect(err(res)).toMatchObject({ status: 409, code: 'CONFLICT', message: expect.stringMatching(/24 invoice/) });
  });

  test('get: the invoice; unknown id 404 "Invoice not found"; unknown query 400', async () => {
    const inv = all[7]!;
    const res = await api.get(`/v1/invoices/${inv.id}`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(inv);
    expect(err(await api.get('/v1/invoices/01NOPE', { key }))).toEqual({ status: 404, code: 'NOT_FOUND', message: 'Invoice not found' });
    expect(err(await api.get(`/v1/invoices/${inv.id}`, { key, query: { userId: 'x' } }))).toMatchObject({ status: 400 });
  });

  test('a draft deletes (and frees its number); a void deletes; paid and sent give 409 and change nothing', async () => {
    const draft = all.find((i) => i.status === 'draft')!;
    const voided = all.find((i) => i.status === 'void')!;
    const before = await dataSnapshot();
    for (const status of ['paid', 'sent']) {
      const inv = all.find((i) => i.status === status)!;
      const res = await api.del(`/v1/invoices/${inv.id}`, { key });
      expect(err(res)).toMatchObject({ status: 409, code: 'CONFLICT', message: expect.stringContaining(`is ${status}`) });
      expect(res.body.error.message).toContain(inv.number);
    }
    expect(await dataSnapshot()).toEqual(before);
    for (const inv of [draft, voided]) {
      expect(await api.del(`/v1/invoices/${inv.id}`, { key })).toMatchObject({ status: 200, body: { deleted: true, id: inv.id } });
      expect((await api.get(`/v1/invoices/${inv.id}`, { key })).status).toBe(404);
      expect((await api.del(`/v1/invoices/${inv.id}`, { key })).status).toBe(404);
    }
    const pages = await pageAll(key);
    expect(pages.map((p) => p.items.length)).toEqual([50, 50, 18]);
    // the number is free again
    const again = await createInvoice(ws, { ...validInput(draft.clientId), number: draft.number });
    expect(again.number).toBe(draft.number);
    all = pages.flatMap((p) => p.items).concat([again as unknown as Invoice]);
  });

  test('POST and PUT: 501 NOT_IMPLEMENTED, nothing written', async () => {
    const before = await dataSnapshot();
    for (const res of [
      await api.post('/v1/invoices', validInput(all[0]!.clientId), { key }),
      await api.call('POST', '/v1/invoices', { key }),
      await api.put(`/v1/invoices/${all[0]!.id}`, { status: 'paid' }, { key }),
      await api.put('/v1/invoices/01NOPE', {}, { key }),
    ]) {
      expect(err(res)).toMatchObject({ status: 501, code: 'NOT_IMPLEMENTED' });
    }
    expect(await dataSnapshot()).toEqual(before);
  });

  test('a key with only invoices:read lists and reads but cannot delete (403 naming invoices:write)', async () => {
    const readOnly = await makeKey(ws, { scopes: ['invoices:read'], ...HIGH_LIMITS });
    const draft = all.find((i) => i.status === 'draft')!;
    const before = await dataSnapshot();
    expect((await api.get('/v1/invoices', { key: readOnly })).status).toBe(200);
    expect((await api.get(`/v1/invoices/${draft.id}`, { key: readOnly })).status).toBe(200);
    const res = await api.del(`/v1/invoices/${draft.id}`, { key: readOnly });
    expect(err(res)).toMatchObject({ status: 403, code: 'FORBIDDEN', message: expect.stringContaining('invoices:write') });
    expect(await dataSnapshot()).toEqual(before);
    const writeOnly = await makeKey(ws, { scopes: ['invoices:write'], ...HIGH_LIMITS });
    expect(err(await api.get('/v1/invoices', { key: writeOnly }))).toMatchObject({ status: 403, message: expect.stringContaining('invoices:read') });
    expect((await api.del(`/v1/invoices/${draft.id}`, { key: writeOnly })).status).toBe(200);
  });
});

describe("the invoice store (the application's path)", () => {
  test('validates fields and arithmetic; numbers are unique in any case; the client must exist', async () => {
    const { ws } = await workspaceWithKey('inv-store');
    const client = await clients.create(ws, { name: 'Acme' });
    const ok = await createInvoice(ws, validInput(client.id));
    expect(ok).toMatchObject({ number: 'T-1', status: 'draft', total: 413.99 });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ number: 't-1' }, 'CONFLICT', ''],
      [{ number: 'T-2', clientId: '01NOPE' }, 'VALIDATION_ERROR', 'clientId'],
      [{ number: 'T-2', total: 414 }, 'VALIDATION_ERROR', 'total'],
      [{ number: 'T-2', subtotal: 376.36, total: 414 }, 'VALIDATION_ERROR', 'subtotal'],
      [{ number: 'T-2', lineItems: [{ description: 'x', quantity: 2, unitPrice: 10, amount: 21 }], subtotal: 21, total: 58.64 }, 'VALIDATION_ERROR', 'lineItems.0.amount'],
      [{ number: 'T-2', lineItems: [] }, 'VALIDATION_ERROR', 'lineItems'],
      [{ number: 'T-2', dueDate: '2026-02-28' }, 'VALIDATION_ERROR', 'dueDate'],
      [{ number: 'T-2', status: 'overdue' }, 'VALIDATION_ERROR', 'status'],
      [{ number: 'T-2', issueDate: '2026-13-01' }, 'VALIDATION_ERROR', 'issueDate'],
      [{ number: 'T-2', extra: 1 }, 'VALIDATION_ERROR', ''],
    ];
    for (const [patch, code, field] of cases) {
      const e = await createInvoice(ws, validInput(client.id, patch)).catch((x: unknown) => toApiError(x));
      expect(e).toBeInstanceOf(ApiError);
      expect((e as ApiError).code).toBe(code);
      if (field) expect((e as ApiError).details?.[0]?.field).toBe(field);
    }
    expect((await api.get('/v1/invoices', { key: await makeKey(ws, HIGH_LIMITS) })).body.items.map((i: Invoice) => i.number)).toEqual(['T-1']);
  });

  test('concurrent creates of one number: exactly one wins', async () => {
    const { ws } = await workspaceWithKey('inv-race');
    const client = await clients.create(ws, { name: 'Acme' });
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => createInvoice(ws, validInput(client.id, { number: 'RACE-1' }))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) expect((toApiError(r.reason) as ApiError).code).toBe('CONFLICT');
  });

  test('delete client vs create invoice for it: never an invoice of a deleted client', async () => {
    const { ws, key } = await workspaceWithKey('inv-ref');
    for (let round = 0; round < 10; round++) {
      const client = await clients.create(ws, { name: `C${round}` });
      const [del, created] = await Promise.all([
        api.del(`/v1/clients/${client.id}`, { key }),
        createInvoice(ws, validInput(client.id, { number: `R-${round}` })).then(
          () => 'created',
          (e: unknown) => toApiError(e) as ApiError,
        ),
      ]);
      if (created === 'created') expect(del.status).toBe(409);
      else {
        expect((created as ApiError).details?.[0]?.field).toBe('clientId');
        expect(del.status).toBe(200);
      }
    }
    const ids = new Set((await clients.listAll(ws)).map((c) => c.id));
    for (const inv of (await api.get('/v1/invoices', { key, query: { limit: '200' } })).body.items as Invoice[]) expect(ids.has(inv.clientId)).toBe(true);
  });

  test('seeding again continues the numbering; the admin CLI seeds invoices', async () => {
    const { ws, key } = await workspaceWithKey('inv-seed');
    const first = await seedInvoices(ws, 5);
    // draft, sent, paid, void, draft: the issued ones numbered (issue 32: a draft has no number)
    expect(first.map((i) => i.number)).toEqual([null, invoiceNumber(1), invoiceNumber(2), invoiceNumber(3), null]);
    const lines: string[] = [];
    expect(await run(['seed', '--workspace', ws, '--invoices', '4', '--json'], (s) => lines.push(s))).toBe(0);
    expect(JSON.parse(lines.join('\n'))).toMatchObject({ workspaceId: ws, invoices: 4 });
    const items = (await api.get('/v1/invoices', { key })).body.items as Invoice[];
    expect(
      items
        .filter((i) => i.number !== null)
        .map((i) => i.number)
        .sort(),
    ).toEqual([1, 2, 3, 4, 5, 6].map(invoiceNumber));
    expect(items.filter((i) => i.number === null).map((i) => i.status)).toEqual(['draft', 'draft', 'draft']);
    expect(
      items
        .filter((i) => i.number !== null && i.number >= invoiceNumber(4))
        .map((i) => i.status)
        .sort(),
    ).toEqual(['paid', 'sent', 'void']);
    expect(await seedInvoices(ws, 0)).toEqual([]);
  });
});
