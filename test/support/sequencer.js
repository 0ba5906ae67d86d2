// @ts-check
const { readFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/**
 * The order of the files in a jest run: longest first, so the two workers of the parallel group end
 * together instead of one running a 90 s file alone at the end. jest's own sequencer already sorts by the
 * durations of the previous run it keeps in its cache directory, but a clean clone (CI) has none and falls
 * back to file size, a poor guess here (a 64-line file runs every bench section). So a file's cost is jest's
 * cached duration when there is one, else its seconds in test/support/test-costs.json (the per-file times of
 * a clean CI run, from the `time ...` lines `npm test` prints). A file in neither (a new one) runs first, as
 * jest does with files it has no time for: a long new file then starts early too.
 *
 * Nothing depends on the order for correctness: every file has its own table, workspaces, ports and folders.
 */
const COSTS = /** @type {Record<string, number>} */ (JSON.parse(readFileSync(join(__dirname, 'test-costs.json'), 'utf8')));

class CostSequencer extends Sequencer {
  /** @param {import('@jest/test-result').Test} test */
  time(test) {
    const cached = super.time(test);
    if (cached != null) return cached;
    const hint = COSTS[relative(test.context.config.rootDir, test.path).split('\\').join('/')];
    return hint === undefined ? undefined : hint * 1000;
  }
}

module.exports = CostSequencer;
