/**
 * Rate-limit benchmark: how many DynamoDB calls (and write units) rate limiting adds per request.
 *
 *   npx tsx bench/rate-limit.ts [--requests N]
 *
 * Starts its own DynamoDB Local, builds the table, and drives the local gateway (same handlers as
 * deployed). A middleware on the SDK document client sees every DynamoDB call; calls on a `RATE#`
 * counter item are the ones rate limiting adds. Prints figures only (no assertions).
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '200' } } });
const N = Math.max(10, Number(values.requests));

interface Call {
  command: string;
  rate: boolean;
  ms: number;
  wcu: number;
  ok: boolean;
}

async function main() {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
  process.env.AWS_REGION ??= 'local';
  process.env.TABLE_NAME = 'bench_rate_limit';
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

async function bench() {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { db, dynamoConfig, tableName } = await import('../shared/data/db');
  const { ensureTable } = await import('../shared/data/setup');
  const { createApiKey } = await import('../shared/data/apikey-store');
  const { createGateway } = await import('../local/gateway');
  const { setRateLimitClock, consume } = await import('../shared/data/rate-counter');
  const { SCOPES } = await import('../shared/api/routes');

  const admin = new DynamoDBClient(dynamoConfig());
  await ensureTable(admin, tableName());
  admin.destroy();

  // Every DynamoDB call through the shared client, tagged by whether it touches a rate counter.
  const calls: Call[] = [];
  (db().middlewareStack as unknown as { add: (mw: unknown, o: object) => void }).add(
    (next: (a: { input: Record<string, unknown> }) => Promise<{ output: { ConsumedCapacity?: { CapacityUnits?: number } } }>, context: { commandName?: string }) =>
      async (args: { input: Record<string, unknown> }) => {
        const pk = (args.input.Key as { PK?: unknown } | undefined)?.PK;
        const rate = typeof pk === 'string' && pk.startsWith('RATE#');
        if (rate) args.input.ReturnConsumedCapacity = 'TOTAL'; // measurement only
        const start = performance.now();
        const call: Call = { command: (context.commandName ?? '?').replace(/Command$/, ''), rate, ms: 0, wcu: 0, ok: true };
        calls.push(call);
        try {
          const out = await next(args);
          call.wcu = out.output.ConsumedCapacity?.CapacityUnits ?? 0;
          return out;
        } catch (err) {
          call.ok = false;
          // A write refused by its condition is still charged (DynamoDB bills 1 WCU for it).
          call.wcu = (err as { name?: string }).name === 'ConditionalCheckFailedException' ? 1 : 0;
          throw err;
        } finally {
          call.ms = performance.now() - start;
        }
      },
    { step: 'initialize', name: 'benchCallCounter' },
  );

  const gw = createGateway({ authCacheTtlSeconds: 300 });
  const ws = `bench-${Date.now().toString(36)}`;
  const scopes = [...SCOPES];
  const request = (key: string | undefined, path = '/v1/clients') => gw.handle({ method: 'GET', path, headers: key ? { 'X-API-Key': key } : {} });

  const rows: string[][] = [];
  const measure = async (label: string, n: number, fn: () => Promise<number[]>) => {
    calls.length = 0;
    const t0 = performance.now();
    const statuses = await fn();
    const elapsed = performance.now() - t0;
    const rate = calls.filter((c) => c.rate);
    const other = calls.filter((c) => !c.rate);
    const writes = rate.filter((c) => c.command !== 'GetItem' && c.command !== 'Query');
    const byStatus = Object.entries(statuses.reduce<Record<number, number>>((m, s) => ((m[s] = (m[s] ?? 0) + 1), m), {}))
      .map(([s, c]) => `${c}x${s}`)
      .join(' ');
    const ms = rate.map((c) => c.ms).sort((a, b) => a - b);
    const pct = (p: number) => (ms.length ? ms[Math.min(ms.length - 1, Math.floor((p / 100) * ms.length))]!.toFixed(1) : '-');
    rows.push([
      label,
      String(n),
      byStatus,
      (rate.length / n).toFixed(2),
      (writes.length / n).toFixed(2),
      (rate.filter((c) => !writes.includes(c)).length / n).toFixed(2),
      (rate.reduce((s, c) => s + c.wcu, 0) / n).toFixed(2),
      (other.length / n).toFixed(2),
      [...new Set(rate.map((c) => c.command))].join(',') || '-',
      `${pct(50)}/${pct(95)}`,
      (elapsed / n).toFixed(1),
    ]);
  };

  // Fixed clock (mid-minute) so no scenario straddles a window by accident.
  let now = Date.UTC(2031, 4, 6, 10, 0, 20);
  setRateLimitClock(() => now);

  // 1. Accepted requests, authorizer cache warm (the steady state).
  const big = (await createApiKey({ workspaceId: ws, name: 'bench', scopes, perMinute: 1_000_000, perHour: 10_000_000 })).key;
  await request(big);
  await measure('accepted, sequential', N, async () => {
    const out: number[] = [];
    for (let i = 0; i < N; i++) out.push((await request(big)).status);
    return out;
  });

  // 2. Accepted, concurrent (batches of 25).
  await measure('accepted, 25 concurrent', N, async () => {
    const out: number[] = [];
    for (let i = 0; i < N; i += 25) out.push(...(await Promise.all(Array.from({ length: Math.min(25, N - i) }, () => request(big)))).map((r) => r.status));
    return out;
  });

  // 3. Over the limit: 5/min, N requests → 5 accepted, N-5 refused.
  const small = (await createApiKey({ workspaceId: ws, name: 'bench-small', scopes, perMinute: 5, perHour: 1000 })).key;
  await request(small); // warms the authorizer cache (in an earlier minute)
  now += 60_000;
  await measure('limit 5/min, sequential', N, async () => {
    const out: number[] = [];
    for (let i = 0; i < N; i++) out.push((await request(small)).status);
    return out;
  });

  // 4. Over the limit under concurrency: N concurrent against 10/min → exactly 10 pass.
  const ten = (await createApiKey({ workspaceId: ws, name: 'bench-ten', scopes, perMinute: 10, perHour: 1000 })).key;
  await request(ten); // warms the authorizer cache (in an earlier minute)
  now += 60_000;
  await measure('limit 10/min, all concurrent', N, async () => (await Promise.all(Array.from({ length: N }, () => request(ten)))).map((r) => r.status));

  // 5. Window edges: the first request of every minute and of every hour (no reset step, no retry).
  await measure('first of each new minute/hour', 120, async () => {
    const out: number[] = [];
    for (let i = 0; i < 120; i++) {
      now += 60_000;
      out.push((await request(big)).status);
    }
    return out;
  });

  // 6. The public OpenAPI route: not limited.
  await measure('public /v1/openapi.json', 50, async () => {
    const out: number[] = [];
    for (let i = 0; i < 50; i++) out.push((await request(undefined, '/v1/openapi.json')).status);
    return out;
  });

  const head = ['scenario', 'requests', 'statuses', 'RL calls/req', 'RL writes/req', 'RL reads/req', 'RL WCU/req', 'other calls/req', 'RL ops', 'RL ms p50/p95', 'ms/req'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\nRate limiting: DynamoDB calls added per request (RL = calls on RATE# counter items; DynamoDB Local, ${N} requests)\n`);
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));

  // Worst-case counter item: all 60 minute attributes of an hour used, large counts.
  const hourStart = Date.UTC(2031, 4, 6, 12, 0, 0);
  calls.length = 0;
  for (let m = 0; m < 60; m++)
    for (let i = 0; i < 2; i++) await consume('key_bench_fullhour_01JZZZZZZZZZZZZZZZZZZZZZZZ', { perMinute: 1_000_000, perHour: 10_000_000 }, hourStart + m * 60_000 + 1000);
  const lastWcu = calls[calls.length - 1]?.wcu;
  console.log(`\nCounter item with all 60 minute attributes in use: the 120th write consumed ${lastWcu} WCU (item stays under 1 KB).`);
  console.log('Other calls/req = the route itself (here a Query for GET /v1/clients); authorizer calls appear only on a cache miss.');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
