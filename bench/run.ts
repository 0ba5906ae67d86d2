/**
 * `npm run bench`: every measurement of the performance targets in one run, on this machine, as ratios.
 *
 *   npm run bench [-- --quick]
 *
 * Starts its own DynamoDB Local (in memory, free port), builds the function bundles with the stack's
 * esbuild options, then measures: 1 bundle sizes, 2 cold starts, 3 warm middleware overhead, 4 DynamoDB
 * work per route, 5 time-entry paging, 6 gateway throughput, 7 report cost, 8 webhook delivery, 9 the largest whole list, 10 invoices from time (100 and 5,000 entries). Prints one table per section and every
 * target as MET / NOT MET, and writes docs/performance.md. No assertions: it is not part of `npm test`
 * (test/bench/helpers.test.ts checks its pure helpers).
 */
import { execSync } from 'node:child_process';
import { cpus, freemem, loadavg, totalmem, type as osType, release } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildAll, FUNCTIONS, SIZE_TARGET_BYTES, STACK_SDK_MODE, type BundleInfo, type SdkMode } from './bundles';
import type { ColdResult, SdkComparison } from './cold-start';
import type { WorkRow } from './dynamo-work';
import { muteStdout, out, startBench } from './lib/env';
import { markdownTable, metText, table, WARM_COLUMNS, warmRow, type Target } from './lib/report';
import { fmt, kb, ratio } from './lib/stats';
import { summarizeThroughput, type ThroughputRun } from './throughput';
import { formatWebhooks, type WebhookBench } from './webhooks';
import { formatWholeList, type WholeListBench } from './whole-list';
import type { WarmResult } from './warm';
import { formatPaging, type PagingRow } from './time-entries-paging';
import { formatReports, type ReportBench } from './reports';
import { formatInvoices, type InvoiceBench } from './invoices';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
const QUICK = values.quick;
const CFG = QUICK
  ? {
      coldRuns: 3,
      compareRuns: 2,
      warmIterations: 200,
      entries: 2500,
      page: 10,
      pagingRuns: 5,
      tpRounds: 3,
      tpSeconds: 2,
      tpWarmup: 1,
      reportUsers: 10,
      reportEntries: 6000,
      reportRuns: 3,
      whWrites: 30,
      whBurst: 100,
    }
  : {
      coldRuns: 20,
      compareRuns: 10,
      warmIterations: 1000,
      entries: 10_000,
      page: 40,
      pagingRuns: 21,
      tpRounds: 7,
      tpSeconds: 3,
      tpWarmup: 2,
      reportUsers: 50,
      reportEntries: 60_000,
      reportRuns: 9,
      whWrites: 100,
      whBurst: 500,
    };
const COLD_RATIO_TARGET = 2.0;
const WARM_P50_TARGET_MS = 0.3;
const THROUGHPUT_TARGET = 0.7;

interface Section {
  title: string;
  text: string;
  markdown: string;
}

const progress = (s: string) => process.stderr.write(`  ${s}\n`);

function machine(started: Date, load0: number[]) {
  const java = (() => {
    try {
      return execSync('java -version 2>&1', { encoding: 'utf8' }).split('\n')[0]!.trim();
    } catch {
      return 'unknown';
    }
  })();
  const nproc = (() => {
    try {
      return execSync('nproc', { encoding: 'utf8' }).trim();
    } catch {
      return String(cpus().length);
    }
  })();
  const commit = (() => {
    try {
      return execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  })();
  return {
    date: started.toISOString(),
    cpu: `${nproc} x ${cpus()[0]?.model ?? 'unknown'}`,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB (${(freemem() / 2 ** 30).toFixed(1)} GiB free at the end)`,
    os: `${osType()} ${release()}`,
    node: process.version,
    java,
    commit,
    load: `${load0.map((x) => x.toFixed(1)).join(' / ')} at the start, ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ')} at the end (1/5/15-minute load averages)`,
  };
}

// ---------------------------------------------------------------------------------------------
// Sections
// ---------------------------------------------------------------------------------------------

function bundleSection(built: Record<SdkMode, BundleInfo[]>, kept: SdkMode, targets: Target[]): Section {
  const header = ['function', 'SDK external', 'modules', 'SDK bundled', 'modules', `largest parts (${kept})`, `<= ${SIZE_TARGET_BYTES / 1024} KB (${kept})`];
  const rows = [...FUNCTIONS, 'empty' as const].map((fn) => {
    const ext = built.external.find((b) => b.fn === fn)!;
    const bun = built.bundled.find((b) => b.fn === fn)!;
    const k = kept === 'external' ? ext : bun;
    const ok = k.bytes <= SIZE_TARGET_BYTES;
    if (fn !== 'empty') targets.push({ section: '1 bundles', name: `bundle ${fn} (SDK ${kept})`, figure: kb(k.bytes), target: `<= ${SIZE_TARGET_BYTES / 1024} KB`, met: ok });
    return [
      fn,
      kb(ext.bytes),
      String(ext.modules),
      kb(bun.bytes),
      String(bun.modules),
      k.packages
        .slice(0, 4)
        .map(([p, n]) => `${p} ${(n / 1024).toFixed(0)}K`)
        .join(', '),
      fn === 'empty' ? '(baseline)' : metText(ok),
    ];
  });
  const note =
    'Built with lib/service-function.ts BUNDLING (minify, no source map, node22, CJS); "SDK external" = @aws-sdk/* left to the Lambda runtime (the stack today), "SDK bundled" = compiled in. Module count = inputs in the esbuild metafile. "empty" = the cold-start baseline (one GetItem).';
  return { title: '1. Bundles', text: `${table(header, rows)}\n${note}`, markdown: `${markdownTable(header, rows)}\n\n${note}` };
}

function coldSection(results: ColdResult[], kept: SdkMode, decision: string, targets: Target[]): Section {
  const of = (fn: string, sdk: SdkMode) => results.find((r) => r.fn === fn && r.sdk === sdk)!;
  const header = ['function', 'load ms', 'first req ms', 'total ms', 'p90 ms', 'ratio (external)', 'total ms (bundled)', 'ratio (bundled)', `<= ${COLD_RATIO_TARGET} (${kept})`];
  const rows = [...FUNCTIONS, 'empty' as const].map((fn) => {
    const e = of(fn, 'external');
    const b = of(fn, 'bundled');
    const re = ratio(e.total, of('empty', 'external').total);
    const rb = ratio(b.total, of('empty', 'bundled').total);
    const rk = kept === 'external' ? re : rb;
    if (fn !== 'empty')
      targets.push({ section: '2 cold start', name: `cold start ${fn} / empty (SDK ${kept})`, figure: fmt(rk), target: `<= ${COLD_RATIO_TARGET}`, met: rk <= COLD_RATIO_TARGET });
    return [
      fn,
      fmt(e.load, 1),
      fmt(e.first, 1),
      fmt(e.total, 1),
      fmt(e.p90, 1),
      fmt(re),
      fmt(b.total, 1),
      fmt(rb),
      fn === 'empty' ? '(baseline)' : metText(rk <= COLD_RATIO_TARGET),
    ];
  });
  const n = Math.max(...results.map((r) => r.samples.length));
  const nOther = Math.min(...results.map((r) => r.samples.length));
  const boot = results.map((r) => r.boot).sort((a, b) => a - b)[results.length >> 1] ?? NaN;
  const note = `Median of ${n} fresh node processes per bundle of the kept SDK mode (${nOther} for the other; interleaved). load = require() of the bundle; first req = the first invocation (resources: GET list with the authorizer context; authorizer: a valid key; openapi: the document), against DynamoDB Local; total = load + first req; ratio = total / total of the empty baseline bundled the same way. Node's own bootstrap before user code (median ${fmt(boot, 0)} ms, the same for every bundle) is excluded. ${decision}`;
  return { title: '2. Cold start', text: `${table(header, rows)}\n${note}`, markdown: `${markdownTable(header, rows)}\n\n${note}` };
}

function warmSection(results: WarmResult[], targets: Target[]): Section {
  const header = [...WARM_COLUMNS, `p50 <= ${WARM_P50_TARGET_MS} ms`];
  const rows = results.map((r) => {
    const ok = r.overheadP50 <= WARM_P50_TARGET_MS;
    targets.push({
      section: '3 warm overhead',
      name: `warm overhead p50, ${r.route} (${r.mode})`,
      figure: `${fmt(r.overheadP50, 3)} ms (p99 ${fmt(r.overheadP99, 3)} ms)`,
      target: `<= ${WARM_P50_TARGET_MS} ms`,
      met: ok,
    });
    return [...warmRow(r), metText(ok)];
  });
  const note =
    'Milliseconds per invocation, in process. full = the clients function (whole middy stack: logger, route, auth context, rate limit, scope, body, zod, errors, metrics; INFO logs and EMF metrics written to /dev/null as on Lambda stdout); bare = a handler making the same DynamoDB calls with the same inputs, INCLUDING the rate-limit counter UpdateItem, so the difference is framework work only. "in-memory DynamoDB" replays recorded responses from a client middleware (no network; both handlers still build and parse every command): the framework cost without DynamoDB Local\'s latency noise. paired median = median of (full - bare) over adjacent pairs.';
  return { title: '3. Warm middleware overhead', text: `${table(header, rows, 2)}\n${note}`, markdown: `${markdownTable(header, rows, 2)}\n\n${note}` };
}

/**
 * The data calls and WCU of each row in the previous run (docs/performance.md as it stands, section 4), so
 * the table shows what a change of the write path did: "before" is the last committed run.
 */
function previousWork(): Map<string, { calls: string; wcu: string }> {
  const out = new Map<string, { calls: string; wcu: string }>();
  let text = '';
  try {
    text = readFileSync(join(__dirname, '..', 'docs', 'performance.md'), 'utf8');
  } catch {
    return out;
  }
  const start = text.indexOf('## 4. DynamoDB work per endpoint');
  if (start < 0) return out;
  for (const line of text.slice(start).split('\n').slice(4)) {
    if (!line.startsWith('| ')) break;
    const cells = line.split('|').map((c) => c.trim());
    // | route | endpoint | status | data calls | RL calls | RCU | WCU | ...
    out.set(`${cells[1]} ${cells[2]}`, { calls: (cells[4] ?? '').split(':')[0]!, wcu: cells[7] ?? '' });
  }
  return out;
}

function workSection(rows: WorkRow[], targets: Target[]): Section {
  const before = previousWork();
  const header = [
    'route',
    'endpoint',
    'status',
    'data calls',
    'RL calls',
    'RCU',
    'WCU',
    'of which feed (calls / WCU)',
    'last run (calls / WCU)',
    'DDB Local reported',
    'target',
    'met',
  ];
  const body = rows.map((r) => {
    const s = r.summary;
    const cmds = s.commands.length ? `${s.dataCalls}: ${s.commands.join(' + ')}` : '0';
    const why = r.why && !r.met ? ` (reads first: ${r.why})` : '';
    if (r.target) targets.push({ section: '4 DynamoDB work', name: `${r.label}`, figure: `${cmds} + ${s.rateCalls} RL${why}`, target: r.target, met: r.met! });
    return [
      r.route,
      r.label,
      String(r.status),
      cmds,
      String(s.rateCalls),
      fmt(s.rcu, 1),
      fmt(s.wcu, 1),
      s.feedCalls || s.feedWcu ? `${s.feedCalls} / ${fmt(s.feedWcu, 1)}` : '-',
      ((b) => (b ? `${b.calls} / ${b.wcu}` : 'new'))(before.get(`${r.route} ${r.label}`)),
      fmt(s.reported, 1),
      r.target ?? '-',
      r.met === undefined ? '-' : metText(r.met),
    ];
  });
  const scans = rows.reduce((n, r) => n + r.summary.scans, 0);
  targets.push({ section: '4 DynamoDB work', name: 'Scan calls over every route', figure: String(scans), target: '0', met: scans === 0 });
  const note = `Scans over all ${rows.length} requests: ${scans} (${scans === 0 ? 'none, as required' : 'NOT ZERO'}). One request per route of shared/api/routes.ts routeList (+ filter and body variants), through the local gateway with the authorizer cache warm. RL = the rate-limit counter UpdateItem (1 WCU). RCU/WCU computed from item sizes (bench/lib/capacity.ts: GetItem consistent 1 RCU per 4 KB; Query 0.5 RCU per 4 KB read; writes 1 WCU per KB, 2x in a transaction, + GSI writes); "DDB Local reported" = ReturnConsumedCapacity as DynamoDB Local answers it (it counts 1 per batch/transaction and ignores index writes).`;
  return { title: '4. DynamoDB work per endpoint', text: `${table(header, body, 2)}\n${note}`, markdown: `${markdownTable(header, body, 2)}\n\n${note}` };
}

function throughputSection(runs: ThroughputRun[], connections: number, targets: Target[]): Section {
  const header = ['endpoint', 'bare req/s', 'p50 ms', 'p99 ms', 'gateway req/s', 'p50 ms', 'p99 ms', 'gateway / bare (median)', 'min-max', `>= ${THROUGHPUT_TARGET}`];
  const summaries = summarizeThroughput(runs);
  const body = summaries.map((s) => {
    const { bare: b, gateway: g, ratio: x } = s;
    const met = x.median >= THROUGHPUT_TARGET && s.clean;
    targets.push({
      section: '6 throughput',
      name: `throughput ${s.endpoint.replace(/\s+/g, ' ')} gateway/bare`,
      figure: `${fmt(x.median)} (${fmt(x.min)}-${fmt(x.max)} over ${x.n} rounds; ${g.rps.toFixed(0)} vs ${b.rps.toFixed(0)} req/s)${s.clean ? '' : ' with errors'}`,
      target: `>= ${THROUGHPUT_TARGET}`,
      met,
    });
    return [s.endpoint, b.rps.toFixed(1), fmt(b.p50, 0), fmt(b.p99, 0), g.rps.toFixed(1), fmt(g.p50, 0), fmt(g.p99, 0), fmt(x.median), `${fmt(x.min)}-${fmt(x.max)}`, metText(met)];
  });
  const perRound = summaries.map((s) => `${s.endpoint.split(' ')[0]} ${s.ratio.ratios.map((r) => fmt(r)).join(' ')}`).join('; ');
  const errs = summaries
    .map(
      (s) =>
        `${s.endpoint.split(' ')[0]}: bare ${s.bare.ok}/${s.bare.requests} 2xx, ${s.bare.non2xx} non-2xx, ${s.bare.errors} errors; gateway ${s.gateway.ok}/${s.gateway.requests} 2xx, ${s.gateway.non2xx} non-2xx, ${s.gateway.errors} errors`,
    )
    .join('; ');
  const note = `autocannon on 127.0.0.1, ${connections} connections; servers are separate node processes (bare = node:http with the same DynamoDB calls, bench/throughput-server.ts). Per endpoint, after an unrecorded ${CFG.tpWarmup} s warm-up of each server (3x for the first endpoint): ${CFG.tpRounds} rounds of one ${CFG.tpSeconds} s run per server, interleaved, alternating which goes first. req/s = 2xx responses completed / measured elapsed seconds, over all rounds (non-2xx and connection errors not counted, and reported); p50/p99 = median over the rounds. gateway / bare = median of the per-round ratios (target judged on it), min-max = their range; per round: ${perRound}. Responses: ${errs}.`;
  return { title: '6. Throughput (local gateway vs bare node:http)', text: `${table(header, body)}\n${note}`, markdown: `${markdownTable(header, body)}\n\n${note}` };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const started = new Date();
  const load0 = loadavg();
  const t0 = performance.now();
  const targets: Target[] = [];
  const sections: Section[] = [];
  const failures: string[] = [];
  const phase = (s: string) => process.stderr.write(`[${((performance.now() - t0) / 1000).toFixed(0)} s] ${s}\n`);

  phase('1. building bundles (SDK external and bundled)');
  const built = await buildAll();

  phase('starting DynamoDB Local');
  const dynamo = await startBench();
  const unmute = muteStdout();
  let coldResults: ColdResult[] = [];
  let coldChoice: { kept: SdkMode; geomean: Record<SdkMode, number>; comparison: SdkComparison } | undefined;
  let warm: WarmResult[] = [];
  let work: WorkRow[] = [];
  let paging: { rows: PagingRow[]; seedMs: number } = { rows: [], seedMs: 0 };
  let tp: ThroughputRun[] = [];
  let reports: ReportBench | undefined;
  let hooks: WebhookBench | undefined;
  let wholeList: WholeListBench | undefined;
  let invoicing: InvoiceBench | undefined;
  try {
    const { createWorkspace } = await import('./lib/fixtures');
    const { DynamoCounter } = await import('./lib/dynamo-counter');
    const { db, dynamoConfig } = await import('../shared/data/db');
    const { createGateway } = await import('../local/gateway');
    phase('seeding the small workspace');
    const ws = await createWorkspace('bench-ws');

    const attempt = async (name: string, fn: () => Promise<void>) => {
      try {
        await fn();
      } catch (err) {
        failures.push(`${name}: ${(err as Error).stack ?? String(err)}`);
        phase(`${name} FAILED: ${(err as Error).message}`);
      }
    };
    const counter = new DynamoCounter(dynamoConfig()).install(db());
    counter.enabled = false;
    const gateway = createGateway({ authCacheTtlSeconds: 3600 });

    await attempt('2. cold start', async () => {
      phase(`2. cold starts (${CFG.coldRuns} processes per bundle of the faster SDK mode, ${CFG.compareRuns} of the other)`);
      const { measureColdStarts } = await import('./cold-start');
      // Neither measurably faster: keep the SDK external, whose bundles are a quarter of the size.
      const cold = await measureColdStarts([...built.external, ...built.bundled], ws, { runs: CFG.coldRuns, compareRuns: CFG.compareRuns, progress, tieBreak: 'external' });
      coldResults = cold.results;
      coldChoice = { kept: cold.kept, geomean: cold.geomean, comparison: cold.comparison };
    });
    await attempt('3. warm overhead', async () => {
      phase('3. warm overhead');
      const { measureWarm } = await import('./warm');
      warm = await measureWarm(ws, CFG.warmIterations, progress);
    });
    await attempt('4. DynamoDB work', async () => {
      phase('4. DynamoDB work per route');
      const { measureDynamoWork } = await import('./dynamo-work');
      const workWs = await createWorkspace('bench-work', { timeEntries: 60, invoices: 5, favorites: 3 });
      work = await measureDynamoWork(gateway, counter, workWs);
    });
    await attempt('5. paging', async () => {
      phase(`5. paging (${CFG.entries} entries)`);
      const { measurePaging } = await import('./time-entries-paging');
      paging = await measurePaging(gateway, counter, { entries: CFG.entries, limit: 50, page: CFG.page, runs: CFG.pagingRuns, progress });
      counter.enabled = false;
    });
    await attempt('6. throughput', async () => {
      phase(`6. throughput (${CFG.tpRounds} interleaved rounds of ${CFG.tpSeconds} s per server and endpoint)`);
      const { measureThroughput } = await import('./throughput');
      tp = await measureThroughput(ws, { rounds: CFG.tpRounds, seconds: CFG.tpSeconds, warmupSeconds: CFG.tpWarmup, connections: 10, progress });
    });
    await attempt('7. reports', async () => {
      phase(`7. reports (${CFG.reportUsers} users, ${CFG.reportEntries} entries over a year)`);
      const { measureReports } = await import('./reports');
      reports = await measureReports(gateway, counter, { users: CFG.reportUsers, entries: CFG.reportEntries, runs: CFG.reportRuns, progress });
      counter.enabled = false;
    });
    await attempt('9. largest whole list', async () => {
      phase('9. the largest whole list the bounds allow, plain and gzip');
      const { measureWholeList } = await import('./whole-list');
      wholeList = await measureWholeList({ runs: 5, progress });
    });
    await attempt('10. invoices', async () => {
      phase(`10. invoices from time (${QUICK ? '100 and 1,000' : '100 and 5,000'} entries)`);
      const { measureInvoices } = await import('./invoices');
      invoicing = await measureInvoices(counter, { sizes: QUICK ? [100, 1000] : [100, 5000], progress });
      counter.enabled = false;
    });
    await attempt('8. webhooks', async () => {
      phase(`8. webhooks (${CFG.whWrites} writes for latency, ${CFG.whBurst} for throughput)`);
      const { measureWebhooks } = await import('./webhooks');
      // a workspace of its own: the earlier sections filled the small one's client list up to its bound
      const hookWs = await createWorkspace('bench-webhooks', { timeEntries: 10, invoices: 2, favorites: 1 });
      hooks = await measureWebhooks(gateway, hookWs, { writes: CFG.whWrites, spacingMs: 50, burst: CFG.whBurst, progress });
    });
    counter.destroy();
  } finally {
    unmute();
    await dynamo.stop();
  }

  // SDK mode: keep whichever starts measurably faster (bench/cold-start.ts compareSdkModes).
  let kept: SdkMode = STACK_SDK_MODE;
  let decision = '';
  if (coldChoice) {
    const gmExt = coldChoice.geomean.external;
    const gmBun = coldChoice.geomean.bundled;
    const c = coldChoice.comparison;
    kept = coldChoice.kept;
    const verdict = c.significant
      ? `${kept} starts measurably faster`
      : `neither starts measurably faster (the interval includes 1), so the SDK stays external: bundles a quarter of the size`;
    decision = `SDK: geometric mean of the functions' cold starts over the first ${CFG.compareRuns} rounds: ${fmt(gmExt, 1)} ms with the SDK external vs ${fmt(gmBun, 1)} ms bundled, bundled/external ${fmt(c.ratio, 3)} (95% bootstrap interval ${fmt(c.low, 3)}-${fmt(c.high, 3)}) -> ${verdict}; the stack uses ${STACK_SDK_MODE}${kept === STACK_SDK_MODE ? ' (no change needed)' : ' (lib/service-function.ts BUNDLING should change)'}.`;
    targets.push({
      section: '1 bundles',
      name: 'SDK mode kept = faster cold start',
      figure: `${c.significant ? `${kept} faster` : 'no measurable difference'}: bundled/external ${fmt(c.ratio, 3)} (95% ${fmt(c.low, 3)}-${fmt(c.high, 3)}); stack: ${STACK_SDK_MODE}`,
      target: 'stack uses the faster mode',
      met: kept === STACK_SDK_MODE,
    });
  }
  sections.push(bundleSection(built, kept, targets));
  if (coldResults.length) sections.push(coldSection(coldResults, kept, decision, targets));
  if (warm.length) sections.push(warmSection(warm, targets));
  if (work.length) sections.push(workSection(work, targets));
  if (paging.rows.length) {
    const pf = formatPaging(paging.rows, { page: CFG.page, runs: CFG.pagingRuns });
    targets.push(...pf.targets);
    sections.push({
      title: `5. Time-entry paging (${CFG.entries} entries, limit 50, page 1 vs ${CFG.page}; seeded in ${(paging.seedMs / 1000).toFixed(1)} s)`,
      text: pf.text,
      markdown: pf.markdown,
    });
  }
  if (tp.length) sections.push(throughputSection(tp, 10, targets));
  if (reports) {
    const rf = formatReports(reports, targets);
    sections.push({
      title: `7. Report cost (${reports.users} users, ${reports.entries} entries over a year; seeded in ${(reports.seedMs / 1000).toFixed(1)} s)`,
      text: rf.text,
      markdown: rf.markdown,
    });
  }
  if (wholeList) {
    const f = formatWholeList(wholeList);
    sections.push({
      title: '9. The largest whole list (local server, plain and gzip)',
      text: `${table(f.header, f.rows)}\n${f.note}`,
      markdown: `${markdownTable(f.header, f.rows)}\n\n${f.note}`,
    });
  }
  if (invoicing) {
    const f = formatInvoices(invoicing, targets);
    sections.push({ title: '10. Invoices from time (one invoice of 100 and of 5,000 entries)', text: f.text, markdown: f.markdown });
  }
  if (hooks) {
    const f = formatWebhooks(hooks);
    sections.push({ title: '8. Webhook delivery (local run)', text: `${table(f.header, f.rows)}\n${f.note}`, markdown: `${markdownTable(f.header, f.rows)}\n\n${f.note}` });
  }

  const seconds = (performance.now() - t0) / 1000;
  const m = machine(started, load0);
  const tHeader = ['section', 'target', 'figure', 'wanted', 'result'];
  const tRows = targets.map((t) => [t.section, t.name, t.figure, t.target, metText(t.met)]);
  const met = targets.filter((t) => t.met).length;

  for (const s of sections) out(`\n== ${s.title} ==\n${s.text}`);
  for (const f of failures) out(`\nFAILED ${f}`);
  out(`\n== Targets: ${met} of ${targets.length} met ==\n${table(tHeader, tRows, 2)}`);
  out(`\n${QUICK ? 'QUICK run (reduced counts): docs/performance.md not written. ' : ''}bench took ${seconds.toFixed(0)} s on ${m.cpu}, load ${m.load}`);
  if (QUICK || failures.length) {
    if (failures.length) process.exitCode = 1;
    return;
  }

  const doc = [
    '# Performance',
    '',
    `Measured by \`npm run bench\` (bench/run.ts) on ${m.date.slice(0, 10)}; this whole file is written by that command (the explanations at the end live in bench/run.ts, next to the code). Ratios, not absolute times, are the point: every figure is compared with a baseline measured in the same run on the same machine.`,
    '',
    '## Machine',
    '',
    `| | |\n|---|---|\n| date | ${m.date} |\n| CPU | ${m.cpu} |\n| memory | ${m.memory} |\n| OS | ${m.os} |\n| Node.js | ${m.node} |\n| Java (DynamoDB Local) | ${m.java} |\n| commit | ${m.commit} |\n| load average | ${m.load} |\n| run time | ${seconds.toFixed(0)} s |`,
    '',
    'The machine is shared (other test suites may run at the same time: see the load average); absolute times are noisy, the interleaved ratios much less so.',
    '',
    '## How to reproduce',
    '',
    '```bash',
    'npm ci',
    'npm run bench              # everything (~10 min on 2 cores); prints the tables and rewrites this file',
    'npm run bench -- --quick   # smaller counts, for trying changes; does not write this file',
    'npx tsx bench/warm-only.ts [--iterations 1000] [--mode memory]  # the warm-overhead section alone',
    'npx tsx bench/work-only.ts                                       # the DynamoDB-work section alone (calls, RCU, WCU)',
    'npx tsx bench/time-entries-paging.ts --entries 10000 --page 40   # the paging section alone',
    'npx tsx bench/reports-only.ts --users 50 --entries 60000          # the report-cost section alone',
    'npx tsx bench/rate-limit.ts                                      # rate-limit cost detail',
    'npx tsx bench/webhooks-only.ts [--writes 100] [--burst 500]       # the webhook section alone',
    '```',
    '',
    'Needs Java 17+ (DynamoDB Local is started by the command, in memory, on a free port). Loopback only.',
    '',
    `## Targets: ${met} of ${targets.length} met`,
    '',
    markdownTable(tHeader, tRows, 2),
    '',
    ...sections.flatMap((s) => [`## ${s.title}`, '', s.markdown, '']),
    NOTES,
  ].join('\n');
  writeFileSync(join(__dirname, '..', 'docs', 'performance.md'), doc);
  out('docs/performance.md written');
}

/** Explanations that do not change from run to run (kept next to the code that measures them). */
const NOTES = `## What the figures mean, and what was changed

### 1. Bundles
- Every bundle is built by bench/bundles.ts with \`BUNDLING\` from lib/service-function.ts (the object the
  stack passes to NodejsFunction); the bench only toggles whether \`@aws-sdk/*\` stays external.
- What dominates a resource bundle (metafile): zod's classic API (~95 KB; the route table's schemas are
  zod, used for validation and the OpenAPI document), our own code (~49 KB in a resource function: since every
  resource is served by the same generic operations, each carries every entity declaration, the repository
  and the paging code; it was 25-38 KB when each function imported only its own entity), Powertools idempotency (~42 KB with
  its jmespath; Idempotency-Key, docs/decisions.md), Powertools logger and metrics (~27 KB with commons),
  middy (~4 KB). The AWS SDK is not in the bundle (runtime-provided).
- Fixed by earlier work: \`shared/entities/invoices.ts\` (now shared/domain/entities/invoices.ts) imported \`{ z } from 'zod'\`, which pulls in every zod
  locale: the invoices bundle was 522 KB (535,012 bytes), now ~175 KB. Every file now uses
  \`import * as z from 'zod'\` (the fix commit e44236d made for the others).
- SDK bundled vs external: section 2 runs both in the same interleaved rounds and names the faster one
  in its note (computed, not written by hand), and the targets check that the stack uses it. The point
  estimate flips with noise: on the quiet machine of 2026-11-22 (load 2-4) two full runs gave external
  8.6% faster, then bundled 3.4% faster (two --quick runs: external 6.3% and 6.6% faster; an earlier
  run at load 7-12 had bundled 21% faster). So a mode only wins when the 95% bootstrap interval of the
  bundled/external ratio (rounds resampled) excludes 1; otherwise the SDK stays external. The stack
  keeps \`@aws-sdk/*\` external (lib/service-function.ts BUNDLING), which also keeps every bundle under
  200 KB: bundled, each is ~700 KB, @smithy/core alone ~196 KB. On Lambda the runtime's own SDK is read
  from its disk; Init Duration in the REPORT log line is the figure to watch if that ever changes.
- test/cdk/bundles.test.ts keeps its 300 KB hard guard (the bundle-size guard); the 200 KB performance target is reported
  here. With the SDK external (the stack today) every bundle is under both.

### 2. Cold start
- The measured time is what Lambda reports as Init Duration plus the first invocation's Duration:
  \`require()\` of the built file and the first request; Node's own bootstrap is excluded for every bundle
  alike (it is not user code and is the same for all). Each process is fresh; one round visits every
  bundle, rounds alternate direction, so load on the machine hits all bundles alike.
- The empty baseline loads the DynamoDB client and makes one GetItem: most of its time is loading the SDK
  and the first signed HTTP call, which every function pays too. The rest of a resource function's start is
  loading its ~235 KB bundle (zod schemas of the whole route table are built at import, Powertools
  logger and metrics are created) and the first request (rate-limit UpdateItem + the route's Query).

### 3. Warm overhead
- Fair comparison: the bare handler makes exactly the same DynamoDB calls with the same inputs, including
  the rate limiter's conditional UpdateItem (the limiter is a required feature, its DynamoDB write is not
  framework overhead), so full - bare is the cost of middy, the logger, route resolution, auth context
  decoding, scope check, zod validation, response building, metrics and log lines.
- Two measurements: against DynamoDB Local (the real calls; DynamoDB Local's latency, several ms per call
  and noisy on a loaded machine, dominates both sides) and against an in-memory replay of the recorded
  responses (both handlers still build and send the commands through the same SDK client and middleware
  stack). The second is the precise figure for the framework's own CPU cost.
- Where the time went (in-memory mode, marks at every middy step and CPU profiles; 0.23-0.42 ms per
  request before the changes below, 0.19-0.23 ms after, on the 2-core machine of this report): Powertools
  metrics ~50 µs (five \`addMetric\` + \`publishStoredMetrics\` per request: per-call validation,
  invocation-scoped store bookkeeping with ~24 \`process.env\` reads, serializing the whole record); the
  Powertools logger ~70 µs (\`logger.info\` ~30 µs of it: JSON.stringify with a replacer, 8 \`process.env\`
  reads, timestamp formatting; \`injectLambdaContext\` before and after; each \`appendKeys\` or
  \`setCorrelationId\` call ~5 µs); middy ~5 µs (half of it its early-timeout timer); our own steps ~30 µs
  (route, auth context, zod, storable check, quota and response headers, response JSON); the entity layer
  (stripping storage attributes; for lists the sort by name, ~50 µs for 3 clients).
- Changed (no change to responses, headers, log lines or EMF records: each request path, logs at INFO and
  DEBUG, was compared line by line before and after): the EMF record's layout is serialized by Powertools
  once per container and each request only writes its timestamp and counters (shared/api/metrics.ts;
  test/observability/metrics.test.ts compares the line with Powertools' own); the request's log keys
  (correlation id, route, workspace, key) are appended in one call; scopes are checked with a Set lookup;
  the quota policy header is built once per request, not twice; no closures are created per request in auth-context decoding and the storable check;
  the Host and X-Forwarded-Proto lookup no longer allocates an array of entries per header; list sorting
  uses one \`Intl.Collator\` created at load instead of \`localeCompare(b, 'en', options)\`, which built a
  collator per comparison (~11 µs each; the same order). After these: 0.17-0.18 ms in memory.
- Not changed: the Powertools logger is now the largest part (~40%); writing the log line without it on the
  request path would be the next step, at a risk to the log format operators rely on.
- Why the DynamoDB Local rows show a larger gap: not more DynamoDB work (the two handlers send the same
  commands with the same inputs) and not garbage collection (the same scavenge rate, ~0.03 per request, for
  both), but that CPU work right after an I/O wait runs 2-3x slower (caches and CPU cold after DynamoDB
  Local's Java process ran on the same cores): e.g. \`logger.info\` ~55 µs in memory vs ~155 µs right after
  the GetItem's response, zod's path validation ~9 vs ~50 µs, and the bare handler's own last step 6 vs
  17 µs. The framework's work sits between the request's I/O waits, so that gap is ~2.5x the in-memory
  one; the p50s of two distributions several ms wide also differ by ±0.1-0.2 ms from run to run (the
  paired median is steadier).

### 4. DynamoDB work per endpoint
- get and list: 1 GetItem / 1 Query + the rate-limit UpdateItem, as targeted. Lists with filters
  (\`tasks?projectId\`, \`favorites?userId\`, time-entry filters) are key conditions (sort-key prefix or a
  dedicated index), still one Query; only time entries by project AND client add a FilterExpression on
  clientId, which removes nothing in practice (an entry's client is its project's), so it reads no more.
- every write carries its change event (docs/data-model.md, "Change feed"): one UpdateItem takes the
  event's feed position, and the record's ops plus the event are one TransactWriteItems. The column "of
  which feed" is that share (the position call and the WCU of the position counter and the event item);
  "last run" is the row as the previous run printed it (docs/performance.md as committed before this run).
- update = GetItem + position + TransactWriteItems; delete = GetItem + position + TransactWriteItems.
  NOT the 1-call target, by design: the event needs the record's state after the change (or its last
  state) inside the transaction, TransactWriteItems returns no values, and the feed's per-record order
  rests on every update and delete being guarded by the version it read. Before the feed, an update of
  plain fields was 1 UpdateItem and a delete of an unreferenced record 1 conditional DeleteItem
  (docs/decisions.md, "Data" and "Change feed").
- create with references = GetItems to derive and check (time entries and favorites read the task and the
  project: taskId implies the project, the project implies the client) + 1 TransactWriteItems (item, lock,
  usage counters) + the position UpdateItem; the transaction always holds the event too.
- History: an update of a time entry's notes took 4 data calls (read, task, project, write), then 2
  (read + write, skipping the re-check of unchanged references), then 1 (no read), and with the change
  feed 3 (read, position, transaction with the event).
- Capacity: DynamoDB Local reports 1 unit per TransactWriteItems whatever its items, and ignores index
  writes; the computed figures (bench/lib/capacity.ts, unit-tested) count 2 WCU per KB per transactional
  item and the index writes: a time entry is in up to 5 indexes, so writing one costs up to 5 more WCU.
  The time-entry list reads 51 items (limit + 1 for an exact hasMore) per page.
- No Scan anywhere (the table's IAM grants exclude it too).

### 5. Paging
- A page is one Query from the cursor (the signed key of the last returned item, used as
  ExclusiveStartKey), never skipping through earlier pages, so page 40 reads the same 51 items as page 1:
  the capacity ratio is 1.00, or a little off when those 51 items differ in size (notes are optional). Latency ratios are the noisy part (median of
  alternating runs on a shared machine); the work per page is the same.
- DynamoDB Local itself starts a Query deeper in a partition more slowly: the data layer alone (the same
  page through listTimeEntries, no HTTP stack) shows page 40 / page 1 = 1.10-1.21, while what the API adds
  per page (API minus data layer) stays the same on both pages within the noise (±2 ms). So the latency
  ratio sits near 1.1-1.2 on this machine because of DynamoDB Local (SQLite underneath), and can cross 1.2
  in a run; DynamoDB's own Query seeks to ExclusiveStartKey by key, and the capacity ratio (what AWS bills)
  is 1.00.

### 6. Throughput
- Both servers run in their own node process over the same DynamoDB Local, which is the bottleneck of both
  (the Java process shares the 2 cores with the servers and autocannon), so the ratio reflects how much the
  framework adds on top of the DynamoDB round trips.
`;

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
