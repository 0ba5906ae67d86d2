// @run-alone: kills DynamoDB Local and npm start under a write load (run after the parallel files, one at a time)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../local/dynamodb';
import { admin, isAlive, portOpen, startApi, stateOf, waitFor, type RunningApi } from './npm-start';

/**
 * npm start supervises DynamoDB Local, and leaves no orphan:
 * 1. DynamoDB Local is killed (SIGKILL) under a steady write load: every answer is a 2xx or a 503
 *    SERVICE_UNAVAILABLE with Retry-After (no refused connection, no other status), DynamoDB Local is
 *    back within seconds on the same port and DATA_DIR, and every acknowledged write is readable.
 * 2. The server itself is killed (SIGKILL), leaving its DynamoDB Local running: npm start again on the
 *    same ports and DATA_DIR stops that one and starts; the data is there; a third npm start on the
 *    same DATA_DIR while the second runs is refused; Ctrl-C stops everything.
 */
jest.setTimeout(120_000);

const WORKERS = 8;
/** Acknowledged creates before the kill, and after the restart, whatever the machine's speed. */
const ACKED_BEFORE_KILL = 30;
const ACKED_AFTER_RESTART = 30;

let dataDir: string;
let env: Record<string, string>;
let base: string;
let dynamoPort: number;
let first: RunningApi;
let key: string;
/** Acknowledged creates (201): id and name. */
const acked = new Map<string, string>();

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tt-supervise-'));
  const port = await freePort();
  dynamoPort = await freePort();
  base = `http://127.0.0.1:${port}`;
  env = { PORT: String(port), DYNAMODB_PORT: String(dynamoPort), DATA_DIR: dataDir };
  first = startApi(env);
  await first.ready;
  const created = await admin(
    `http://127.0.0.1:${dynamoPort}`,
    'keys',
    'create',
    '--workspace',
    'demo',
    '--name',
    'load',
    '--scopes',
    'all',
    '--per-minute',
    '1000000',
    '--per-hour',
    '1000000',
    '--json',
  );
  expect(created.code).toBe(0);
  key = (JSON.parse(created.stdout) as { key: string }).key;
});

afterAll(async () => {
  // whatever a failed test left: stop the servers, then any DynamoDB Local still recorded
  if (first?.child.exitCode === null) first.child.kill('SIGINT');
  await first?.exited;
  const pid = stateOf(dataDir)?.dynamodb?.pid;
  if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const listIds = async (): Promise<Set<string>> => {
  const res = await fetch(`${base}/v1/clients`, { headers: { 'X-API-Key': key } });
  expect(res.status).toBe(200);
  return new Set(((await res.json()) as { items: Array<{ id: string }> }).items.map((c) => c.id));
};

test('DynamoDB Local killed under a steady write load: only 2xx and 503 answers, back within seconds, no acknowledged write lost', async () => {
  const headers = { 'X-API-Key': key, 'Content-Type': 'application/json' };
  // warm up: the handler modules are loaded and the key is in the authorizer cache
  expect((await fetch(`${base}/v1/clients`, { method: 'POST', headers, body: JSON.stringify({ name: 'warm-up' }) })).status).toBe(201);

  type Phase = 'before' | 'down' | 'after';
  let phase: Phase = 'before';
  let stop = false;
  const counts: Record<string, number> = {};
  const unexpected: string[] = [];
  const unavailableBodies: unknown[] = [];
  let firstAckAfterKill: number | undefined;
  let killedAt = 0;

  async function worker(w: number) {
    for (let i = 0; !stop; i++) {
      const name = `load ${w}-${i}`;
      let status: number;
      try {
        const res = await fetch(`${base}/v1/clients`, { method: 'POST', headers, body: JSON.stringify({ name }) });
        status = res.status;
        const body = (await res.json()) as { id?: string };
        if (status === 201) {
          acked.set(body.id!, name);
          if (phase !== 'before') firstAckAfterKill ??= Date.now() - killedAt;
        } else if (status === 503) {
          if (res.headers.get('retry-after') !== '1') unexpected.push(`503 without Retry-After: ${JSON.stringify(body)}`);
          if (unavailableBodies.length < 3) unavailableBodies.push(body);
        } else unexpected.push(`${status} ${JSON.stringify(body)}`);
      } catch (err) {
        status = 0;
        unexpected.push(`no answer: ${(err as Error).message} ${String((err as { cause?: unknown }).cause)}`);
      }
      counts[`${phase} ${status}`] = (counts[`${phase} ${status}`] ?? 0) + 1;
      if (status !== 201) await new Promise((r) => setTimeout(r, 50)); // a client backing off
    }
  }

  const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  await waitFor(`${ACKED_BEFORE_KILL} acknowledged creates`, () => (counts['before 201'] ?? 0) >= ACKED_BEFORE_KILL || unexpected.length > 0, 60_000);
  const before = stateOf(dataDir)!.dynamodb!;
  killedAt = Date.now();
  process.kill(before.pid, 'SIGKILL');
  phase = 'down';
  const after = await waitFor('DynamoDB Local restarted', () => {
    const now = stateOf(dataDir)?.dynamodb;
    return now && now.pid !== before.pid && first.output().includes('DynamoDB Local is back') && now;
  });
  const backAfterMs = Date.now() - killedAt;
  phase = 'after';
  await waitFor(`${ACKED_AFTER_RESTART} acknowledged creates after the restart`, () => (counts['after 201'] ?? 0) >= ACKED_AFTER_RESTART || unexpected.length > 0, 60_000);
  stop = true;
  await load;

  const total = (p: Phase, s: number) => counts[`${p} ${s}`] ?? 0;
  const logged = /is back \(pid \d+, port \d+\) (\d+) ms after it went down/.exec(first.output())?.[1];
  console.log(
    `DynamoDB Local kill under load (${WORKERS} writers): answers ${JSON.stringify(counts)}; ${acked.size} acknowledged creates; ` +
      `restarted (pid ${before.pid} -> ${after.pid}, same port ${after.port}) ${logged} ms after the kill by the server's count, seen by the test after ${backAfterMs} ms; ` +
      `first acknowledged write ${firstAckAfterKill} ms after the kill`,
  );

  expect(unexpected).toEqual([]);
  expect(Object.keys(counts).every((k) => / (201|503)$/.test(k))).toBe(true);
  expect(total('before', 201)).toBeGreaterThanOrEqual(ACKED_BEFORE_KILL);
  expect(total('down', 503)).toBeGreaterThan(0);
  expect(total('after', 201)).toBeGreaterThanOrEqual(ACKED_AFTER_RESTART);
  for (const b of unavailableBodies) expect(b).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String), requestId: expect.any(String) } });
  expect(after.port).toBe(dynamoPort);
  // back at the first restart attempt (no backoff delay before it); the time it took is printed above, not asserted
  expect(first.output()).toMatch(/DynamoDB Local is back \(pid \d+, port \d+\) \d+ ms after it went down \(restart attempt 1\)/);
  expect(isAlive(before.pid)).toBe(false);

  const ids = await listIds();
  const missing = [...acked.keys()].filter((id) => !ids.has(id));
  expect(missing).toEqual([]);
});

test('the server killed with SIGKILL: npm start again on the same ports and DATA_DIR stops the DynamoDB Local it left, and serves the same data', async () => {
  const state = stateOf(dataDir)!;
  const orphan = state.dynamodb!.pid;
  process.kill(state.server.pid, 'SIGKILL');
  await first.exited;
  // nobody stopped DynamoDB Local: it still runs and holds DYNAMODB_PORT
  expect(isAlive(orphan)).toBe(true);
  expect(await portOpen(dynamoPort)).toBe(true);

  const second = startApi(env);
  try {
    await second.ready;
    expect(second.output()).toContain(`Found DynamoDB Local left running by a previous npm start that did not stop (pid ${orphan}, port ${dynamoPort}): stopping it.`);
    expect(isAlive(orphan)).toBe(false);
    const now = stateOf(dataDir)!;
    expect(now.dynamodb!.pid).not.toBe(orphan);
    const ids = await listIds();
    expect([...acked.keys()].filter((id) => !ids.has(id))).toEqual([]);

    // a third npm start on the same DATA_DIR while the second runs: refused, the second untouched
    const third = startApi(env);
    expect(await third.exited).toBe(1);
    expect(third.output()).toContain(`Another npm start (pid ${now.server.pid}) is running with this DATA_DIR`);
    expect((await fetch(`${base}/v1/clients`, { headers: { 'X-API-Key': key } })).status).toBe(200);

    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    expect(isAlive(now.dynamodb!.pid)).toBe(false);
    expect(await portOpen(dynamoPort)).toBe(false);
    expect(stateOf(dataDir)).toBeUndefined();
  } finally {
    if (second.child.exitCode === null) second.child.kill('SIGINT');
  }
});
