/**
 * Section 7 of `npm run bench` alone: report cost (bench/reports.ts), with its own DynamoDB Local.
 *
 *   npx tsx bench/reports-only.ts [--users 50] [--entries 60000] [--runs 9]
 */
import { out, progress, runScript, sectionArgs } from './lib/env';
import { targetsTable, type Target } from './lib/report';

const { users, entries, runs } = sectionArgs(
  'npx tsx bench/reports-only.ts [--users N] [--entries N] [--runs N]',
  { users: { type: 'string', default: '50' }, entries: { type: 'string', default: '60000' }, runs: { type: 'string', default: '9' } },
  (v) => {
    const n = { users: Number(v.users), entries: Number(v.entries), runs: Number(v.runs) };
    return Object.values(n).every((x) => Number.isInteger(x) && x >= 1) ? n : undefined;
  },
);

const t0 = performance.now();
runScript(async () => {
  const { measureReports, formatReports } = await import('./reports');
  const { DynamoCounter } = await import('./lib/dynamo-counter');
  const { db, dynamoConfig } = await import('../shared/data/db');
  const { createGateway } = await import('../local/gateway');
  const counter = new DynamoCounter(dynamoConfig()).install(db());
  const result = await measureReports(createGateway({ authCacheTtlSeconds: 3600 }), counter, { users, entries, runs, progress });
  counter.destroy();
  const targets: Target[] = [];
  const f = formatReports(result, targets);
  out(`${result.users} users, ${result.entries} entries over 2025 (seeded in ${(result.seedMs / 1000).toFixed(1)} s); ${runs} interleaved latency runs`);
  out(f.text);
  out(targetsTable(targets));
  out(`took ${((performance.now() - t0) / 1000).toFixed(0)} s`);
});
