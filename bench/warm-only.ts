/**
 * Section 3 of `npm run bench` alone: the warm middleware overhead (bench/warm.ts), with its own
 * DynamoDB Local (in memory, free port) and the small workspace, printed as a table.
 *
 *   npx tsx bench/warm-only.ts [--iterations 1000] [--mode all|local|memory]
 *
 * --iterations as in bench/run.ts (1000 full, 200 quick; the in-memory mode runs 4x as many);
 * --mode memory skips the DynamoDB Local mode (e.g. to profile with `node --cpu-prof --import tsx`).
 */
import { parseArgs } from 'node:util';
import { out, runSectionAlone } from './lib/env';
import { table, WARM_COLUMNS, warmRow } from './lib/report';

const { values } = parseArgs({ options: { iterations: { type: 'string', default: '1000' }, mode: { type: 'string', default: 'all' } } });
const iterations = Number(values.iterations);
const mode = values.mode as 'all' | 'local' | 'memory';
if (!Number.isInteger(iterations) || iterations < 1 || !['all', 'local', 'memory'].includes(mode)) {
  process.stderr.write('usage: npx tsx bench/warm-only.ts [--iterations N] [--mode all|local|memory]\n');
  process.exit(2);
}

runSectionAlone(async (ws) => {
  const { measureWarm } = await import('./warm');
  const modes = mode === 'all' ? undefined : mode === 'local' ? (['DynamoDB Local'] as const) : (['in-memory DynamoDB'] as const);
  const results = await measureWarm(ws, iterations, (s) => process.stderr.write(`  ${s}\n`), modes);
  out(table(WARM_COLUMNS, results.map(warmRow), 2));
}).catch((err) => {
  console.error(err);
  process.exit(1);
});
