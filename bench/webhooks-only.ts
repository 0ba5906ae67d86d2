/**
 * Section 7 of `npm run bench` alone: webhook commit-to-delivery latency and deliveries per second
 * (bench/webhooks.ts), with its own DynamoDB Local and the small workspace.
 *
 *   npx tsx bench/webhooks-only.ts [--writes 100] [--spacing 50] [--burst 500] [--poll 250]
 */
import { out, progress, runScript, sectionArgs } from './lib/env';
import { table } from './lib/report';

const { writes, spacingMs, burst, pollMs } = sectionArgs(
  'npx tsx bench/webhooks-only.ts [--writes N] [--spacing MS] [--burst N] [--poll MS]',
  { writes: { type: 'string', default: '100' }, spacing: { type: 'string', default: '50' }, burst: { type: 'string', default: '500' }, poll: { type: 'string' } },
  (v) => {
    const n = { writes: Number(v.writes), spacingMs: Number(v.spacing), burst: Number(v.burst), pollMs: v.poll === undefined ? undefined : Number(v.poll) };
    return [n.writes, n.burst].every((x) => Number.isInteger(x) && x >= 1) && n.spacingMs >= 0 && (n.pollMs === undefined || n.pollMs > 0) ? n : undefined;
  },
);

runScript(async (ws) => {
  const { measureWebhooks, formatWebhooks } = await import('./webhooks');
  const { createGateway } = await import('../local/gateway');
  const r = await measureWebhooks(createGateway({ authCacheTtlSeconds: 3600 }), ws, {
    writes,
    spacingMs,
    burst,
    ...(pollMs !== undefined ? { pollMs } : {}),
    progress,
  });
  const f = formatWebhooks(r);
  out(table(f.header, f.rows));
  out(f.note);
});
