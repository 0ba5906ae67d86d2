/**
 * Time-entry paging benchmark: is page 40 as cheap and as fast as page 1?
 *
 *   npx tsx bench/time-entries-paging.ts [--entries 10000] [--limit 50] [--page 40] [--runs 9]
 *
 * Starts its own DynamoDB Local, builds the table, seeds one workspace with the time-entry seeder
 * (BatchWriteItem), then for the unfiltered list and every filter (and combination):
 * - walks the pages once to get the cursor of page N (limit 50);
 * - measures page 1 and page N: read capacity as DynamoDB reports it (ReturnConsumedCapacity on every
 *   Query call) and as computed from the item sizes read (0.5 RCU per 4 KB, eventually consistent), the
 *   Query calls and items read, and the latency of the whole request through the local gateway
 *   (same handler, authorizer cache warm), median of `runs` alternating runs;
 * - prints the figures and the page-N / page-1 ratios. No assertions.
 * Filters whose result has fewer than N pages are measured at their last full page (shown).
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '10000' },
    limit: { type: 'string', default: '50' },
    page: { type: 'string', default: '40' },
    runs: { type: 'string', default: '9' },
  },
});
const ENTRIES = Number(values.entries);
const LIMIT = Number(values.limit);
const PAGE = Number(values.page);
const RUNS = Number(values.runs);

/** DynamoDB's item size rules: attribute name bytes + value bytes (strings UTF-8, numbers ~1 byte per 2 digits + 1). */
function itemSize(v: unknown): number {
  if (v === null || v === undefined) return 1;
  if (typeof v === 'string') return Buffer.byteLength(v);
  if (typeof v === 'number') return Math.ceil(String(Math.abs(v)).replace(/[.-]/g, '').length / 2) + 1;
  if (typeof v === 'boolean') return 1;
  if (Array.isArray(v)) return 3 + v.reduce((s: number, x) => s + 1 + itemSize(x), 0);
  return 3 + Object.entries(v as Record<string, unknown>).reduce((s, [k, x]) => s + Buffer.byteLength(k) + 1 + itemSize(x), 0);
}
const topLevelSize = (item: Record<string, unknown>) => Object.entries(item).reduce((s, [k, x]) => s + Buffer.byteLength(k) + itemSize(x), 0);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main() {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  process.env.AWS_REGION ??= 'local';
  process.env.TABLE_NAME = 'bench_time_entries';
  process.env.CURSOR_SECRET ??= 'bench-cursor-secret';
  const { startDynamoDbLocal } = await import('../local/dynamodb');
  const dynamo = await startDynamoDbLocal();
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  try {
    await bench();
  } finally {
    await dynamo.stop();
  }
}

interface Measure {
  reportedRcu: number | undefined;
  sizeRcu: number;
  calls: number;
  scanned: number;
  items: number;
}

async function bench() {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { db, dynamoConfig, tableName } = await import('../shared/data/db');
  const { ensureTable } = await import('../shared/data/setup');
  const { createApiKey } = await import('../shared/data/apikey-store');
  const { createGateway } = await import('../local/gateway');
  const { SCOPES } = await import('../shared/routes');
  const { seedTimeEntries, ensureSeedCatalog } = await import('../admin/seed-time-entries');
  const { listTimeEntries } = await import('../shared/entities/time-entries');

  const admin = new DynamoDBClient(dynamoConfig());
  await ensureTable(admin, tableName());
  admin.destroy();

  const ws = 'bench-ws';
  let t0 = performance.now();
  let lastPct = -1;
  const seeded = await seedTimeEntries(ws, ENTRIES, {
    progress: (done, total) => {
      const pct = Math.floor((100 * done) / total);
      if (pct % 10 === 0 && pct !== lastPct) {
        lastPct = pct;
        process.stderr.write(`seeding ${done}/${total}\n`);
      }
    },
  });
  const seedMs = performance.now() - t0;
  const cat = await ensureSeedCatalog(ws);
  const { key } = await createApiKey({ workspaceId: ws, name: 'bench', scopes: [...SCOPES], perMinute: 10_000_000, perHour: 100_000_000 });
  const gateway = createGateway({ authCacheTtlSeconds: 3600 });

  // Sizes of the items each Query returned (the size-based capacity estimate), via a client middleware.
  let returnedBytes = 0;
  let returnedItems = 0;
  (db().middlewareStack as unknown as { add: (mw: unknown, o: object) => void }).add(
    (next: (a: unknown) => Promise<{ output: { Items?: Record<string, unknown>[] } }>) => async (args: unknown) => {
      const res = await next(args);
      for (const it of res.output.Items ?? []) {
        returnedBytes += topLevelSize(it);
        returnedItems++;
      }
      return res;
    },
    { step: 'initialize', name: 'bench-item-sizes' },
  );

  const most = <T>(xs: T[]) => {
    const m = new Map<T, number>();
    for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
    return [...m].sort((a, b) => b[1] - a[1])[0]![0];
  };
  const user = most(seeded.map((e) => String(e.userId)));
  const project = most(seeded.filter((e) => e.projectId).map((e) => String(e.projectId)));
  const client = most(seeded.filter((e) => e.clientId).map((e) => String(e.clientId)));
  const projectClient = String(cat.projects.find((p) => p.project.id === project)!.project.clientId);
  const dates = seeded.map((e) => String(e.startTime)).sort();
  const from = dates[Math.floor(dates.length * 0.1)]!.slice(0, 10);
  const to = dates[Math.floor(dates.length * 0.9)]!.slice(0, 10);

  const cases: Array<[string, Record<string, string>]> = [
    ['none', {}],
    ['date range', { startDate: from, endDate: to }],
    ['userId', { userId: user }],
    ['projectId', { projectId: project }],
    ['clientId', { clientId: client }],
    ['userId+projectId', { userId: user, projectId: project }],
    ['userId+clientId', { userId: user, clientId: client }],
    ['projectId+clientId', { projectId: project, clientId: projectClient }],
    ['user+project+client+dates', { userId: user, projectId: project, clientId: projectClient, startDate: from, endDate: to }],
  ];

  const measure = async (q: Record<string, string>, cursor?: string): Promise<Measure> => {
    returnedBytes = 0;
    returnedItems = 0;
    const page = await listTimeEntries(ws, { ...q, limit: LIMIT, ...(cursor ? { cursor } : {}) }, { returnConsumedCapacity: true });
    // Items read but not returned (filtered out) are counted at the average size of those returned.
    const avg = returnedItems ? returnedBytes / returnedItems : 0;
    const bytes = returnedBytes + (page.stats.scanned - returnedItems) * avg;
    return { reportedRcu: page.stats.consumedCapacity, sizeRcu: Math.ceil(bytes / 4096) * 0.5, calls: page.stats.calls, scanned: page.stats.scanned, items: page.items.length };
  };
  const latency = async (q: Record<string, string>, cursor?: string) => {
    const s = performance.now();
    const res = await gateway.handle({ method: 'GET', path: '/v1/time-entries', query: { ...q, limit: String(LIMIT), ...(cursor ? { cursor } : {}) }, headers: { 'X-API-Key': key } });
    const ms = performance.now() - s;
    if (res.status !== 200) throw new Error(`${res.status} ${res.body}`);
    return ms;
  };

  console.log(`\nTime-entry paging: ${ENTRIES} entries in one workspace (seeded in ${(seedMs / 1000).toFixed(1)} s), limit ${LIMIT}, page 1 vs page ${PAGE}`);
  console.log('RCU = read capacity units per request (DynamoDB Local\'s ReturnConsumedCapacity; "size" = computed from the item sizes read).');
  console.log('Latency = whole request through the local gateway and handler, median of ' + RUNS + ' runs.\n');
  const header = ['filter', 'index', 'matching', 'page', 'items', 'calls', 'read', 'RCU', 'RCU size', 'p50 ms'];
  const rows: string[][] = [];
  const ratios: string[][] = [];
  for (const [name, q] of cases) {
    // Walk to page N (or the last full page) to get its cursor.
    let cursor: string | undefined;
    let pageNo = 1;
    let cursorN: string | undefined;
    let reached = 1;
    let matching = 0;
    let access = '';
    for (;;) {
      const p = await listTimeEntries(ws, { ...q, limit: LIMIT, ...(cursor ? { cursor } : {}) });
      access = p.access;
      matching += p.items.length;
      if (pageNo <= PAGE && p.items.length === LIMIT) {
        cursorN = cursor;
        reached = pageNo;
      }
      if (!p.nextCursor) break;
      cursor = p.nextCursor;
      pageNo++;
    }
    const m1 = await measure(q);
    const mN = await measure(q, cursorN);
    await latency(q);
    await latency(q, cursorN); // warm-up
    const l1: number[] = [];
    const lN: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      l1.push(await latency(q));
      lN.push(await latency(q, cursorN));
    }
    const fmt = (m: Measure, page: number, ms: number) => [name, access, String(matching), String(page), String(m.items), String(m.calls), String(m.scanned), m.reportedRcu === undefined ? 'n/a' : m.reportedRcu.toFixed(1), m.sizeRcu.toFixed(1), ms.toFixed(1)];
    rows.push(fmt(m1, 1, median(l1)), fmt(mN, reached, median(lN)));
    const r = (a: number | undefined, b: number | undefined) => (a && b ? (b / a).toFixed(2) : 'n/a');
    ratios.push([name, `1 vs ${reached}`, r(m1.reportedRcu, mN.reportedRcu), r(m1.sizeRcu, mN.sizeRcu), r(median(l1), median(lN))]);
  }
  printTable(header, rows);
  console.log(`\nRatios page ${PAGE} / page 1 (1.00 = same cost):\n`);
  printTable(['filter', 'pages', 'RCU', 'RCU size', 'latency'], ratios);
}

function printTable(header: string[], rows: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
