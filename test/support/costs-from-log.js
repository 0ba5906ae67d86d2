// @ts-check
/**
 * Regenerates test/support/test-costs.json (the sequencer's order on a clean clone) from the output of a
 * clean `npm test` or `bash .ci/run`: the `time <seconds> s <file>` line the timing reporter prints as each
 * file ends. Files the log does not name keep their cost; files that no longer exist are dropped.
 *
 *   bash .ci/run 2>&1 | tee ci.log; node test/support/costs-from-log.js ci.log
 */
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const log = process.argv[2];
if (!log) {
  process.stderr.write('usage: node test/support/costs-from-log.js <log of npm test or bash .ci/run>\n');
  process.exit(2);
}
const root = join(__dirname, '../..');
const file = join(__dirname, 'test-costs.json');
const costs = /** @type {Record<string, number>} */ (JSON.parse(readFileSync(file, 'utf8')));
let seen = 0;
for (const m of readFileSync(log, 'utf8').matchAll(/^time +([\d.]+) s (test\/\S+\.test\.ts) /gm)) {
  costs[m[2]] = Number(m[1]);
  seen++;
}
if (seen === 0) {
  process.stderr.write(`${log} has no "time <seconds> s <file>" lines: not the output of npm test\n`);
  process.exit(1);
}
const kept = Object.entries(costs)
  .filter(([f]) => existsSync(join(root, f)))
  .sort((a, b) => b[1] - a[1]);
writeFileSync(file, `${JSON.stringify(Object.fromEntries(kept), null, 2)}\n`);
process.stdout.write(`test-costs.json: ${seen} files timed by the log, ${kept.length} files in all\n`);
