import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LAMBDA_RUNTIME } from '../../lib/service-function';

/**
 * Every npm script runs on the Lambda runtime's Node.js major, whatever Node.js the machine has: the
 * registry's `node` package (a pinned dev dependency) puts its binary first on every npm script's PATH.
 * These run inside jest (started by npm test), in a jest worker's process and in the child processes the
 * suites spawn (tsx, as npm start and the admin CLI run).
 */
const ROOT = join(__dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
};
const runtimeMajor = /^nodejs(\d+)\.x$/.exec(LAMBDA_RUNTIME.name)?.[1];
const major = (v: string) => v.replace(/^v/, '').split('.')[0];

test('the runtime major is declared once: Lambda runtime, engines, the pinned node package, npm run setup', () => {
  expect(runtimeMajor).toBe('22');
  expect(pkg.engines.node).toBe(`${runtimeMajor}.x`);
  expect(major(pkg.devDependencies.node!)).toBe(runtimeMajor);
  expect(pkg.scripts.setup).toContain(`node@${pkg.devDependencies.node} `);
});

test('jest and the processes the suites spawn run on the Lambda runtime major, the pinned version', () => {
  expect(process.versions.node).toBe(pkg.devDependencies.node);
  expect(process.execPath).toBe(join(ROOT, 'node_modules/node/bin/node'));
  const child = spawnSync(process.execPath, [require.resolve('tsx/cli'), '-e', 'console.log(process.version)'], { cwd: ROOT, encoding: 'utf8' });
  expect({ status: child.status, stdout: child.stdout.trim(), stderr: child.stderr }).toEqual({ status: 0, stdout: `v${pkg.devDependencies.node}`, stderr: '' });
  // what an npm script finds as `node` on its PATH
  const viaNpm = spawnSync('npm', ['exec', '--', 'node', '-p', 'process.version'], { cwd: ROOT, encoding: 'utf8' });
  expect(viaNpm.stdout.trim()).toBe(`v${pkg.devDependencies.node}`);
});
