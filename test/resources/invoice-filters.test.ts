import { seedInvoices } from '../../shared/seed/seed-invoices';
import { clients } from '../../shared/data/repositories';
import { apiClient, newWorkspace, useTestTable } from '../support/harness';
import { testKey } from '../time-entries/helpers';

/**
 * Invoice list filters (issue 16, item 2): status, clientId and an issueDate range (startDate, endDate),
 * alone and combined, at several page sizes, against brute force over 90 seeded invoices of 3 clients.
 */
useTestTable();
const api = apiClient();
let key: string;
let all: Array<{ id: string; status: string; clientId: string; issueDate: string }>;

beforeAll(async () => {
  const ws = newWorkspace('invoice-filters');
  key = await testKey(ws);
  for (const name of ['North', 'South', 'East']) await clients.create(ws, { name, currency: 'EUR' });
  await seedInvoices(ws, 90, { now: new Date('2026-06-30T12:00:00Z') });
  all = [];
  let cursor: string | undefined;
  do {
    const res = await api.get('/v1/invoices', { key, query: { limit: '200', ...(cursor ? { cursor } : {}) } });
    all.push(...res.body.items);
    cursor = res.body.nextCursor;
  } while (cursor);
  expect(all).toHaveLength(90);
}, 120_000);

test('every combination equals brute force, newest issueDate first, each once', async () => {
  const issueDates = [...new Set(all.map((i) => i.issueDate))].sort();
  const mid = issueDates[Math.floor(issueDates.length / 2)]!;
  const clientIds = [...new Set(all.map((i) => i.clientId))];
  expect(clientIds).toHaveLength(3);
  const sets: Array<Record<string, string>> = [
    { status: 'draft' },
    { status: 'paid' },
    { clientId: clientIds[0]! },
    { clientId: 'no-such-client' },
    { startDate: mid },
    { endDate: mid },
    { startDate: issueDates[3]!, endDate: mid },
    { startDate: mid, endDate: mid },
    { status: 'sent', clientId: clientIds[1]! },
    { status: 'void', clientId: clientIds[2]!, startDate: issueDates[2]! },
    { clientId: clientIds[0]!, endDate: mid },
  ];
  const newest = (a: { issueDate: string; id: string }, b: { issueDate: string; id: string }) => (`${a.issueDate}#${a.id}` < `${b.issueDate}#${b.id}` ? 1 : -1);
  let nonEmpty = 0;
  for (const [i, f] of sets.entries()) {
    const expected = all
      .filter(
        (inv) =>
          (!f.status || inv.status === f.status) &&
          (!f.clientId || inv.clientId === f.clientId) &&
          (!f.startDate || inv.issueDate >= f.startDate) &&
          (!f.endDate || inv.issueDate <= f.endDate),
      )
      .sort(newest);
    const got: string[] = [];
    let cursor: string | undefined;
    const limit = ['3', '7', '50'][i % 3]!;
    do {
      const res = await api.get('/v1/invoices', { key, query: { ...f, limit, ...(cursor ? { cursor } : {}) } });
      expect(res.status).toBe(200);
      got.push(...res.body.items.map((x: { id: string }) => x.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect({ f, got }).toEqual({ f, got: expected.map((e) => e.id) });
    if (expected.length) nonEmpty++;
  }
  expect(nonEmpty).toBeGreaterThan(8);
});

test('client mistakes: unknown status, malformed or inverted dates, a cursor of another filter: 400', async () => {
  const bad: Array<[Record<string, string>, string]> = [
    [{ status: 'lost' }, 'status'],
    [{ startDate: '2026-02-30' }, 'startDate'],
    [{ endDate: '2026-02-01T00:00:00Z' }, 'endDate'],
    [{ startDate: '2026-03-01', endDate: '2026-02-01' }, 'endDate'],
  ];
  for (const [query, field] of bad) {
    const res = await api.get('/v1/invoices', { key, query });
    expect({ query, status: res.status, fields: res.body.error.details.map((d: { field: string }) => d.field) }).toEqual({ query, status: 400, fields: [field] });
  }
  const page = await api.get('/v1/invoices', { key, query: { status: 'paid', limit: '2' } });
  const other = await api.get('/v1/invoices', { key, query: { status: 'draft', limit: '2', cursor: page.body.nextCursor } });
  expect(other.status).toBe(400);
});
