import { createFromTime } from '../../shared/invoicing/service';
import { useTestTable } from '../support/harness';
import { billableFixture, makeEntries, writeEntries } from '../invoicing/support';
import { consoleClient, person, startOidc, type Oidc } from './support';

/**
 * Issue 32, item 8 (pages): GET /console/api/workspaces/{ws}/invoices/{id}/entries is paged (limit, cursor,
 * hasMore, nextCursor, like /v1) and every answer stays under Lambda's 6 MB: 5,000 entries with long notes
 * (unpaged, 6.19 MiB in the issue) page through with every entry seen once, oldest first; entries whose notes
 * are 10,000 three-byte characters end a page of 200 early (the 5 MiB bound of every list). Bad page input is
 * 400 naming the field; a cursor of another invoice is refused.
 */
useTestTable();
jest.setTimeout(900_000);
process.env.CHANGES_GAP_TIMEOUT_MS = '0';
let oidc: Oidc;
const api = consoleClient();
const LAMBDA_MAX = 6 * 1024 * 1024;

beforeAll(async () => {
  oidc = await startOidc();
});
afterAll(async () => {
  await oidc.stop();
});

/** The size of the answer as Lambda returns it (the proxy result: status, headers and the body as a JSON string). */
const proxyBytes = (r: { status: number; headers: Record<string, string>; text: string }) =>
  Buffer.byteLength(JSON.stringify({ statusCode: r.status, headers: r.headers, body: r.text, isBase64Encoded: false }), 'utf8');

async function pages(path: string, token: string, limit: string) {
  const seen: string[] = [];
  const sizes: number[] = [];
  const counts: number[] = [];
  let cursor: string | undefined;
  do {
    const r = await api.call('GET', path, { token, query: { limit, ...(cursor ? { cursor } : {}) } });
    expect(r.status).toBe(200);
    sizes.push(proxyBytes(r));
    counts.push(r.body.items.length);
    seen.push(...r.body.items.map((e: { sortKey: string }) => e.sortKey));
    expect(r.body.hasMore).toBe(r.body.nextCursor !== undefined);
    cursor = r.body.nextCursor;
  } while (cursor);
  return { seen, sizes, counts };
}

test('5,000 entries with 1,200-character notes: pages of 200, each answer under 6 MB, every entry once, oldest first', async () => {
  const f = await billableFixture(0, { label: 'inv-pages' });
  const notes = 'Long notes about the work done. '.repeat(40).slice(0, 1200);
  const entries = makeEntries(5000, f.clientId, f.projectIds, f.taskIds).map((e) => ({ ...e, notes }));
  await writeEntries(f.ws, entries);
  const inv = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, startDate: '2026-03-01', endDate: '2026-03-31' });
  const p = await person(oidc.issuer, f.ws, 'viewer', 'pages');
  const path = `/console/api/workspaces/${f.ws}/invoices/${inv.id}/entries`;
  const run = await pages(path, p.token, '200');
  expect(run.counts).toEqual(Array.from({ length: 25 }, () => 200));
  expect(Math.max(...run.sizes)).toBeLessThan(LAMBDA_MAX);
  // what one answer of them all would weigh: over 6 MB (the 502)
  expect(run.sizes.reduce((a, b) => a + b, 0)).toBeGreaterThan(LAMBDA_MAX);
  expect(new Set(run.seen).size).toBe(5000);
  expect([...run.seen].sort()).toEqual(run.seen); // oldest first, across pages
  expect(new Set(run.seen)).toEqual(new Set(entries.map((e) => `${e.startTime}#${e.id}`)));

  // the default page is 50; bad input 400 naming the field
  expect((await api.call('GET', path, { token: p.token })).body.items).toHaveLength(50);
  for (const [query, field] of [
    [{ limit: '0' }, 'limit'],
    [{ limit: '201' }, 'limit'],
    [{ cursor: 'not-a-cursor' }, 'cursor'],
    [{ page: '2' }, 'page'],
  ] as const) {
    const r = await api.call('GET', path, { token: p.token, query });
    expect([field, r.status, r.body.error.details?.[0]?.field]).toEqual([field, 400, field]);
  }
});

test("a page of entries with 10,000 three-byte characters of notes ends early (under 6 MB); paging still reaches each once; another invoice's cursor is refused", async () => {
  const f = await billableFixture(0, { label: 'inv-heavy' });
  const notes = '€'.repeat(10_000);
  const entries = makeEntries(250, f.clientId, f.projectIds, f.taskIds).map((e) => ({ ...e, notes }));
  await writeEntries(f.ws, entries);
  const inv = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, startDate: '2026-03-01', endDate: '2026-03-31' });
  const p = await person(oidc.issuer, f.ws, 'viewer', 'heavy');
  const path = `/console/api/workspaces/${f.ws}/invoices/${inv.id}/entries`;
  const run = await pages(path, p.token, '200');
  expect(run.counts[0]).toBeLessThan(200);
  expect(run.counts.length).toBeGreaterThan(1);
  expect(Math.max(...run.sizes)).toBeLessThan(LAMBDA_MAX);
  expect(new Set(run.seen)).toEqual(new Set(entries.map((e) => `${e.startTime}#${e.id}`)));
  expect(run.seen).toHaveLength(250);

  // a cursor is bound to its invoice: another invoice of the workspace refuses it
  const first = await api.call('GET', path, { token: p.token, query: { limit: '1' } });
  const otherEntries = makeEntries(3, f.clientId, f.projectIds, f.taskIds, Date.UTC(2026, 3, 1, 8));
  await writeEntries(f.ws, otherEntries);
  const other = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, startDate: '2026-04-01', endDate: '2026-04-30' });
  const foreign = await api.call('GET', `/console/api/workspaces/${f.ws}/invoices/${other.id}/entries`, { token: p.token, query: { cursor: first.body.nextCursor } });
  expect([foreign.status, foreign.body.error.details?.[0]?.field]).toEqual([400, 'cursor']);
});
