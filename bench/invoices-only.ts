/**
 * Section 10 of `npm run bench` alone: invoices made from time (bench/invoices.ts), with its own DynamoDB Local.
 *
 *   npx tsx bench/invoices-only.ts [--sizes 100,5000]
 */
import { out, progress, runScript, sectionArgs } from './lib/env';
import { targetsTable, type Target } from './lib/report';

const sizes = sectionArgs('npx tsx bench/invoices-only.ts [--sizes 100,5000] (1..5000 each)', { sizes: { type: 'string', default: '100,5000' } }, (v) => {
  const list = String(v.sizes).split(',').map(Number);
  return list.every((n) => Number.isInteger(n) && n >= 1 && n <= 5000) ? list : undefined;
});

const t0 = performance.now();
runScript(async () => {
  const { measureInvoices, formatInvoices } = await import('./invoices');
  const { DynamoCounter } = await import('./lib/dynamo-counter');
  const { db, dynamoConfig } = await import('../shared/data/db');
  const counter = new DynamoCounter(dynamoConfig()).install(db());
  const result = await measureInvoices(counter, { sizes, progress });
  counter.destroy();
  const targets: Target[] = [];
  out(formatInvoices(result, targets).text);
  out(targetsTable(targets));
  out(`took ${((performance.now() - t0) / 1000).toFixed(0)} s`);
});
