// @ts-check
const { appendFileSync, existsSync, readFileSync } = require('node:fs');
const { relative } = require('node:path');

/**
 * Where the time of a jest run goes: one line per test file as it ends (its wall time, its tests, the
 * group it ran in) and, when the run ends, the slowest files. `npm test` runs jest twice (test/support/run-tests.sh:
 * the files that may share the machine, on 2 workers, then the few that need it alone, one at a time); with
 * JEST_TIMINGS_FILE set, each run appends its files there and the last one's table covers both runs.
 *
 * Options (jest.config.js `reporters`): `slowest` (how many files the closing table lists, default 15).
 */
class TimingReporter {
  /**
   * @param {import('@jest/reporters').Config.GlobalConfig} globalConfig
   * @param {{ slowest?: number }} [options]
   */
  constructor(globalConfig, options = {}) {
    this.rootDir = globalConfig.rootDir;
    this.slowest = options.slowest ?? 15;
    this.group = process.env.JEST_GROUP || 'all';
    this.file = process.env.JEST_TIMINGS_FILE || undefined;
    /** @type {Array<{ file: string; seconds: number; tests: number; failed: number; group: string }>} */
    this.rows = [];
    this.started = Date.now();
  }

  /**
   * @param {import('@jest/reporters').Test} test
   * @param {import('@jest/reporters').TestResult} result
   */
  onTestResult(test, result) {
    const { start, end } = result.perfStats;
    const seconds = start && end ? (end - start) / 1000 : 0;
    const row = {
      file: relative(this.rootDir, test.path),
      seconds,
      tests: result.numPassingTests + result.numFailingTests + result.numPendingTests,
      failed: result.numFailingTests + (result.testExecError ? 1 : 0),
      group: this.group,
    };
    this.rows.push(row);
    if (this.file) appendFileSync(this.file, `${JSON.stringify(row)}\n`);
    process.stderr.write(`time ${fmt(seconds)} ${row.file} (${row.tests} tests${row.failed ? `, ${row.failed} FAILED` : ''}, ${row.group})\n`);
  }

  onRunComplete() {
    const wall = (Date.now() - this.started) / 1000;
    const rows = this.file && existsSync(this.file) ? readRows(this.file) : this.rows;
    const total = rows.reduce((s, r) => s + r.seconds, 0);
    const top = [...rows].sort((a, b) => b.seconds - a.seconds).slice(0, this.slowest);
    const lines = [
      '',
      `Slowest ${top.length} of ${rows.length} test files${this.file ? ' (every group of this npm test)' : ''}; seconds each file took from its start to its end:`,
      ...top.map((r, i) => `${String(i + 1).padStart(3)}. ${fmt(r.seconds)} ${r.file} (${r.group})`),
      `Sum over the files: ${total.toFixed(0)} s; this jest run (group ${this.group}) took ${wall.toFixed(0)} s of wall time.`,
      '',
    ];
    process.stderr.write(`${lines.join('\n')}\n`);
  }
}

/** @param {number} s */
const fmt = (s) => `${s.toFixed(1).padStart(6)} s`;

/** @param {string} file */
function readRows(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => /** @type {{ file: string; seconds: number; tests: number; failed: number; group: string }} */ (JSON.parse(l)));
}

module.exports = TimingReporter;
