import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { BUNDLING_LINE, hideBundlingLines } from '../../lib/quiet-bundling';

/**
 * `npm run cdk -- synth --quiet` prints no bundling lines (issue 26): bin/cdk.sh sets CDK_QUIET for --quiet,
 * and bin/app.ts then hides the CDK's "Bundling asset ..." lines with lib/quiet-bundling.ts. Here a real
 * NodejsFunction is bundled by the local esbuild, as in a synth, with the filter on, and the line is seen
 * written above the filter and missing below it. .ci/run also fails when its synth prints one.
 */
const FIXTURE = resolve(__dirname, 'fixtures/quiet');

/**
 * A synth of one bundled function with the filter on process.stderr: what the CDK wrote (`attempted`, seen
 * above the filter) and what reached the terminal (`written`, below it).
 */
function synthQuietly(): { attempted: string; written: string } {
  const attempted: string[] = [];
  const written: string[] = [];
  const original = process.stderr.write;
  const out = mkdtempSync(join(tmpdir(), 'quiet-synth-'));
  process.stderr.write = ((chunk: unknown) => written.push(String(chunk)) > 0) as typeof process.stderr.write;
  try {
    hideBundlingLines(process.stderr);
    const filtered = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: unknown, ...rest: never[]) => {
      attempted.push(String(chunk));
      return filtered(chunk as string, ...rest);
    }) as typeof process.stderr.write;
    const app = new App({ outdir: out });
    new NodejsFunction(new Stack(app, 'Quiet'), 'Fn', {
      entry: join(FIXTURE, 'handler.ts'),
      runtime: Runtime.NODEJS_22_X,
      // a project of its own (one file and a lock file), so the synth does not walk the repository
      projectRoot: FIXTURE,
      depsLockFilePath: join(FIXTURE, 'package-lock.json'),
      // as every function of the stack (lib/service-function.ts): esbuild reports warnings and errors only
      bundling: { logLevel: LogLevel.WARNING },
    });
    app.synth();
  } finally {
    process.stderr.write = original;
    rmSync(out, { recursive: true, force: true });
  }
  return { attempted: attempted.join(''), written: written.join('') };
}

test('a synth bundling a function: the CDK writes its "Bundling asset" line, the filter keeps it off the terminal', () => {
  const { attempted, written } = synthQuietly();
  expect(attempted).toMatch(/^Bundling asset Quiet\/Fn\/Code\/Stage\.\.\.$/m);
  expect(written).not.toMatch(/Bundling asset/);
}, 120_000);

test('the filter passes everything else: errors, warnings, a line that only mentions bundling', () => {
  const written: string[] = [];
  const stream = { write: (chunk: unknown) => written.push(String(chunk)) > 0 };
  hideBundlingLines(stream);
  for (const line of ['Bundling asset TimeTracking-dev/Fn-clients/Code/Stage...\n', 'Error: esbuild failed\n', '▲ [WARNING] x\n', 'Bundling asset failed: see above\n'])
    stream.write(line);
  expect(written).toEqual(['Error: esbuild failed\n', '▲ [WARNING] x\n', 'Bundling asset failed: see above\n']);
  expect(BUNDLING_LINE.test('Bundling asset A/B/Code/Stage...\n')).toBe(true);
});
