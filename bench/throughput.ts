import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { PROJECT_ROOT } from '../lib/service-function';
import type { Workspace } from './lib/fixtures';

/**
 * Section 6: throughput. autocannon (loopback only, bounded by a request count and a time limit) against
 * two child processes on 127.0.0.1: the local gateway (the deployed handler modules behind the API
 * Gateway stand-in) and a bare node:http server making the same DynamoDB calls (bench/throughput-server.ts),
 * for get, list and create of clients, with a key whose limits are never reached. Each run is preceded
 * by a short unrecorded warm-up; bare and gateway alternate.
 */
export interface ThroughputRow {
  endpoint: string;
  server: 'gateway' | 'bare';
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

interface Child {
  port: number;
  proc: ChildProcess;
}

function startServer(mode: 'gateway' | 'bare', ws: Workspace): Promise<Child> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, BENCH_AUTH: JSON.stringify({ key: ws.key, ...ws.auth }) };
    delete env.NODE_OPTIONS;
    const proc = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'bench', 'throughput-server.ts'), mode], { env, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    let err = '';
    proc.stderr!.on('data', (d) => (err += String(d)));
    proc.stdio[3]!.once('data', (d) => resolve({ port: (JSON.parse(String(d)) as { port: number }).port, proc }));
    proc.on('exit', (code) => reject(new Error(`${mode} server exited (${code}): ${err}`)));
  });
}

function cannon(opts: autocannon.Options, maxSeconds: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const inst = autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
    const timer = setTimeout(() => inst.stop(), maxSeconds * 1000);
    inst.on('done', () => clearTimeout(timer));
  });
}

export async function measureThroughput(ws: Workspace, o: { amount: number; connections: number; maxSeconds: number; progress?: (s: string) => void }): Promise<ThroughputRow[]> {
  const servers = { gateway: await startServer('gateway', ws), bare: await startServer('bare', ws) };
  const client = ws.clients[0]!;
  const endpoints: Array<{ endpoint: string; req: { method: 'GET' | 'POST'; path: string; body?: string; idReplacement?: boolean } }> = [
    { endpoint: 'get    GET /v1/clients/{id}', req: { method: 'GET', path: `/v1/clients/${client.id}` } },
    { endpoint: 'list   GET /v1/clients', req: { method: 'GET', path: '/v1/clients' } },
    { endpoint: 'create POST /v1/clients', req: { method: 'POST', path: '/v1/clients', body: '{"name":"Bench client [<id>]"}', idReplacement: true } },
  ];
  const rows: ThroughputRow[] = [];
  try {
    for (const e of endpoints) {
      for (const mode of ['bare', 'gateway'] as const) {
        const { path, ...rest } = e.req;
        const base: autocannon.Options = { url: `http://127.0.0.1:${servers[mode].port}${path}`, headers: { 'x-api-key': ws.key, 'content-type': 'application/json' }, connections: o.connections, ...rest };
        await cannon({ ...base, amount: Math.max(50, Math.floor(o.amount / 10)) }, o.maxSeconds);
        const r = await cannon({ ...base, amount: o.amount }, o.maxSeconds);
        rows.push({ endpoint: e.endpoint, server: mode, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, requests: r.requests.total, non2xx: r.non2xx, errors: r.errors + r.timeouts });
        o.progress?.(`throughput: ${e.endpoint} (${mode}) ${r.requests.average.toFixed(0)} req/s`);
      }
    }
  } finally {
    for (const s of Object.values(servers)) s.proc.kill('SIGTERM');
  }
  return rows;
}
