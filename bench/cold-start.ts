import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUT_DIR, type BundleInfo, type FunctionId, type SdkMode } from './bundles';
import { apiEvent, authorizerEvent, lambdaContext, type Workspace } from './lib/fixtures';
import { prng } from '../shared/seed/random';
import { median, percentile } from './lib/stats';

/**
 * Section 2: cold start. For each bundle, `runs` fresh `node` processes each load the built .js
 * (`require`, as Lambda's init does) and serve one request against DynamoDB Local; the process reports
 * how long the load and the first request took (from just before `require` to the response), and exits.
 * Node's own bootstrap (before any user code) is the same for every bundle and is reported separately.
 * The figure is the median over the processes, divided by the same for the empty baseline
 * (bench/cold/empty-handler.ts: one GetItem) bundled the same way. Runs are interleaved (round-robin
 * over bundles and SDK modes) so drift on the machine affects every bundle alike.
 */
const HARNESS = `'use strict';
const { performance } = require('node:perf_hooks');
const fs = require('node:fs');
const [bundle, eventFile] = process.argv.slice(2);
const { event, context } = JSON.parse(fs.readFileSync(eventFile, 'utf8'));
context.getRemainingTimeInMillis = () => 10000;
const boot = performance.now();
const c0 = process.cpuUsage();
const t0 = performance.now();
const mod = require(bundle);
const t1 = performance.now();
Promise.resolve(mod.handler(event, context)).then((res) => {
  const t2 = performance.now();
  const c = process.cpuUsage(c0);
  const status = res && (res.statusCode || (res.principalId ? 200 : 0));
  fs.writeSync(3, JSON.stringify({ boot, load: t1 - t0, first: t2 - t1, total: t2 - t0, cpu: (c.user + c.system) / 1000, status }) + '\\n');
  process.exit(0);
}, (err) => {
  fs.writeSync(3, JSON.stringify({ error: String((err && err.stack) || err) }) + '\\n');
  process.exit(1);
});
`;

export interface ColdSample {
  boot: number;
  load: number;
  first: number;
  total: number;
  /** CPU time (user + system, ms) the process spent from just before `require` to the response: what the machine's other load does not lengthen. */
  cpu: number;
  status: number;
}
export interface ColdResult {
  fn: FunctionId;
  sdk: SdkMode;
  samples: ColdSample[];
  load: number;
  first: number;
  total: number;
  p90: number;
  boot: number;
  /** Median CPU ms of load + first request. */
  cpu: number;
}

/** The first request of each function: a list (GET) for resources, a valid key for the authorizer. */
export function firstEvent(fn: FunctionId, ws: Workspace): { event: unknown; context: unknown } {
  const context = lambdaContext(fn);
  if (fn === 'authorizer') return { event: authorizerEvent(ws.key), context };
  if (fn === 'empty') return { event: apiEvent({ method: 'GET', resource: '/v1/empty/{id}', pathParameters: { id: 'x' } }, ws.auth), context };
  if (fn === 'openapi') return { event: apiEvent({ method: 'GET', resource: '/v1/openapi.json' }, undefined), context };
  // the reports function's one route needs its period
  if (fn === 'reports')
    return { event: apiEvent({ method: 'GET', resource: '/v1/reports/summary', query: { startDate: '2026-01-01', endDate: '2026-01-31', groupBy: 'project' } }, ws.auth), context };
  return { event: apiEvent({ method: 'GET', resource: `/v1/${fn}` }, ws.auth), context };
}

/** A fresh process that has not reported within this long is killed and the section fails naming the bundle. */
export const COLD_PROCESS_TIMEOUT_MS = 30_000;

function runOnce(bundle: string, eventFile: string): Promise<ColdSample> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const child = spawn(process.execPath, [join(OUT_DIR, 'harness.cjs'), bundle, eventFile], { env, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    let report = '';
    let err = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, COLD_PROCESS_TIMEOUT_MS);
    child.stdio[3]!.on('data', (d) => (report += String(d)));
    child.stderr!.on('data', (d) => (err += String(d)));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) return reject(new Error(`gave up after ${COLD_PROCESS_TIMEOUT_MS / 1000} s waiting for the cold start of ${bundle} (load and first request); killed\n${err}`));
      try {
        const r = JSON.parse(report) as ColdSample & { error?: string };
        if (r.error || code !== 0) return reject(new Error(`${bundle}: ${r.error ?? `exit ${code}`}\n${err}`));
        if (r.status !== 200) return reject(new Error(`${bundle}: first request answered ${r.status}`));
        resolve(r);
      } catch {
        reject(new Error(`${bundle}: no report (exit ${code})\n${err}`));
      }
    });
  });
}

/**
 * Measures `runs` processes per bundle of the kept SDK mode, and `compareRuns` per bundle of the other:
 * first `compareRuns` rounds over every bundle of both modes (interleaved), then the mode whose
 * functions start faster (geometric mean of their medians) is kept and only its bundles get the
 * remaining rounds. Halves the time of the section without weakening the figure that counts.
 */
export async function measureColdStarts(
  bundles: BundleInfo[],
  ws: Workspace,
  o: {
    runs: number;
    compareRuns: number;
    progress?: (s: string) => void;
    /** Mode kept when neither is measurably faster. */ tieBreak: SdkMode;
    /** Aborted when the section overran its bound: no further process is started. */
    signal?: AbortSignal;
  },
): Promise<{ results: ColdResult[]; kept: SdkMode; geomean: Record<SdkMode, number>; comparison: SdkComparison }> {
  writeFileSync(join(OUT_DIR, 'harness.cjs'), HARNESS);
  const eventFiles = new Map<FunctionId, string>();
  for (const b of bundles) {
    if (eventFiles.has(b.fn)) continue;
    const f = join(OUT_DIR, `event-${b.fn}.json`);
    writeFileSync(f, JSON.stringify(firstEvent(b.fn, ws)));
    eventFiles.set(b.fn, f);
  }
  const samples = new Map<BundleInfo, ColdSample[]>(bundles.map((b) => [b, []]));
  const round = async (list: BundleInfo[], i: number) => {
    for (const b of i % 2 ? [...list].reverse() : list) {
      o.signal?.throwIfAborted();
      samples.get(b)!.push(await runOnce(b.file, eventFiles.get(b.fn)!));
    }
  };
  const compare = Math.min(o.compareRuns, o.runs);
  for (let i = 0; i < compare; i++) {
    await round(bundles, i);
    o.progress?.(`cold start: round ${i + 1}/${o.runs} (both SDK modes)`);
  }
  const summary = (b: BundleInfo): ColdResult => {
    const s = samples.get(b)!;
    return {
      fn: b.fn,
      sdk: b.sdk,
      samples: s,
      load: median(s.map((x) => x.load)),
      first: median(s.map((x) => x.first)),
      total: median(s.map((x) => x.total)),
      p90: percentile(
        s.map((x) => x.total),
        90,
      ),
      boot: median(s.map((x) => x.boot)),
      cpu: median(s.map((x) => x.cpu)),
    };
  };
  const gm = (sdk: SdkMode) => {
    const t = bundles.filter((b) => b.sdk === sdk && b.fn !== 'empty').map((b) => summary(b).total);
    return Math.exp(t.reduce((a, x) => a + Math.log(x), 0) / t.length);
  };
  const geomean = { external: gm('external'), bundled: gm('bundled') };
  // one SDK mode built only (the tiny run of test/bench/plumbing.test.ts): nothing to compare, the tie-break mode is kept
  const bothModes = bundles.some((b) => b.sdk === 'external') && bundles.some((b) => b.sdk === 'bundled');
  const comparison = bothModes ? compareSdkModes(bundles, samples, compare) : { ratio: NaN, low: NaN, high: NaN, significant: false };
  const kept: SdkMode = comparison.significant ? (comparison.ratio < 1 ? 'bundled' : 'external') : o.tieBreak;
  const keptBundles = bundles.filter((b) => b.sdk === kept);
  for (let i = compare; i < o.runs; i++) {
    await round(keptBundles, i);
    o.progress?.(`cold start: round ${i + 1}/${o.runs} (SDK ${kept})`);
  }
  return { results: bundles.map(summary), kept, geomean, comparison };
}

export interface SdkComparison {
  /** bundled / external: geometric mean over the functions of their median cold start, compared rounds. */
  ratio: number;
  /** 95% bootstrap interval of that ratio (rounds resampled with replacement, fixed seed). */
  low: number;
  high: number;
  /** The interval excludes 1: one mode is measurably faster on this machine. */
  significant: boolean;
}

/**
 * Whether one SDK mode starts measurably faster. The point estimate alone flips with machine noise
 * (runs on the same quiet machine gave external 8.6% faster, then bundled 3.4% faster), so the rounds
 * are resampled (2,000 bootstrap draws, fixed seed) and a mode only wins when the 95% interval of the
 * ratio excludes 1.
 */
export function compareSdkModes(bundles: BundleInfo[], samples: Map<BundleInfo, ColdSample[]>, rounds: number): SdkComparison {
  const fns = [...new Set(bundles.filter((b) => b.fn !== 'empty').map((b) => b.fn))];
  const totals = (fn: FunctionId, sdk: SdkMode) =>
    samples
      .get(bundles.find((b) => b.fn === fn && b.sdk === sdk)!)!
      .slice(0, rounds)
      .map((x) => x.total);
  const perFn = fns.map((fn) => ({ external: totals(fn, 'external'), bundled: totals(fn, 'bundled') }));
  const ratioOver = (picks: number[]) => {
    const logs = perFn.map((f) => Math.log(median(picks.map((i) => f.bundled[i]!)) / median(picks.map((i) => f.external[i]!))));
    return Math.exp(logs.reduce((a, x) => a + x, 0) / logs.length);
  };
  const all = Array.from({ length: rounds }, (_, i) => i);
  const random = prng(20261122);
  const draws = Array.from({ length: 2000 }, () => ratioOver(all.map(() => Math.floor(random() * rounds)))).sort((a, b) => a - b);
  const low = percentile(draws, 2.5);
  const high = percentile(draws, 97.5);
  return { ratio: ratioOver(all), low, high, significant: high < 1 || low > 1 };
}
