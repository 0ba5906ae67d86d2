/**
 * Section 3 of `npm run bench` alone: the warm middleware overhead (bench/warm.ts), with its own
 * DynamoDB Local (in memory, free port) and the small workspace, printed as a table.
 *
 *   npx tsx bench/warm-only.ts [--iterations 1000] [--mode all|local|memory]
 *
 * --iterations as in bench/run.ts (1000 full, 200 quick; the in-memory mode runs 4x as many);
 * --mode memory skips the DynamoDB Local mode (e.g. to profile with `node --cpu-prof --import tsx`).
 */
import { out, progress, runScript, sectionArgs } from './lib/env';
import { table, WARM_COLUMNS, warmRow } from './lib/report';

const { iterations, mode } = sectionArgs(
  'npx tsx bench/warm-only.ts [--iterations N] [--mode all|local|memory]',
  { iterations: { type: 'string', default: '1000' }, mode: { type: 'string', default: 'all' } },
  (v) => {
    const n = { iterations: Number(v.iterations), mode: v.mode as 'all' | 'local' | 'memory' };
    return Number.isInteger(n.iterations) && n.iterations >= 1 && ['all', 'local', 'memory'].includes(n.mode) ? n : undefined;
  },
);

runScript(async (ws) => {
  const { measureWarm } = await import('./warm');
  const modes = mode === 'all' ? undefined : mode === 'local' ? (['DynamoDB Local'] as const) : (['in-memory DynamoDB'] as const);
  const results = await measureWarm(ws, iterations, progress, modes);
  out(table(WARM_COLUMNS, results.map(warmRow), 2));
});
