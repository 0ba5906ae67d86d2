/**
 * Section 5: time-entry paging. Is page 40 as cheap and as fast as page 1?
 *
 *   npx tsx bench/time-entries-paging.ts [--entries 10000] [--limit 50] [--page 40] [--runs 15]
 *
 * Alone it starts its own DynamoDB Local; `npm run bench` (bench/run.ts) calls `measurePaging` with its
 * own. One workspace is seeded with the time-entry seeder (BatchWriteItem); then, for the unfiltered
 * list and every filter (and combination):
 * - the pages are walked once (limit 50) to get the cursor of page N;
 * - page 1 and page N are requested through the local gateway (same handler as deployed, authorizer
 *   cache warm), counted by the DynamoDB counter middleware (bench/lib/dynamo-counter.ts): Query calls,
 *   items read and read capacity (computed from item sizes; DynamoDB Local's own figure alongside);
 * - latency = the whole request, median of `runs` alternating runs (page 1, page N, page 1, ...).
 * Filters whose result has fewer than N full pages are measured at their last full page (shown).
 */
import { parseArgs } from 'node:util';
import { summarize, type DynamoCounter } from './lib/dynamo-counter';
import { markdownTable, metText, table, type Target } from './lib/report';
import { fmt, median, ratio } from './lib/stats';

export interface PagingRow {
  filter: string;
  access: string;
  matching: number;
  pageN: number;
  p1: PageFigures;
  pN: PageFigures;
  latencyRatio: number;
  capacityRatio: number;
  /** The same two pages read by the data layer alone (the repository's page: cursor check + the Query, no HTTP stack). */
  dataMs: { p1: number; pN: number };
}
export interface PageFigures {
  items: number;
  queries: number;
  itemsRead: number;
  rcu: number;
  reported: number;
  ms: number;
}
export interface PagingOptions {
  entries: number;
  limit: number;
  page: number;
  runs: number;
  progress?: (s: string) => void;
}

type Gateway = { handle: (r: { method: string; path: string; query?: Record<string, string>; headers?: Record<string, string> }) => Promise<{ status: number; body: string }> };

export async function measurePaging(gateway: Gateway, counter: DynamoCounter, o: PagingOptions): Promise<{ rows: PagingRow[]; seedMs: number }> {
  const { createApiKey } = await import('../shared/data/apikey-store');
  const { SCOPES } = await import('../shared/api/routes');
  const { seedTimeEntries, ensureSeedCatalog } = await import('../shared/seed/seed-time-entries');
  const { timeEntries } = await import('../shared/data/repositories');
  const { sortKeyRange } = await import('../shared/domain/entities/time-entries');
  /** One page read by the data layer alone: the repository's page (cursor check + the Query). */
  const listTimeEntries = (workspaceId: string, q: Record<string, string | number | undefined>) =>
    timeEntries.page(workspaceId, {
      where: { userId: q.userId as string | undefined, projectId: q.projectId as string | undefined, clientId: q.clientId as string | undefined },
      range: sortKeyRange(q.startDate as string | undefined, q.endDate as string | undefined),
      limit: Number(q.limit),
      ...(typeof q.cursor === 'string' ? { cursor: q.cursor } : {}),
    });
  const { HUGE_LIMITS } = await import('./lib/fixtures');

  const ws = 'bench-paging';
  counter.enabled = false;
  const t0 = performance.now();
  let lastPct = -1;
  const seeded = await seedTimeEntries(ws, o.entries, {
    progress: (done, total) => {
      const pct = Math.floor((100 * done) / total);
      if (pct % 25 === 0 && pct !== lastPct) {
        lastPct = pct;
        o.progress?.(`paging: seeding ${done}/${total}`);
      }
    },
  });
  const seedMs = performance.now() - t0;
  const cat = await ensureSeedCatalog(ws);
  const { key } = await createApiKey({ workspaceId: ws, name: 'bench-paging', scopes: [...SCOPES], ...HUGE_LIMITS });

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

  const headers = { 'X-API-Key': key };
  const request = async (q: Record<string, string>, cursor?: string) => {
    const s = performance.now();
    const res = await gateway.handle({ method: 'GET', path: '/v1/time-entries', query: { ...q, limit: String(o.limit), ...(cursor ? { cursor } : {}) }, headers });
    const ms = performance.now() - s;
    if (res.status !== 200) throw new Error(`paging: ${res.status} ${res.body}`);
    return { ms, items: (JSON.parse(res.body) as { items: unknown[] }).items.length };
  };
  const counted = async (q: Record<string, string>, cursor?: string): Promise<Omit<PageFigures, 'ms'>> => {
    counter.enabled = true;
    counter.reset();
    const r = await request(q, cursor);
    counter.enabled = false;
    const calls = counter.reset().filter((c) => !c.rate);
    const s = summarize(calls);
    return {
      items: r.items,
      queries: calls.filter((c) => c.command === 'Query').length,
      itemsRead: s.itemsRead,
      rcu: s.dataRcu,
      reported: calls.reduce((a, c) => a + c.reported, 0),
    };
  };

  await request({}); // authorizer cache warm
  const rows: PagingRow[] = [];
  for (const [name, q] of cases) {
    // Walk to page N (or the last full page) to get its cursor.
    let cursor: string | undefined;
    let pageNo = 1;
    let cursorN: string | undefined;
    let reached = 1;
    let matching = 0;
    let access = '';
    for (;;) {
      const p = await listTimeEntries(ws, { ...q, limit: o.limit, ...(cursor ? { cursor } : {}) });
      access = p.access;
      matching += p.items.length;
      if (pageNo <= o.page && p.items.length === o.limit) {
        cursorN = cursor;
        reached = pageNo;
      }
      if (!p.nextCursor) break;
      cursor = p.nextCursor;
      pageNo++;
    }
    const c1 = await counted(q);
    const cN = await counted(q, cursorN);
    const l1: number[] = [];
    const lN: number[] = [];
    const d1: number[] = [];
    const dN: number[] = [];
    const dataLayer = async (cursor?: string) => {
      const s = performance.now();
      await listTimeEntries(ws, { ...q, limit: o.limit, ...(cursor ? { cursor } : {}) });
      return performance.now() - s;
    };
    await request(q);
    await request(q, cursorN); // warm-up
    for (let i = 0; i < o.runs; i++) {
      if (i % 2 === 0) {
        l1.push((await request(q)).ms);
        lN.push((await request(q, cursorN)).ms);
        d1.push(await dataLayer());
        dN.push(await dataLayer(cursorN));
      } else {
        dN.push(await dataLayer(cursorN));
        d1.push(await dataLayer());
        lN.push((await request(q, cursorN)).ms);
        l1.push((await request(q)).ms);
      }
    }
    const p1 = { ...c1, ms: median(l1) };
    const pN = { ...cN, ms: median(lN) };
    const dataMs = { p1: median(d1), pN: median(dN) };
    rows.push({ filter: name, access, matching, pageN: reached, p1, pN, latencyRatio: ratio(pN.ms, p1.ms), capacityRatio: ratio(pN.rcu, p1.rcu), dataMs });
    o.progress?.(`paging: ${name} done`);
  }
  counter.enabled = true;
  return { rows, seedMs };
}

export const PAGING_RATIO_TARGET = 1.2;

/** Tables (text and Markdown) and targets of the paging section. */
export function formatPaging(rows: PagingRow[], o: { page: number; runs: number }): { text: string; markdown: string; targets: Target[] } {
  const header = ['filter', 'access', 'matching', 'page', 'items', 'Query calls', 'items read', 'RCU', 'RCU (DDB Local)', 'p50 ms'];
  const body = rows.flatMap((r) =>
    (
      [
        [1, r.p1],
        [r.pageN, r.pN],
      ] as const
    ).map(([page, f]) => [
      r.filter,
      r.access,
      String(r.matching),
      String(page),
      String(f.items),
      String(f.queries),
      String(f.itemsRead),
      fmt(f.rcu, 1),
      fmt(f.reported, 1),
      fmt(f.ms, 1),
    ]),
  );
  const rHeader = [
    'filter',
    'pages',
    'capacity ratio',
    'latency ratio',
    'data layer ms (page 1 / N)',
    'data layer ratio',
    'API minus data layer ms (page 1 / N)',
    `target <= ${PAGING_RATIO_TARGET}`,
  ];
  const rBody = rows.map((r) => [
    r.filter,
    `${r.pageN} / 1`,
    fmt(r.capacityRatio),
    fmt(r.latencyRatio),
    `${fmt(r.dataMs.p1, 1)} / ${fmt(r.dataMs.pN, 1)}`,
    fmt(ratio(r.dataMs.pN, r.dataMs.p1)),
    `${fmt(r.p1.ms - r.dataMs.p1, 1)} / ${fmt(r.pN.ms - r.dataMs.pN, 1)}`,
    metText(r.capacityRatio <= PAGING_RATIO_TARGET && r.latencyRatio <= PAGING_RATIO_TARGET),
  ]);
  const targets: Target[] = rows.map((r) => ({
    section: '5 paging',
    name: `page ${r.pageN}/page 1, filter ${r.filter}`,
    figure: `capacity ${fmt(r.capacityRatio)}, latency ${fmt(r.latencyRatio)}`,
    target: `<= ${PAGING_RATIO_TARGET}`,
    met: r.capacityRatio <= PAGING_RATIO_TARGET && r.latencyRatio <= PAGING_RATIO_TARGET,
  }));
  const note = `RCU computed from the sizes of the items each Query read; latency = whole request through the local gateway, median of ${o.runs} alternating runs. Page ${o.page} or the last full page when a filter has fewer. "data layer" = the same page read by the repository alone (cursor check + the Query against DynamoDB Local, no HTTP stack, no rate limit), interleaved with the API runs: its ratio is DynamoDB Local's own cost of starting deeper in a partition, and "API minus data layer" is what the API adds per page, which should not grow with the page number.`;
  return {
    text: `${table(header, body, 2)}\n\n${table(rBody.length ? rHeader : rHeader, rBody)}\n${note}`,
    markdown: `${markdownTable(header, body, 2)}\n\n${markdownTable(rHeader, rBody)}\n\n${note}`,
    targets,
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      entries: { type: 'string', default: '10000' },
      limit: { type: 'string', default: '50' },
      page: { type: 'string', default: '40' },
      runs: { type: 'string', default: '15' },
    },
  });
  const { startBench, muteStdout, out } = await import('./lib/env');
  const dynamo = await startBench();
  const unmute = muteStdout();
  try {
    const { DynamoCounter } = await import('./lib/dynamo-counter');
    const { db, dynamoConfig } = await import('../shared/data/db');
    const { createGateway } = await import('../local/gateway');
    const counter = new DynamoCounter(dynamoConfig()).install(db());
    const res = await measurePaging(createGateway({ authCacheTtlSeconds: 3600 }), counter, {
      entries: Number(values.entries),
      limit: Number(values.limit),
      page: Number(values.page),
      runs: Number(values.runs),
      progress: (s) => process.stderr.write(s + '\n'),
    });
    const f = formatPaging(res.rows, { page: Number(values.page), runs: Number(values.runs) });
    out(f.text);
    for (const t of f.targets) out(`${metText(t.met).padEnd(7)}  ${t.name}: ${t.figure} (target ${t.target})`);
    counter.destroy();
  } finally {
    unmute();
    await dynamo.stop();
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
