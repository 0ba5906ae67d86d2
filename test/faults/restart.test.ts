// @run-alone: kills its DynamoDB Local under a write load and counts what comes back (test/support/run-tests.sh runs it after the parallel files)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { db, dynamoConfig, setDb } from '../../shared/data/db';
import { ensureTable } from '../../shared/data/setup';
import { tableName } from '../../shared/data/db';
import { freePort, startDynamoDbLocal, type LocalDynamo } from '../../local/dynamodb';
import { installDurableCommits } from '../../local/durable-commits';
import { apiClient, makeKey, newWorkspace, type CallResult } from '../support/harness';
import { invariantViolations, workspaceItems } from './invariants';

/**
 * Durability: a DynamoDB Local of its own with a persistent DATA_DIR (not the suite's in-memory one),
 * writes under load through the API, DynamoDB Local killed (SIGKILL, no clean shutdown) and restarted on
 * the same port and data directory while the load goes on. Afterwards every acknowledged write (2xx) is
 * there: created records exist, the last acknowledged update of each record is kept (or a later one whose
 * answer was lost), acknowledged deletes stay deleted, and the consistency rules (usage counters, locks,
 * index keys) hold. Requests made while DynamoDB Local is down get a 503 with the error body.
 *
 * The data client carries npm start's commit barrier (local/durable-commits.ts), as npm start does: DynamoDB
 * Local answers a TransactWriteItems before its SQLite COMMIT runs, so without it a kill in that window takes
 * back an acknowledged transaction (docs/decisions.md, "Local run"). `instance` counts the spawned processes
 * so a restarted DynamoDB Local never confirms a commit the killed one took.
 */
jest.setTimeout(180_000);

const WORKERS = 6;
/** Acknowledged creates to wait for before the kill and again after the restart (counts, not times: a loaded machine is slower, not different). */
const CREATES_PER_PHASE = 20;
/** The bound of each wait; past it the test fails naming what it waited for. */
const PHASE_BOUND_MS = 60_000;
const DOWN_MS = 500;

let dynamo: LocalDynamo;
let port: number;
let dataDir: string;
let instance = 0;
let removeBarrier: () => void = () => undefined;
const savedEndpoint = process.env.DYNAMODB_ENDPOINT;

beforeAll(async () => {
  port = await freePort();
  dataDir = mkdtempSync(join(tmpdir(), 'ddb-restart-'));
  dynamo = await startDynamoDbLocal({ port, dataDir });
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  setDb(undefined); // the next db() is a client of this instance
  removeBarrier = installDurableCommits(db(), { endpoint: dynamo.endpoint, tableName: tableName(), instance: () => instance });
  const admin = new DynamoDBClient(dynamoConfig());
  await ensureTable(admin, tableName());
  admin.destroy();
});

afterAll(async () => {
  removeBarrier();
  const admin = new DynamoDBClient({ ...dynamoConfig(), maxAttempts: 1 });
  await admin.send(new DeleteTableCommand({ TableName: tableName() })).catch(() => undefined);
  admin.destroy();
  await dynamo?.stop();
  setDb(undefined);
  process.env.DYNAMODB_ENDPOINT = savedEndpoint;
  rmSync(dataDir, { recursive: true, force: true });
});

interface Ledger {
  /** Acknowledged creates: kind, id (and sortKey for entries). */
  created: Array<{ type: string; id: string; sortKey?: string }>;
  /** Per client: the last acknowledged notes version, and versions sent after it whose answer was not a 2xx. */
  versions: Map<string, { acked: number; unacked: number[] }>;
  /** Acknowledged deletes of time entries. */
  deleted: Set<string>;
  statuses: Record<number, number>;
  outageBodies: string[];
}

test('every write acknowledged before, during and after a kill -9 and restart of DynamoDB Local is there afterwards', async () => {
  const ws = newWorkspace('restart');
  const key = await makeKey(ws, { perMinute: 1_000_000, perHour: 1_000_000 });
  const api = apiClient();
  const ledger: Ledger = { created: [], versions: new Map(), deleted: new Set(), statuses: {}, outageBodies: [] };
  const note = (res: CallResult) => {
    ledger.statuses[res.status] = (ledger.statuses[res.status] ?? 0) + 1;
    phases[`${phase}:${res.status}`] = (phases[`${phase}:${res.status}`] ?? 0) + 1;
    if (res.status >= 500 && ledger.outageBodies.length < 5) ledger.outageBodies.push(`${res.status} ${res.text}`);
    return res.status >= 200 && res.status < 300;
  };
  const pause = () => new Promise((r) => setTimeout(r, 50));
  let stop = false;
  let phase = 'before';
  const phases: Record<string, number> = {};

  async function worker(w: number) {
    for (let i = 0; !stop; i++) {
      const client = await api.post('/v1/clients', { name: `client ${w}-${i}` }, { key });
      if (!note(client)) {
        await pause(); // a client backing off while the service is unavailable
        continue;
      }
      ledger.created.push({ type: 'CLIENT', id: client.body.id });
      const project = await api.post('/v1/projects', { name: `project ${w}-${i}`, clientId: client.body.id }, { key });
      if (!note(project)) continue;
      ledger.created.push({ type: 'PROJECT', id: project.body.id });
      const start = new Date(Date.UTC(2026, 0, 1) + (w * 100_000 + i) * 60_000).toISOString();
      const entry = await api.post('/v1/time-entries', { userId: `u${w}`, startTime: start, projectId: project.body.id }, { key });
      if (!note(entry)) continue;
      ledger.created.push({ type: 'TIMEENTRY', id: entry.body.id, sortKey: entry.body.sortKey });
      const v = { acked: 0, unacked: [] as number[] };
      ledger.versions.set(client.body.id, v);
      for (let n = 1; n <= 3 && !stop; n++) {
        const upd = await api.put(`/v1/clients/${client.body.id}`, { notes: `v${n}` }, { key });
        if (note(upd)) {
          v.acked = n;
          v.unacked = [];
        } else v.unacked.push(n);
      }
      if (i % 2 === 0) {
        const del = await api.del(`/v1/time-entries/${entry.body.id}`, { key, query: { sortKey: entry.body.sortKey } });
        if (note(del)) ledger.deleted.add(entry.body.id);
      }
    }
  }

  // Warm up (module loading of each handler) so the timed phases measure the load, not the first calls.
  const warm = await api.post('/v1/clients', { name: 'warm-up' }, { key });
  const warmProject = await api.post('/v1/projects', { name: 'warm-up', clientId: warm.body.id }, { key });
  const warmEntry = await api.post('/v1/time-entries', { userId: 'w', startTime: '2025-01-01T00:00:00Z', projectId: warmProject.body.id }, { key });
  await api.put(`/v1/clients/${warm.body.id}`, { notes: 'warm' }, { key });
  expect((await api.del(`/v1/time-entries/${warmEntry.body.id}`, { key, query: { sortKey: warmEntry.body.sortKey } })).status).toBe(200);

  const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  const createsReach = async (n: number, what: string) => {
    const until = Date.now() + PHASE_BOUND_MS;
    while (ledger.created.length < n) {
      if (Date.now() > until) {
        stop = true;
        throw new Error(`waited ${PHASE_BOUND_MS} ms for ${n} acknowledged creates ${what}; saw ${ledger.created.length}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await createsReach(CREATES_PER_PHASE, 'before the kill');
  const ackedBeforeKill = ledger.created.length;
  await new Promise<void>((resolve) => {
    dynamo.process.once('exit', () => resolve());
    dynamo.process.kill('SIGKILL');
  });
  instance++; // from here on, a transaction the killed process answered is not confirmed
  phase = 'down';
  await new Promise((r) => setTimeout(r, DOWN_MS));
  dynamo = await startDynamoDbLocal({ port, dataDir });
  const ackedAtRestart = ledger.created.length;
  const restartedAfterMs = Date.now();
  phase = 'after';
  await createsReach(ackedAtRestart + CREATES_PER_PHASE, 'after the restart');
  stop = true;
  await load;

  console.log(
    `restart: statuses ${JSON.stringify(phases)}; ${ledger.created.length} acknowledged creates (${ackedBeforeKill} before the kill, ${ledger.created.length - ackedAtRestart} after the restart), ${[...ledger.versions.values()].filter((v) => v.acked > 0).length} acknowledged update chains, ${ledger.deleted.size} acknowledged deletes; ${Date.now() - restartedAfterMs} ms of load after the restart`,
  );

  // The load really spanned the outage: writes acknowledged before the kill and after the restart, and refused while down.
  expect(ackedBeforeKill).toBeGreaterThanOrEqual(CREATES_PER_PHASE);
  expect(ledger.created.length).toBeGreaterThan(ackedAtRestart);
  const failures = Object.entries(ledger.statuses).filter(([s]) => Number(s) >= 300);
  expect(failures.length).toBeGreaterThan(0);
  // While DynamoDB Local was down: only the documented retryable 503 with the error body.
  expect(failures.map(([s]) => Number(s))).toEqual([503]);
  for (const b of ledger.outageBodies)
    expect(JSON.parse(b.slice(4))).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String), requestId: expect.any(String) } });

  const items = await workspaceItems(ws);
  const byKey = new Map(items.map((i) => [`${String(i._type)}#${String(i.id)}`, i]));
  const missing: string[] = [];
  for (const c of ledger.created) {
    const it = byKey.get(`${c.type}#${c.id}`);
    if (c.type === 'TIMEENTRY' && ledger.deleted.has(c.id)) {
      if (it) missing.push(`time entry ${c.id}: delete acknowledged, but it is still there`);
    } else if (!it) missing.push(`${c.type} ${c.id}: create acknowledged, but it is gone`);
  }
  for (const [id, v] of ledger.versions) {
    const notes = byKey.get(`CLIENT#${id}`)?.notes;
    const allowed = [v.acked === 0 ? undefined : `v${v.acked}`, ...v.unacked.map((n) => `v${n}`)];
    if (!allowed.includes(notes as string | undefined))
      missing.push(`client ${id}: notes ${String(notes)}, acknowledged ${v.acked ? `v${v.acked}` : 'nothing'} (unacknowledged after it: ${v.unacked.join(',') || 'none'})`);
  }
  const acknowledgedChecked = ledger.created.length + [...ledger.versions.values()].filter((v) => v.acked > 0).length + ledger.deleted.size;

  console.log(`restart: ${acknowledgedChecked} acknowledged writes checked after the restart`);
  expect(missing).toEqual([]);
  expect(invariantViolations(ws, items)).toEqual([]);
});
