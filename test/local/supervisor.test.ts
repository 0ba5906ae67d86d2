import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalDynamo, StartOptions } from '../../local/dynamodb';
import { readState, superviseDynamoDbLocal, takeOver } from '../../local/supervisor';
import { isAlive, waitFor } from './npm-start';

/**
 * The supervisor's rules with a stand-in for DynamoDB Local (no Java; test/local/supervise.test.ts kills
 * the real one): restart after a death, backoff, giving up after consecutive failures (failed starts or a
 * crash loop), the count reset by an instance that stayed up, stop during a restart, the state file; and
 * takeOver's rules on the processes the state file names.
 */
let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tt-supervisor-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A fake DynamoDB Local whose process can be made to exit. */
function fake(pid: number): LocalDynamo & { die(): void } {
  const proc = Object.assign(new EventEmitter(), { pid }) as unknown as ChildProcess;
  let exited = false;
  const exit = (code: number | null, signal: string | null) => {
    if (exited) return;
    exited = true;
    proc.emit('exit', code, signal);
  };
  return { endpoint: 'http://127.0.0.1:1', port: 1, process: proc, stop: async () => exit(0, null), die: () => exit(null, 'SIGKILL') };
}

/** start() answers from a script: a number starts a fake with that pid, an Error fails. */
function scripted(script: Array<number | Error>) {
  const started: Array<ReturnType<typeof fake>> = [];
  let calls = 0;
  const start = async (opts: StartOptions): Promise<LocalDynamo> => {
    const next = script[Math.min(calls++, script.length - 1)]!;
    if (next instanceof Error) throw next;
    const d = fake(next);
    opts.onSpawn?.(d.process);
    started.push(d);
    return d;
  };
  return { start, started, calls: () => calls };
}

function logger() {
  const lines: string[] = [];
  return { lines, log: { info: (m: string) => lines.push(m), error: (m: string) => lines.push(m) } };
}

test('a death: unavailable at once, restarted after failed attempts, recorded in the state file', async () => {
  const s = scripted([101, new Error('port busy'), 102]);
  const { lines, log } = logger();
  const stateFile = join(dir, 'npm-start.json');
  const onGiveUp = jest.fn();
  const sup = await superviseDynamoDbLocal({ port: 1, dbPath: dir, stateFile, start: s.start, backoffMs: [0, 10, 10], onGiveUp, log });
  expect([sup.available(), sup.pid(), sup.instance()]).toEqual([true, 101, 1]);
  expect(readState(stateFile)).toMatchObject({ server: { pid: process.pid }, dynamodb: { pid: 101, port: 1, dbPath: dir } });

  s.started[0]!.die();
  expect(sup.available()).toBe(false);
  await waitFor('the restart', () => sup.available());
  expect(sup.pid()).toBe(102);
  expect(sup.instance()).toBe(2); // one more process spawned (the failed attempt spawned none)
  expect(readState(stateFile)?.dynamodb?.pid).toBe(102);
  expect(onGiveUp).not.toHaveBeenCalled();
  expect(lines.join('\n')).toMatch(
    /pid 101\) exited \(SIGKILL\)[^]*restart attempt 1 of 3 failed: port busy[^]*is back \(pid 102, port 1\) \d+ ms after it went down \(restart attempt 2\)/,
  );

  await sup.stop();
  expect(existsSync(stateFile)).toBe(false);
});

test('gives up loudly after the backoff is spent: starts that fail, or a crash loop', async () => {
  const failing = scripted([201, new Error('no java')]);
  const a = logger();
  const gaveUp = jest.fn();
  await superviseDynamoDbLocal({ port: 1, dbPath: dir, start: failing.start, backoffMs: [0, 5, 5], onGiveUp: gaveUp, log: a.log });
  failing.started[0]!.die();
  await waitFor('giving up', () => gaveUp.mock.calls.length === 1);
  expect((gaveUp.mock.calls[0] as [Error])[0].message).toMatch(/3 restarts failed in a row \(last: no java\)/);
  expect(failing.calls()).toBe(4);
  expect(a.lines.join('\n')).toContain('*** Giving up');

  // each restart works but dies at once: a crash loop gives up as well
  const loop = scripted([301, 302, 303, 304, 305]);
  const b = logger();
  const onGiveUp = jest.fn();
  const sup = await superviseDynamoDbLocal({ port: 1, dbPath: dir, start: loop.start, backoffMs: [0, 5], onGiveUp, log: b.log });
  for (let i = 0; i < 3; i++) {
    await waitFor(`instance ${i}`, () => sup.available() && loop.started.length === i + 1);
    loop.started[i]!.die();
  }
  await waitFor('giving up', () => onGiveUp.mock.calls.length === 1);
  expect(loop.started).toHaveLength(3);
  expect(sup.available()).toBe(false);
});

test('an instance that stayed up resets the count: deaths far apart are restarted forever', async () => {
  const s = scripted([401, 402, 403, 404, 405]);
  const onGiveUp = jest.fn();
  const sup = await superviseDynamoDbLocal({ port: 1, dbPath: dir, start: s.start, backoffMs: [0], stableMs: 20, onGiveUp, log: logger().log });
  for (let i = 0; i < 4; i++) {
    await waitFor(`instance ${i}`, () => sup.available() && s.started.length === i + 1);
    await new Promise((r) => setTimeout(r, 30));
    s.started[i]!.die();
  }
  await waitFor('the fifth instance', () => sup.available() && sup.pid() === 405);
  expect(onGiveUp).not.toHaveBeenCalled();
  await sup.stop();
});

test('stop during a restart backoff: nothing more is started, and it does not give up', async () => {
  const s = scripted([501, 502]);
  const onGiveUp = jest.fn();
  const sup = await superviseDynamoDbLocal({ port: 1, dbPath: dir, start: s.start, backoffMs: [60_000], onGiveUp, log: logger().log });
  s.started[0]!.die();
  const t = Date.now();
  await sup.stop();
  // not a speed bound: stop did not wait out the 60 s backoff (a loaded machine may take seconds, never 60)
  expect(Date.now() - t).toBeLessThan(30_000);
  expect(s.calls()).toBe(1);
  expect(onGiveUp).not.toHaveBeenCalled();
});

describe('takeOver: what a previous npm start left in DATA_DIR', () => {
  const procs: ChildProcess[] = [];
  /** A process whose command line looks like the given arguments (node sleeping). */
  const lookalike = (...args: string[]) => {
    const p = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', '--', ...args], { stdio: 'ignore' });
    procs.push(p);
    return p.pid!;
  };
  afterAll(() => procs.forEach((p) => p.kill('SIGKILL')));
  const write = (file: string, state: object) => writeFileSync(file, JSON.stringify({ updatedAt: new Date().toISOString(), ...state }));

  test("a DynamoDB Local whose server died is stopped; a pid now someone else's is left alone; a live server is refused", async () => {
    const file = join(dir, 'npm-start.json');
    const dbPath = join(dir, 'dynamodb');
    const messages: string[] = [];

    const orphan = lookalike('-jar', 'DynamoDBLocal.jar', '-port', '1', '-dbPath', dbPath);
    write(file, { server: { pid: 999_999_999 }, dynamodb: { pid: orphan, port: 1, dbPath } });
    await takeOver(file, (m) => messages.push(m));
    await waitFor('the orphan to stop', () => !isAlive(orphan), 5000);
    expect(messages.join()).toContain(`left running by a previous npm start that did not stop (pid ${orphan}, port 1): stopping it`);
    expect(existsSync(file)).toBe(false);

    const stranger = lookalike('something-else');
    write(file, { server: { pid: 999_999_999 }, dynamodb: { pid: stranger, port: 1, dbPath } });
    await takeOver(file);
    expect(isAlive(stranger)).toBe(true);

    const server = lookalike('local/start.ts');
    write(file, { server: { pid: server }, dynamodb: { pid: stranger, port: 1, dbPath } });
    await expect(takeOver(file)).rejects.toThrow(`Another npm start (pid ${server}) is running with this DATA_DIR`);
    expect(existsSync(file)).toBe(true);
  });
});
