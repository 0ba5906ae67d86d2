/**
 * The largest-whole-list section of `npm run bench` alone (bench/whole-list.ts), with its own DynamoDB
 * Local (in memory, free port).
 *
 *   npx tsx bench/whole-list-only.ts [--runs 5]
 */
import { out, progress, runScript, sectionArgs } from './lib/env';
import { table } from './lib/report';

const runs = sectionArgs('npx tsx bench/whole-list-only.ts [--runs N]', { runs: { type: 'string', default: '5' } }, (v) => {
  const n = Number(v.runs);
  return Number.isInteger(n) && n >= 1 ? n : undefined;
});

runScript(async () => {
  const { measureWholeList, formatWholeList } = await import('./whole-list');
  const f = formatWholeList(await measureWholeList({ runs, progress }));
  out(`${table(f.header, f.rows)}\n${f.note}`);
});
