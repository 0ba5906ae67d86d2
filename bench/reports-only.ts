/**
 * Section 7 of `npm run bench` alone: report cost (bench/reports.ts), with its own DynamoDB Local.
 *
 *   npx tsx bench/reports-only.ts [--users 50] [--entries 60000] [--runs 9]
 */
import { parseArgs } from 'node:util';
import { out, runSectionAlone } from './lib/env';
import { metText, table, type Target } from './lib/report';

const { values } = parseArgs({ options: { users: { type: 'string', default: '50' }, entries: { type: 'string', default: '60000' }, runs: { type: 'string', default: '9' } } });
const users = Number(values.users);
const entries = Number(values.entries);
const runs = Number(values.runs);
if (![users, entries, runs].every((n) => Number.isInteger(n) && n >= 1)) {
  process.stderr.write('usage: npx tsx bench/reports-only.ts [--users N] [--entries N] [--runs N]\n');
  process.exit(2);
}

const t0 = performance.now();
runSectionAlone(async () => {
  const { measureReports, formatReports } = await import('./reports');
  const { DynamoCounter } = await import('./lib/dynamo-counter');
  const { db, dynamoConfig } = await import('../shared/data/db');
  const { createGateway } = await import('../local/gateway');
  const counter = new DynamoCounter(dynamoConfig()).install(db());
  const result = await measureReports(createGateway({ authCacheTtlSeconds: 3600 }), counter, { users, entries, runs, progress: (s) => process.stderr.write(`  ${s}\n`) });
  counter.destroy();
  const targets: Target[] = [];
  const f = formatReports(result, targets);
  out(`${result.users} users, ${result.entries} entries over 2025 (seeded in ${(result.seedMs / 1000).toFixed(1)} s); ${runs} interleaved latency runs`);
  out(f.text);
  out(
    table(
      ['target', 'figure', 'wanted', 'result'],
      targets.map((t) => [t.name, t.figure, t.target, metText(t.met)]),
    ),
  );
  out(`took ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}).catch((err) => {
  console.error(err);
  process.exit(1);
});
