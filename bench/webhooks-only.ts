/**
 * Section 7 of `npm run bench` alone: webhook commit-to-delivery latency and deliveries per second
 * (bench/webhooks.ts), with its own DynamoDB Local and the small workspace.
 *
 *   npx tsx bench/webhooks-only.ts [--writes 100] [--spacing 50] [--burst 500] [--poll 250]
 */
import { parseArgs } from 'node:util';
import { out, runSectionAlone } from './lib/env';
import { table } from './lib/report';

const { values } = parseArgs({
  options: { writes: { type: 'string', default: '100' }, spacing: { type: 'string', default: '50' }, burst: { type: 'string', default: '500' }, poll: { type: 'string' } },
});
const writes = Number(values.writes);
const spacingMs = Number(values.spacing);
const burst = Number(values.burst);
const pollMs = values.poll === undefined ? undefined : Number(values.poll);
if (![writes, burst].every((n) => Number.isInteger(n) && n >= 1) || !(spacingMs >= 0) || (pollMs !== undefined && !(pollMs > 0))) {
  process.stderr.write('usage: npx tsx bench/webhooks-only.ts [--writes N] [--spacing MS] [--burst N] [--poll MS]\n');
  process.exit(2);
}

runSectionAlone(async (ws) => {
  const { measureWebhooks, formatWebhooks } = await import('./webhooks');
  const { createGateway } = await import('../local/gateway');
  const r = await measureWebhooks(createGateway({ authCacheTtlSeconds: 3600 }), ws, {
    writes,
    spacingMs,
    burst,
    ...(pollMs !== undefined ? { pollMs } : {}),
    progress: (s) => process.stderr.write(`  ${s}\n`),
  });
  const f = formatWebhooks(r);
  out(table(f.header, f.rows));
  out(f.note);
}).catch((err) => {
  console.error(err);
  process.exit(1);
});
