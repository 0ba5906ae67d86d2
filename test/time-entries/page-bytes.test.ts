import { parse } from 'csv-parse/sync';
import { PAGE_MAX_BYTES } from '../../shared/data/paging';
import { workspaceWithKey } from '../resources/support';
import { apiClient, useTestTable, type CallResult } from '../support/harness';

/**
 * The worst case of issue 28: 200 time entries whose notes are 10,000 `"` characters. A page of 200 of
 * them would be a ~4.1 MB body and an ~8.1 MB Lambda proxy result once the body is escaped again, over
 * Lambda's 6 MB response limit (API Gateway would answer 502). Every paged answer (the time-entry list as
 * JSON and as CSV, the change feed) is bounded by bytes: each page's proxy result stays under 6 MB, ends
 * early with `hasMore` and a cursor, and following the cursors still reaches every record exactly once.
 */
useTestTable();
const api = apiClient();
const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;
const ENTRIES = 200;
const NOTES = '"'.repeat(10_000);

/** The proxy result the handler would return to Lambda for this answer, serialized as the runtime does. */
const proxyResultBytes = (res: CallResult) => Buffer.byteLength(JSON.stringify({ statusCode: res.status, headers: res.headers, body: res.text }), 'utf8');

let key = '';
const ids: string[] = [];
beforeAll(async () => {
  ({ key } = await workspaceWithKey('bytes'));
  for (let i = 0; i < ENTRIES; i += 8) {
    const made = await Promise.all(
      Array.from({ length: Math.min(8, ENTRIES - i) }, (_, j) => {
        const n = i + j;
        const day = String(1 + (n % 28)).padStart(2, '0');
        const hour = String(n % 24).padStart(2, '0');
        return api.post('/v1/time-entries', { userId: `u${n % 5}`, startTime: `2026-02-${day}T${hour}:00:00Z`, endTime: `2026-02-${day}T${hour}:30:00Z`, notes: NOTES }, { key });
      }),
    );
    for (const res of made) {
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
  }
}, 600_000);

test('without the bound the first page would pass 6 MB (the test can fail)', () => {
  // One stored entry's note alone escapes to 4 bytes per character in the proxy result: 200 x 40,000 > 6 MB.
  const oneNote = Buffer.byteLength(JSON.stringify(JSON.stringify({ notes: NOTES })));
  expect(oneNote * ENTRIES).toBeGreaterThan(LAMBDA_RESPONSE_LIMIT);
  expect(PAGE_MAX_BYTES).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
});

test('GET /v1/time-entries?limit=200: every page under 6 MB as a proxy result, and paging reaches all 200 once', async () => {
  const seen: string[] = [];
  const sizes: number[] = [];
  let cursor: string | undefined;
  do {
    const res = await api.get('/v1/time-entries', { key, query: { limit: '200', ...(cursor ? { cursor } : {}) } });
    expect(res.status).toBe(200);
    sizes.push(proxyResultBytes(res));
    expect(proxyResultBytes(res)).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
    seen.push(...res.body.items.map((e: { id: string; notes: string }) => (expect(e.notes).toBe(NOTES), e.id)));
    expect(res.body.hasMore).toBe(res.body.nextCursor !== undefined);
    cursor = res.body.nextCursor;
  } while (cursor);
  expect(sizes.length).toBeGreaterThan(1); // the first page was cut by bytes, not by count
  expect(seen).toHaveLength(ENTRIES);
  expect(new Set(seen)).toEqual(new Set(ids));
});

test('CSV pages (Accept: text/csv) are bounded the same way; Next-Cursor reaches every entry once', async () => {
  const seen: string[] = [];
  let pages = 0;
  let cursor: string | undefined;
  do {
    const res = await api.get('/v1/time-entries', { key, query: { limit: '200', ...(cursor ? { cursor } : {}) }, headers: { Accept: 'text/csv' } });
    expect(res.status).toBe(200);
    expect(proxyResultBytes(res)).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
    const rows = parse(res.text, { columns: true }) as Array<Record<string, string>>;
    for (const row of rows) {
      expect(row.notes).toBe(NOTES);
      seen.push(row.id!);
    }
    pages++;
    cursor = res.headers['next-cursor'] ?? res.headers['Next-Cursor'];
  } while (cursor);
  expect(pages).toBeGreaterThan(1);
  expect(seen).toHaveLength(ENTRIES);
  expect(new Set(seen)).toEqual(new Set(ids));
});

test('GET /v1/changes?limit=200: every feed page under 6 MB, and following nextCursor sees every event once', async () => {
  const seen: string[] = [];
  let pages = 0;
  let res = await api.get('/v1/changes', { key, query: { limit: '200', types: 'time-entry.*' } });
  for (;;) {
    expect(res.status).toBe(200);
    expect(proxyResultBytes(res)).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
    seen.push(...res.body.items.map((e: { type: string; resourceId: string }) => (expect(e.type).toBe('time-entry.created'), e.resourceId)));
    pages++;
    if (!res.body.hasMore) break;
    res = await api.get('/v1/changes', { key, query: { limit: '200', cursor: res.body.nextCursor } });
  }
  expect(pages).toBeGreaterThan(1);
  expect(seen).toHaveLength(ENTRIES);
  expect(new Set(seen)).toEqual(new Set(ids));
});
