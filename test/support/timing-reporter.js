// @ts-check
const { appendFileSync, existsSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, relative } = require('node:path');

/**
 * Where the time of a jest run goes: one line per test file as it ends (its wall time, its tests, the
 * group it ran in) and, when the run ends, the slowest files. `npm test` runs jest twice (test/support/run-tests.sh:
 * the files that may share the machine, on 2 workers, then the few that need it alone, one at a time); with
 * JEST_TIMINGS_FILE set, each run appends its files there and the last one's table covers both runs.
 * Each file's own CPU time (test/support/cpu.ts writes it to JEST_CPU_FILE, which this reporter names before
 * the workers start) shows how much of its wall time the file computed and how much it waited.
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
    this.workers = globalConfig.maxWorkers;
    this.slowest = options.slowest ?? 15;
    this.group = process.env.JEST_GROUP || 'all';
    this.file = process.env.JEST_TIMINGS_FILE || undefined;
    /** @type {Array<Row>} */
    this.rows = [];
    this.started = Date.now();
    // set before jest starts its workers, so they inherit it (test/support/cpu.ts appends to it)
    this.ownCpuFile = !process.env.JEST_CPU_FILE;
    this.cpuFile = process.env.JEST_CPU_FILE || join(tmpdir(), `jest-cpu-${process.pid}-${Date.now()}.jsonl`);
    process.env.JEST_CPU_FILE = this.cpuFile;
  }

  /** @param {string} path @returns {number | undefined} the file's own CPU seconds, if it reported them */
  cpuOf(path) {
    if (!existsSync(this.cpuFile)) return undefined;
    const rows = readFileSync(this.cpuFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => /** @type {{ path: string; cpu: number }} */ (JSON.parse(l)));
    return rows.filter((r) => r.path === path).at(-1)?.cpu;
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
      cpu: this.cpuOf(test.path),
    };
    this.rows.push(row);
    if (this.file) appendFileSync(this.file, `${JSON.stringify(row)}\n`);
    process.stderr.write(`time ${fmt(seconds)} ${row.file} (${row.tests} tests${row.failed ? `, ${row.failed} FAILED` : ''}, ${row.group}${cpuText(row)})\n`);
  }

  onRunComplete() {
    const wall = (Date.now() - this.started) / 1000;
    const rows = this.file && existsSync(this.file) ? readRows(this.file) : this.rows;
    // this run's files only: how long its workers held a file, against what they could have (wall x workers)
    const busy = this.rows.reduce((s, r) => s + r.seconds, 0);
    const cpu = this.rows.reduce((s, r) => s + (r.cpu ?? 0), 0);
    const workers = Math.min(this.workers, Math.max(this.rows.length, 1));
    const total = rows.reduce((s, r) => s + r.seconds, 0);
    const top = [...rows].sort((a, b) => b.seconds - a.seconds).slice(0, this.slowest);
    const lines = [
      '',
      `Slowest ${top.length} of ${rows.length} test files${this.file ? ' (every group of this npm test)' : ''}; seconds each file took from its start to its end:`,
      ...top.map((r, i) => `${String(i + 1).padStart(3)}. ${fmt(r.seconds)} ${r.file} (${r.group}${cpuText(r)})`),
      `Sum over the files: ${total.toFixed(0)} s; this jest run (group ${this.group}) took ${wall.toFixed(0)} s of wall time.`,
      `Workers: ${workers}, holding a file ${busy.toFixed(0)} s of ${(wall * workers).toFixed(0)} s (idle ${Math.max(0, wall * workers - busy).toFixed(0)} s: start-up, and the end where one worker waits for the other); the files' own CPU ${cpu.toFixed(0)} s of the ${busy.toFixed(0)} s (the rest: DynamoDB Local, child processes, waits).`,
      '',
    ];
    process.stderr.write(`${lines.join('\n')}\n`);
    if (this.ownCpuFile) rmSync(this.cpuFile, { force: true });
  }
}

/** @typedef {{ file: string; seconds: number; tests: number; failed: number; group: string; cpu?: number }} Row */

/** @param {Row} r the file's own CPU time, as a share of its wall time */
const cpuText = (r) => (r.cpu === undefined ? '' : `, own CPU ${r.cpu.toFixed(1)} s = ${r.seconds ? Math.round((100 * r.cpu) / r.seconds) : 0}%`);

/** @param {number} s */
const fmt = (s) => `${s.toFixed(1).padStart(6)} s`;

/** @param {string} file */
function readRows(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => /** @type {Row} */ (JSON.parse(l)));
}

module.exports = TimingReporter;
