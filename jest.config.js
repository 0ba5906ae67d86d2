const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const swc = (syntax) => ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax } }, module: { type: 'commonjs' } }];

/**
 * Which files share the machine. Every test file is isolated by construction: test/support/env.ts gives
 * it a table of its own on the run's DynamoDB Local (and every helper makes fresh workspaces, ports and
 * temporary folders), so by default files run in parallel on jest's workers. A file that needs the
 * machine to itself (it kills a DynamoDB Local under load and counts what comes back, or times answers against
 * timeouts of a few seconds) says so with a `@run-alone <why>` line in
 * a comment; `npm test` (test/support/run-tests.sh) runs those after the others, one at a time. Starting its
 * own `npm start` or chromium is no reason by itself: waits that are lower bounds (a cache time waited out)
 * or generous bounded polls keep a file green on a loaded machine, and the alone group is pure wall time.
 *
 * JEST_GROUP: `parallel` = the files without the mark, `alone` = the files with it, unset = every file
 * (`npm exec -- jest test/x.test.ts` runs any file, marked or not).
 */
const ALONE_MARK = /^\s*(?:\/\/|\/?\*+)\s*@run-alone\b/m;
const testFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : testFiles(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
const aloneFiles = () => testFiles(join(__dirname, 'test')).filter((f) => ALONE_MARK.test(readFileSync(f, 'utf8')));
const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function group() {
  const g = process.env.JEST_GROUP;
  if (!g) return {};
  const alone = aloneFiles().map((f) => `^${escapeRegExp(f)}$`);
  if (g === 'parallel') return { testPathIgnorePatterns: ['/node_modules/', ...alone] };
  if (g === 'alone') return { testPathIgnorePatterns: ['/node_modules/', `^(?!(${alone.join('|') || '$^'})).*`], passWithNoTests: true };
  throw new Error(`JEST_GROUP is "${g}": want parallel, alone or nothing (every file)`);
}

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': swc('typescript'), '^.+\\.m?js$': swc('ecmascript') },
  // @middy/*, @apidevtools/json-schema-ref-parser, jose and oauth4webapi ship ESM only: transform them to CommonJS like our own code.
  transformIgnorePatterns: ['/node_modules/(?!(@middy|@apidevtools|jose|oauth4webapi)/)'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  setupFiles: ['<rootDir>/test/support/env.ts', '<rootDir>/test/support/bind.ts'],
  // each file's own CPU time, for the timing reporter (test/support/cpu.ts)
  setupFilesAfterEnv: ['<rootDir>/test/support/cpu.ts'],
  // A bound for a hung test, not a speed target: CI runs two files at once on 2 cores, and its loaded runs
  // (another process on one core) make a test of 40 s take twice that, which must not turn CI red.
  testTimeout: 180_000,
  // Two workers on CI's 2 cores (jest's default would be one fewer than the cores); --runInBand overrides.
  maxWorkers: 2,
  // A worker that grew past this after a file is replaced (module registries of big files add up).
  workerIdleMemoryLimit: '1500MB',
  // Longest files first (jest's cached durations, else test/support/test-costs.json): the workers end together.
  testSequencer: '<rootDir>/test/support/sequencer.js',
  // Each file's time as it ends, and the slowest 15 when the run ends (test/support/timing-reporter.js).
  reporters: ['default', ['<rootDir>/test/support/timing-reporter.js', { slowest: 15 }]],
  ...group(),
};
