// Shares the machine with the other test files (no run-alone mark): every npm start it launches exits on its port
// check before starting DynamoDB Local; its ports are free ports (freePort) and its DATA_DIRs temporary folders of its own.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../local/dynamodb';
import { portFree, portProblems } from '../../local/ports';
import { portOpen, startApi } from './npm-start';

/**
 * npm start checks PORT and DYNAMODB_PORT before it starts anything: a taken port ends it at once with a
 * message naming the variable, and no DynamoDB Local was started, nothing seeded, no key printed.
 */
let dataDir: string;
let blocker: Server | undefined;
beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'tt-ports-'))));
afterEach(async () => {
  await new Promise((r) => (blocker ? blocker.close(r) : r(undefined)));
  blocker = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

/** Something else listening on the port (on 127.0.0.1 only: still a conflict for a server on all interfaces). */
const occupy = (port: number) =>
  new Promise<void>((resolve) => {
    blocker = createServer((s) => s.destroy()).listen(port, '127.0.0.1', () => resolve());
  });

test.each(['PORT', 'DYNAMODB_PORT'] as const)('%s taken: npm start exits 1 naming it, before starting DynamoDB Local or printing a key', async (taken) => {
  const ports = { PORT: await freePort(), DYNAMODB_PORT: await freePort() };
  await occupy(ports[taken]);
  const other = taken === 'PORT' ? ports.DYNAMODB_PORT : ports.PORT;
  const run = startApi({ PORT: String(ports.PORT), DYNAMODB_PORT: String(ports.DYNAMODB_PORT), DATA_DIR: dataDir });
  expect(await run.exited).toBe(1);
  const out = run.output();
  expect(out).toContain('npm start cannot start; nothing was started');
  expect(out).toContain(`${taken} ${ports[taken]} is already in use`);
  expect(out).toContain(`${taken}=${ports[taken] + 1} npm start`);
  expect(out).not.toContain('Starting DynamoDB Local');
  expect(out).not.toContain('Demo API key');
  expect(readdirSync(dataDir)).toEqual([]); // no database, no state file
  expect(await portOpen(other)).toBe(false);
});

test('the same port for both, or not a port number: refused before anything starts', async () => {
  const port = await freePort();
  const same = startApi({ PORT: String(port), DYNAMODB_PORT: String(port), DATA_DIR: dataDir });
  expect(await same.exited).toBe(1);
  expect(same.output()).toContain(`DYNAMODB_PORT and PORT are both ${port}: they must differ.`);

  const bad = startApi({ PORT: 'eighty', DYNAMODB_PORT: String(port), DATA_DIR: dataDir });
  expect(await bad.exited).toBe(1);
  expect(bad.output()).toContain('PORT must be a port number from 1 to 65535 (got "eighty").');
  expect(existsSync(join(dataDir, 'dynamodb'))).toBe(false);
});

test('portFree and portProblems', async () => {
  const port = await freePort();
  expect(await portFree(port)).toBe(true);
  await occupy(port);
  expect(await portFree(port)).toBe(false);
  expect(await portProblems([{ name: 'A', port }])).toEqual([expect.stringContaining(`A ${port} is already in use`)]);
  expect(
    await portProblems([
      { name: 'A', port: 0 },
      { name: 'B', port: 70000 },
    ]),
  ).toEqual([expect.stringContaining('A must be a port number'), expect.stringContaining('B must be a port number')]);
});
