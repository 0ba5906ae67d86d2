import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { Workspace } from './lib/fixtures';
import { median, pairedRatios, perSecond, type RatioSpread } from './lib/stats';

/**
 * Section 6: throughput. autocannon (loopback only, fixed-duration runs) against two child processes on
 * 127.0.0.1: the local gateway (the deployed handler modules behind the API Gateway stand-in) and a bare
 * node:http server making the same DynamoDB calls (bench/throughput-server.ts), for get, list and create
 * of clients, with a key whose limits are never reached.
 *
 * Throughput = 2xx responses completed / the run's measured elapsed time (autocannon's start to finish),
 * not autocannon's `requests.average`, a mean of whole-second buckets that quantizes short runs (both
 * servers came out at 250 or 167 req/s). Per endpoint: an unrecorded warm-up of each server (3x as long
 * for the first endpoint), then
 * `rounds` rounds of one run per server, interleaved and alternating which goes first (bare, gateway;
 * gateway, bare; ...), so drift (load, a growing table) hits both alike. Each round gives one
 * gateway/bare ratio; the section reports their median and min-max.
 */
export interface ThroughputRun {
  endpoint: string;
  server: 'gateway' | 'bare';
  round: number;
  /** 2xx responses completed within the measured time (the only ones counted as throughput). */
  ok: number;
  /** Responses completed, any status. */
  requests: number;
  non2xx: number;
  /** Connection errors, timeouts included. */
  errors: number;
  /** Measured elapsed seconds of the run. */
  seconds: number;
  /** ok / seconds. */
  rps: number;
  p50: number;
  p99: number;
}

export interface ServerThroughput {
  /** All rounds' 2xx responses / all rounds' measured seconds. */
  rps: number;
  /** Median over the rounds of each run's latency percentiles (ms). */
  p50: number;
  p99: number;
  ok: number;
  requests: number;
  non2xx: number;
  errors: number;
  seconds: number;
}

export interface ThroughputSummary {
  endpoint: string;
  rounds: number;
  bare: ServerThroughput;
  gateway: ServerThroughput;
  /** gateway rps / bare rps per round: median and min-max. */
  ratio: RatioSpread;
  /** No non-2xx response and no connection error on either side. */
  clean: boolean;
}

/** Per endpoint (in order of appearance): both servers' figures and the per-round gateway/bare ratios. */
export function summarizeThroughput(runs: readonly ThroughputRun[]): ThroughputSummary[] {
  return [...new Set(runs.map((r) => r.endpoint))].map((endpoint) => {
    const of = (server: ThroughputRun['server']) => runs.filter((r) => r.endpoint === endpoint && r.server === server).sort((a, b) => a.round - b.round);
    const server = (rs: ThroughputRun[]): ServerThroughput => {
      const sum = (f: (r: ThroughputRun) => number) => rs.reduce((a, r) => a + f(r), 0);
      const ok = sum((r) => r.ok);
      const seconds = sum((r) => r.seconds);
      return {
        rps: perSecond(ok, seconds),
        p50: median(rs.map((r) => r.p50)),
        p99: median(rs.map((r) => r.p99)),
        ok,
        requests: sum((r) => r.requests),
        non2xx: sum((r) => r.non2xx),
        errors: sum((r) => r.errors),
        seconds,
      };
    };
    const b = of('bare');
    const g = of('gateway');
    const rounds = [...new Set([...b, ...g].map((r) => r.round))].sort((x, y) => x - y).filter((i) => b.some((r) => r.round === i) && g.some((r) => r.round === i));
    const rpsIn = (rs: ThroughputRun[]) => rounds.map((i) => rs.find((r) => r.round === i)!.rps);
    const bare = server(b);
    const gateway = server(g);
    return { endpoint, rounds: rounds.length, bare, gateway, ratio: pairedRatios(rpsIn(g), rpsIn(b)), clean: bare.non2xx + bare.errors + gateway.non2xx + gateway.errors === 0 };
  });
}

/** Repository root (the same as lib/service-function's PROJECT_ROOT, without loading aws-cdk-lib for it). */
const PROJECT_ROOT = join(__dirname, '..');

interface Child {
  port: number;
  proc: ChildProcess;
}

const SERVER_START_TIMEOUT_MS = 60_000;

function startServer(mode: 'gateway' | 'bare', ws: Workspace): Promise<Child> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, BENCH_AUTH: JSON.stringify({ key: ws.key, ...ws.auth }) };
    delete env.NODE_OPTIONS;
    const proc = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'bench', 'throughput-server.ts'), mode], { env, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    let err = '';
    // bounded: a server that has not said its port within SERVER_START_TIMEOUT_MS is killed and named
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`gave up after ${SERVER_START_TIMEOUT_MS / 1000} s waiting for the ${mode} throughput server (bench/throughput-server.ts) to listen: ${err}`));
    }, SERVER_START_TIMEOUT_MS);
    proc.stderr!.on('data', (d) => (err += String(d)));
    proc.stdio[3]!.once('data', (d) => {
      clearTimeout(timer);
      resolve({ port: (JSON.parse(String(d)) as { port: number }).port, proc });
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${mode} server exited (${code}): ${err}`));
    });
  });
}

/** One fixed-duration autocannon run; stopped by force if it overruns by 15 s, and failed naming it if even that does not end it. */
function cannon(opts: autocannon.Options & { duration: number }): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const inst = autocannon(opts, (err, result) => {
      clearTimeout(timer);
      clearTimeout(giveUp);
      if (err) reject(err);
      else resolve(result);
    });
    const timer = setTimeout(() => inst.stop(), (opts.duration + 15) * 1000);
    const giveUp = setTimeout(
      () => reject(new Error(`gave up after ${opts.duration + 30} s waiting for the autocannon run of ${String(opts.url)} to end`)),
      (opts.duration + 30) * 1000,
    );
  });
}

export async function measureThroughput(
  ws: Workspace,
  o: { rounds: number; seconds: number; warmupSeconds: number; connections: number; progress?: (s: string) => void },
): Promise<ThroughputRun[]> {
  const servers = { gateway: await startServer('gateway', ws), bare: await startServer('bare', ws) };
  const client = ws.clients[0]!;
  const endpoints: Array<{ endpoint: string; req: { method: 'GET' | 'POST'; path: string; body?: string; idReplacement?: boolean } }> = [
    { endpoint: 'get    GET /v1/clients/{id}', req: { method: 'GET', path: `/v1/clients/${client.id}` } },
    { endpoint: 'list   GET /v1/clients', req: { method: 'GET', path: '/v1/clients' } },
    { endpoint: 'create POST /v1/clients', req: { method: 'POST', path: '/v1/clients', body: '{"name":"Bench client [<id>]"}', idReplacement: true } },
  ];
  const runs: ThroughputRun[] = [];
  try {
    for (const e of endpoints) {
      const { path, ...rest } = e.req;
      const base = (mode: 'bare' | 'gateway'): autocannon.Options => ({
        url: `http://127.0.0.1:${servers[mode].port}${path}`,
        headers: { 'x-api-key': ws.key, 'content-type': 'application/json' },
        connections: o.connections,
        ...rest,
      });
      // The first endpoint warms longer: fresh server processes and DynamoDB Local's JIT are still ramping up.
      if (o.warmupSeconds > 0) for (const mode of ['bare', 'gateway'] as const) await cannon({ ...base(mode), duration: o.warmupSeconds * (e === endpoints[0] ? 3 : 1) });
      for (let round = 0; round < o.rounds; round++) {
        for (const mode of round % 2 ? (['gateway', 'bare'] as const) : (['bare', 'gateway'] as const)) {
          const r = await cannon({ ...base(mode), duration: o.seconds });
          const ms = r.finish.getTime() - r.start.getTime();
          const seconds = ms > 0 ? ms / 1000 : r.duration;
          const ok = r['2xx'];
          runs.push({
            endpoint: e.endpoint,
            server: mode,
            round,
            ok,
            requests: r.requests.total,
            non2xx: r.non2xx,
            errors: r.errors,
            seconds,
            rps: perSecond(ok, seconds),
            p50: r.latency.p50,
            p99: r.latency.p99,
          });
          const bad = r.non2xx + r.errors ? ` (${r.non2xx} non-2xx, ${r.errors} errors)` : '';
          o.progress?.(
            `throughput: ${e.endpoint} (${mode}) round ${round + 1}/${o.rounds}: ${ok} x 2xx in ${seconds.toFixed(2)} s = ${perSecond(ok, seconds).toFixed(1)} req/s${bad}`,
          );
        }
      }
    }
  } finally {
    for (const s of Object.values(servers)) s.proc.kill('SIGTERM');
  }
  return runs;
}
