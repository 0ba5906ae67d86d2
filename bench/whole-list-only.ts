/**
 * The largest-whole-list section of `npm run bench` alone (bench/whole-list.ts), with its own DynamoDB
 * Local (in memory, free port).
 *
 *   npx tsx bench/whole-list-only.ts [--runs 5]
 */
import { parseArgs } from 'node:util';
import { out, runSectionAlone } from './lib/env';
import { table } from './lib/report';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });

runSectionAlone(async () => {
  const { measureWholeList, formatWholeList } = await import('./whole-list');
  const f = formatWholeList(await measureWholeList({ runs: Number(values.runs), progress: (s) => process.stderr.write(`  ${s}\n`) }));
  out(`${table(f.header, f.rows)}\n${f.note}`);
}).catch((err) => {
  console.error(err);
  process.exit(1);
});
