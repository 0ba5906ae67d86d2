import { appendFileSync } from 'node:fs';
import {
  addClient,
  createTimeEntry,
  deleteClient,
  getClient,
  getMe,
  getSummaryReport,
  getSummaryReportCsv,
  listTimeEntries,
  listTimeEntriesCsv,
  type Client,
  type ListTimeEntries200,
  type SummaryReport,
  type TimeEntry,
} from '../generated/orval/api';

/**
 * The third generator: orval's fetch client, compiled with `tsc --strict` (tsconfig.json beside this file)
 * and run by test/contract/orval-client.test.ts against a real local server, as `node out/orval/scenario.js`.
 * The JSON calls are typed as JSON alone and the CSV calls as text: the values below are assigned to the
 * document's schema types (and `string`) with no narrowing of a JSON-or-text union and no cast. Takes
 * API_BASE_URL, API_KEY and RECORD_FILE (every response, one JSON line, for the test's contract check).
 */
const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const base = env('API_BASE_URL');
const key = env('API_KEY');
const recordFile = env('RECORD_FILE');

// orval's fetch client calls the global fetch with the document's relative paths: resolve them against the
// server, add the key, and record each answer for the contract check.
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const req = new Request(new URL(String(input), base), init);
  req.headers.set('X-API-Key', key);
  const res = await realFetch(req);
  const body = await res.clone().text();
  appendFileSync(
    recordFile,
    JSON.stringify({ method: req.method, path: new URL(req.url).pathname, status: res.status, headers: Object.fromEntries(res.headers.entries()), body }) + '\n',
  );
  return res;
};

/** The data of the expected success status; anything else throws with the status and the body. */
function ok<R extends { status: number; data: unknown }, S extends R['status']>(r: R, status: S): Extract<R, { status: S }>['data'] {
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.data)}`);
  return (r as Extract<R, { status: S }>).data;
}
function expectEqual(label: string, actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`${label}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

async function main(): Promise<void> {
  const me = ok(await getMe(), 200);
  expectEqual('the key', typeof me.workspaceId, 'string');

  const acme: Client = ok(await addClient({ name: 'Acme Corp', currency: 'USD' }), 201);
  expectEqual('client read back', ok(await getClient(acme.id), 200).name, 'Acme Corp');

  const entry: TimeEntry = ok(
    await createTimeEntry({ userId: 'ann', clientId: acme.id, billable: true, startTime: '2026-04-09T09:00:00Z', endTime: '2026-04-09T10:30:00Z', name: 'Kick-off' }),
    201,
  );
  expectEqual('entry duration', entry.durationMinutes, 90);

  // JSON: typed as the page, not "page | string"
  const page: ListTimeEntries200 = ok(await listTimeEntries({ limit: 10 }), 200);
  expectEqual(
    'entries listed',
    page.items.map((e) => e.id),
    [entry.id],
  );
  const report: SummaryReport = ok(await getSummaryReport({ startDate: '2026-04-09', endDate: '2026-04-09', groupBy: 'client' }), 200);
  expectEqual('report totals', [report.totals.entries, report.totals.durationMinutes, report.groups[0]?.name], [1, 90, 'Acme Corp']);

  // CSV: operations of their own, typed as text
  const entriesCsv: string = ok(await listTimeEntriesCsv({ limit: 10 }), 200);
  expectEqual('entries CSV header', entriesCsv.split('\r\n')[0]?.split(',').slice(0, 3), ['id', 'sortKey', 'userId']);
  expectEqual('entries CSV rows', entriesCsv.split('\r\n').filter(Boolean).length, 2);
  const reportCsv: string = ok(await getSummaryReportCsv({ startDate: '2026-04-09', endDate: '2026-04-09', groupBy: 'client' }), 200);
  expectEqual('report CSV totals', reportCsv.split('\r\n')[1]?.split(',').slice(0, 4), ['total', '', '', '1']);

  // an error is the typed error body
  const missing = await getClient('01ABSENT000000000000000000');
  expectEqual('a 404', [missing.status, missing.status === 404 ? missing.data.error.code : undefined], [404, 'NOT_FOUND']);
  expectEqual('delete refused while in use', (await deleteClient(acme.id)).status, 409);
  console.log('orval scenario: done');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
