/**
 * Section 6 of `npm run bench` alone: gateway vs bare node:http throughput (bench/throughput.ts), with its
 * own DynamoDB Local (in memory, free port) and the small workspace, printed as a table.
 *
 *   npx tsx bench/throughput-only.ts [--quick] [--rounds 7] [--seconds 3] [--warmup 2] [--connections 10]
 *
 * Defaults as in bench/run.ts (7 rounds of 3 s per server and endpoint; --quick: 3 rounds of 2 s).
 */
import { out, progress, runScript, sectionArgs } from './lib/env';
import { table } from './lib/report';
import { fmt } from './lib/stats';

const { rounds, seconds, warmupSeconds, connections } = sectionArgs(
  'npx tsx bench/throughput-only.ts [--quick] [--rounds N] [--seconds S] [--warmup S] [--connections N]',
  {
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string', default: '10' },
  },
  (v) => {
    const n = {
      rounds: Number(v.rounds ?? (v.quick ? 3 : 7)),
      seconds: Number(v.seconds ?? (v.quick ? 2 : 3)),
      warmupSeconds: Number(v.warmup ?? (v.quick ? 1 : 2)),
      connections: Number(v.connections),
    };
    return [n.rounds, n.connections].every((x) => Number.isInteger(x) && x >= 1) && n.seconds > 0 && n.warmupSeconds > 0 ? n : undefined;
  },
);

const t0 = performance.now();
runScript(async (ws) => {
  const { measureThroughput, summarizeThroughput } = await import('./throughput');
  const runs = await measureThroughput(ws, { rounds, seconds, warmupSeconds, connections, progress });
  const header = ['endpoint', 'bare req/s', 'p50 ms', 'p99 ms', 'gateway req/s', 'p50 ms', 'p99 ms', 'gateway / bare (median)', 'min-max', 'per round', 'non-2xx / errors'];
  const rows = summarizeThroughput(runs).map((s) => [
    s.endpoint,
    s.bare.rps.toFixed(1),
    fmt(s.bare.p50, 0),
    fmt(s.bare.p99, 0),
    s.gateway.rps.toFixed(1),
    fmt(s.gateway.p50, 0),
    fmt(s.gateway.p99, 0),
    fmt(s.ratio.median),
    `${fmt(s.ratio.min)}-${fmt(s.ratio.max)}`,
    s.ratio.ratios.map((r) => fmt(r)).join(' '),
    `${s.bare.non2xx + s.gateway.non2xx} / ${s.bare.errors + s.gateway.errors}`,
  ]);
  out(table(header, rows));
  out(
    `${rounds} interleaved rounds of ${seconds} s per server and endpoint, ${connections} connections; req/s = 2xx completed / measured seconds; took ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
});
