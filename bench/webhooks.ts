import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Gateway } from '../local/gateway';
import type { Workspace } from './lib/fixtures';
import { waitFor, withDeadline } from './lib/bounded';
import { percentile } from './lib/stats';

/**
 * Section 7 of `npm run bench`: webhook delivery on a local run (the code AWS runs, with the local loop
 * and the table-backed queue of local/webhooks.ts), to a receiver on 127.0.0.1 that verifies every
 * request with the `standardwebhooks` library and answers 204.
 *
 * - latency: `writes` client creates through the gateway, one after another with `spacingMs` between
 *   them, the delivery loop running; commit-to-delivery = arrival at the receiver - the moment the write's
 *   201 came back (the change committed), per event: p50 / p99 / max.
 * - throughput: `burst` creates with the loop stopped (the deliveries queue up in the feed), then the
 *   loop is started: deliveries per second = events / (last arrival - loop start).
 */
export interface WebhookBench {
  pollMs: number;
  latency: { events: number; p50: number; p99: number; max: number };
  throughput: { events: number; seconds: number; perSecond: number };
  unverified: number;
  duplicates: number;
}

export async function measureWebhooks(
  gateway: Gateway,
  ws: Workspace,
  opts: {
    writes: number;
    spacingMs: number;
    burst: number;
    pollMs?: number;
    progress?: (s: string) => void;
    /** Bound of each wait for deliveries (default 60 s; the run fails naming what had not arrived). */
    waitMs?: number;
  },
): Promise<WebhookBench> {
  const waitMs = opts.waitMs ?? 60_000;
  const pollMs = opts.pollMs ?? Number(process.env.WEBHOOK_POLL_MS ?? 250);
  process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
  const { startWebhookDelivery } = await import('../local/webhooks');
  const { localQueueDepth } = await import('../local/queue');
  const arrivals = new Map<string, number>();
  let secret = '';
  let unverified = 0;
  let requests = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      requests++;
      try {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        const event = new Webhook(secret).verify(Buffer.concat(chunks), headers) as { resourceId: string };
        if (!arrivals.has(event.resourceId)) arrivals.set(event.resourceId, at);
        res.writeHead(204).end();
      } catch {
        unverified++;
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const call = async (method: string, path: string, body: unknown) => {
    const res = await gateway.handle({ method, path, query: {}, headers: { 'X-API-Key': ws.key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`${method} ${path}: ${res.status} ${res.body}`);
    return JSON.parse(res.body) as { id: string; secret?: string };
  };
  const hook = await call('POST', '/v1/webhooks', { url, events: ['client.*'] });
  secret = hook.secret!;
  const missing = (ids: Iterable<string>) => {
    const left = [...ids].filter((id) => !arrivals.has(id));
    return `${left.length} not delivered (${left.slice(0, 3).join(', ')}${left.length > 3 ? ', ...' : ''}); ${requests} requests received, ${unverified} unverified`;
  };
  // Every wait is bounded and names what it waited for. This section runs on a table of its own (bench/run.ts),
  // so the queue holds only this section's messages: no earlier section's webhooks (retries due hours later) can hold it up.
  const stopLoop = (l: { stop(): Promise<void> }, what: string) => withDeadline(l.stop(), waitMs, `the webhook delivery loop to stop (${what})`);
  let loop: { stop(): Promise<void> } | undefined;
  try {
    // latency
    opts.progress?.(`webhooks: latency, ${opts.writes} writes ${opts.spacingMs} ms apart (poll ${pollMs} ms)`);
    loop = startWebhookDelivery({ pollMs });
    const committed = new Map<string, number>();
    for (let i = 0; i < opts.writes; i++) {
      const { id } = await call('POST', '/v1/clients', { name: `wh-lat-${i}-${Date.now()}` });
      committed.set(id, performance.now());
      await new Promise((r) => setTimeout(r, opts.spacingMs));
    }
    await waitFor(`the deliveries of the ${opts.writes} latency writes`, () => [...committed.keys()].every((id) => arrivals.has(id)), {
      timeoutMs: waitMs,
      detail: () => missing(committed.keys()),
    });
    const lat = [...committed].map(([id, t]) => arrivals.get(id)! - t);
    await stopLoop(loop, 'after the latency writes');
    loop = undefined;

    // throughput
    opts.progress?.(`webhooks: throughput, ${opts.burst} events queued in the feed, then the loop started`);
    const burst: string[] = [];
    for (let i = 0; i < opts.burst; i += 10) {
      const batch = await Promise.all(Array.from({ length: Math.min(10, opts.burst - i) }, (_, j) => call('POST', '/v1/clients', { name: `wh-tp-${i + j}-${Date.now()}` })));
      burst.push(...batch.map((b) => b.id));
    }
    const t0 = performance.now();
    loop = startWebhookDelivery({ pollMs });
    await waitFor(`the deliveries of the ${opts.burst} queued events`, () => burst.every((id) => arrivals.has(id)), { timeoutMs: waitMs, detail: () => missing(burst) });
    const seconds = (Math.max(...burst.map((id) => arrivals.get(id)!)) - t0) / 1000;
    // every event arrived; the queue empties once the sender has acknowledged its last messages
    await waitFor('the local delivery queue of this section to be empty', async () => (await localQueueDepth()) === 0, {
      timeoutMs: waitMs,
      intervalMs: 50,
      detail: async () => `${await localQueueDepth()} messages still queued`,
    });
    await stopLoop(loop, 'after the burst');
    loop = undefined;
    return {
      pollMs,
      latency: { events: lat.length, p50: percentile(lat, 50), p99: percentile(lat, 99), max: Math.max(...lat) },
      throughput: { events: burst.length, seconds, perSecond: burst.length / seconds },
      unverified,
      duplicates: requests - arrivals.size - unverified,
    };
  } finally {
    if (loop) await stopLoop(loop, 'after a failure').catch(() => undefined);
    server.closeAllConnections();
    await withDeadline(new Promise<void>((r) => server.close(() => r())), 10_000, 'the webhook receiver to close');
  }
}

export function formatWebhooks(r: WebhookBench): { rows: string[][]; header: string[]; note: string } {
  const header = ['measure', 'events', 'p50 ms', 'p99 ms', 'max ms', 'deliveries/s'];
  const rows = [
    ['commit-to-delivery latency', String(r.latency.events), r.latency.p50.toFixed(0), r.latency.p99.toFixed(0), r.latency.max.toFixed(0), '-'],
    [`throughput (${r.throughput.seconds.toFixed(1)} s)`, String(r.throughput.events), '-', '-', '-', r.throughput.perSecond.toFixed(1)],
  ];
  const note = `Local run: the delivery loop of local/webhooks.ts (poll every ${r.pollMs} ms, 50 messages per round in parallel) over DynamoDB Local, the same dispatcher and sender code as the AWS functions; receiver on 127.0.0.1 verifying each request with standardwebhooks (${r.unverified} unverified, ${r.duplicates} duplicate requests). Latency = arrival at the receiver - the write's 201; it is dominated by the poll interval locally (in AWS: stream -> dispatcher -> SQS -> sender instead).`;
  return { header, rows, note };
}
