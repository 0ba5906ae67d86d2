/**
 * Section 10 of `npm run bench` alone: invoices made from time (bench/invoices.ts), with its own DynamoDB Local.
 *
 *   npx tsx bench/invoices-only.ts [--sizes 100,5000]
 */
import { parseArgs } from 'node:util';
import { out, runSectionAlone } from './lib/env';
import { metText, table, type Target } from './lib/report';

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '100,5000' } } });
const sizes = String(values.sizes).split(',').map(Number);
if (!sizes.every((n) => Number.isInteger(n) && n >= 1 && n <= 5000)) {
  process.stderr.write('usage: npx tsx bench/invoices-only.ts [--sizes 100,5000] (1..5000 each)\n');
  process.exit(2);
}

const t0 = performance.now();
runSectionAlone(async () => {
  const { measureInvoices, formatInvoices } = await import('./invoices');
  const { DynamoCounter } = await import('./lib/dynamo-counter');
  const { db, dynamoConfig } = await import('../shared/data/db');
  const counter = new DynamoCounter(dynamoConfig()).install(db());
  const result = await measureInvoices(counter, { sizes, progress: (s) => process.stderr.write(`  ${s}\n`) });
  counter.destroy();
  const targets: Target[] = [];
  out(formatInvoices(result, targets).text);
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
