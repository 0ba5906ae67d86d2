import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, setDb, tableName } from '../../shared/data/db';
import { clients, projects, tags, tasks, timeEntries } from '../../shared/data/repositories';
import { apiClient, makeKey, newWorkspace, useTestTable, type CallResult } from '../support/harness';
import { withFaultClient, type FaultKind, type FaultPlan } from './inject';
import { invariantViolations, workspaceItems } from './invariants';

/**
 * Faults in the middle of every kind of multi-item write: DynamoDB throttling, timeouts and outages
 * injected into the real client (test/faults/inject.ts) at each data call of the request (the first
 * read, the reads mid-way, the transaction itself), once (the SDK's retry recovers) or on every attempt.
 * For each scenario:
 *   - the status is the documented one: the success status when a retry recovered; 503
 *     SERVICE_UNAVAILABLE + Retry-After: 1 + the error body with a requestId when DynamoDB stays
 *     unavailable;
 *   - nothing is half-written: the workspace is exactly as before, or the whole change is there, and
 *     the consistency rules hold (usage counters exact, locks, index keys: test/faults/invariants.ts);
 *   - a success really wrote the change; a failure before anything reached DynamoDB wrote nothing.
 */
useTestTable();
const api = apiClient();
let faultsInjected = 0;
let scenarios = 0;
afterAll(() => {
  console.log(`faults: ${faultsInjected} faults injected over ${scenarios} scenarios`);
});
afterEach(() => setDb(undefined));

interface Ctx {
  ws: string;
  key: string;
  clientId: string;
  projectId: string;
  taskId: string;
  tagIds: string[];
  entry: { id: string; sortKey: string };
  /** An entry naming no other record, and a project without a client that nothing names. */
  plainEntry: { id: string; sortKey: string };
  spareProjectId: string;
}

/** The records of a fixture but its workspace and its key. */
type Catalog = Omit<Ctx, 'ws' | 'key'>;

/**
 * A small catalog and one time entry naming all of it, written straight through the repository: what
 * names nothing is written at once (the writes are independent), then each record after what it names.
 */
async function buildCatalog(ws: string): Promise<Catalog> {
  const [client, tagList, plain, spare] = await Promise.all([
    clients.create(ws, { name: 'Acme' }),
    Promise.all([tags.create(ws, { name: 'red' }), tags.create(ws, { name: 'green' }), tags.create(ws, { name: 'blue' })]),
    timeEntries.create(ws, { userId: 'u3', startTime: '2026-03-03T09:00:00Z', notes: 'plain' }),
    projects.create(ws, { name: 'Spare' }),
  ]);
  const project = await projects.create(ws, { name: 'Site', clientId: client.id });
  const task = await tasks.create(ws, { projectId: project.id, name: 'Build' });
  const entry = await timeEntries.create(ws, {
    userId: 'u1',
    startTime: '2026-03-02T09:00:00Z',
    endTime: '2026-03-02T10:00:00Z',
    taskId: task.id,
    tagIds: [tagList[0]!.id, tagList[1]!.id],
  });
  return {
    clientId: client.id,
    projectId: project.id,
    taskId: task.id,
    tagIds: tagList.map((t) => t.id),
    entry: { id: entry.id, sortKey: String(entry.sortKey) },
    plainEntry: { id: plain.id, sortKey: String(plain.sortKey) },
    spareProjectId: spare.id,
  };
}

/**
 * A fresh fixture: a workspace of its own holding the catalog, and a key. The catalog is written through
 * the repository once, in a template workspace; each fixture is a copy of the template's items (records,
 * locks, usage counters, rollups, change events and the feed's counter) with the workspace id replaced,
 * written in two batch writes instead of the twenty calls of building it again (ids and timestamps are
 * the template's: every record lives under its own workspace's keys). Some ninety fixtures are made.
 */
let template: Promise<{ ws: string; catalog: Catalog; items: Record<string, unknown>[] }> | undefined;
async function makeTemplate(): Promise<{ ws: string; catalog: Catalog; items: Record<string, unknown>[] }> {
  const ws = newWorkspace('fault-template');
  const catalog = await buildCatalog(ws);
  return { ws, catalog, items: await workspaceItems(ws) };
}
async function fixture(): Promise<Ctx> {
  // the promise, not its result: fixtures asked for at once (the beforeAll's twenty) share one template
  template ??= makeTemplate();
  const { ws: from, catalog, items } = await template;
  const ws = newWorkspace('fault');
  const copies = items.map((i) => JSON.parse(JSON.stringify(i).split(from).join(ws)) as Record<string, unknown>);
  const [key] = await Promise.all([makeKey(ws, { perMinute: 1_000_000, perHour: 1_000_000 }), batchWrite(copies.map((Item) => ({ PutRequest: { Item } })))]);
  return { ws, key, ...catalog };
}

/** Writes the requests in batches of 25 at once (DynamoDB's limit), each batch until nothing is left unprocessed. */
async function batchWrite(all: Array<{ PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } }>): Promise<void> {
  const batches = Array.from({ length: Math.ceil(all.length / 25) }, (_, b) => all.slice(b * 25, b * 25 + 25));
  await Promise.all(
    batches.map(async (batch) => {
      let requests = batch;
      while (requests.length) {
        const res = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
        requests = (res.UnprocessedItems?.[tableName()] ?? []) as typeof requests;
      }
    }),
  );
}

/**
 * Deletes the items of a fixture's workspace once no scenario will use it again (`items`: all of them, as
 * workspaceItems read them after its last scenario). Each snapshot scans the whole table (filtered to one
 * workspace, so that an item a change left in any partition of the workspace is seen), and a scan reads
 * every item of the table: without this, the table grows by a workspace per changed fixture (some ninety
 * in the file) and the scans, two per scenario, cost more and more.
 */
async function dropWorkspace(items: Record<string, unknown>[]): Promise<void> {
  await batchWrite(items.map((i) => ({ DeleteRequest: { Key: { PK: i.PK, SK: i.SK } } })));
}

interface Op {
  name: string;
  success: number;
  run(c: Ctx): Promise<CallResult>;
  /** Whether the change is in the table (and, if so, that it is complete). */
  applied(c: Ctx, items: Record<string, unknown>[]): boolean;
}

const byType = (items: Record<string, unknown>[], type: string) => items.filter((i) => i._type === type);

const OPS: Op[] = [
  {
    name: 'create a task (unique name lock + usage counter on the project)',
    success: 201,
    run: (c) => api.post('/v1/tasks', { projectId: c.projectId, name: 'Deploy' }, { key: c.key }),
    applied: (_c, items) => byType(items, 'TASK').some((t) => t.name === 'Deploy'),
  },
  {
    name: 'create a time entry (reads task and project, then counters on project, client, task and two tags)',
    success: 201,
    run: (c) =>
      api.post(
        '/v1/time-entries',
        { userId: 'u2', startTime: '2026-03-05T09:00:00Z', endTime: '2026-03-05T09:30:00Z', taskId: c.taskId, tagIds: [c.tagIds[1], c.tagIds[2]], notes: 'new' },
        { key: c.key },
      ),
    applied: (_c, items) => {
      const e = byType(items, 'TIMEENTRY').find((t) => t.userId === 'u2');
      if (e) expect(e).toMatchObject({ notes: 'new', durationMinutes: 30, projectId: expect.any(String), clientId: expect.any(String) });
      return Boolean(e);
    },
  },
  {
    name: 'create a project without a client (record + event)',
    success: 201,
    run: (c) => api.post('/v1/projects', { name: 'Solo', color: '#123456' }, { key: c.key }),
    applied: (_c, items) => byType(items, 'PROJECT').some((p) => p.name === 'Solo'),
  },
  {
    name: 'rename a task (lock swap)',
    success: 200,
    run: (c) => api.put(`/v1/tasks/${c.taskId}`, { name: 'Construct', status: 'done' }, { key: c.key }),
    applied: (c, items) => {
      const t = byType(items, 'TASK').find((x) => x.id === c.taskId)!;
      if (t.name === 'Construct') expect(t.status).toBe('done');
      return t.name === 'Construct';
    },
  },
  {
    name: 'move a time entry (startTime change: delete + put, tag counters move)',
    success: 200,
    run: (c) => api.put(`/v1/time-entries/${c.entry.id}`, { startTime: '2026-03-01T08:00:00Z', tagIds: [c.tagIds[2]] }, { key: c.key, query: { sortKey: c.entry.sortKey } }),
    applied: (c, items) => {
      const e = byType(items, 'TIMEENTRY').filter((x) => x.id === c.entry.id);
      expect(e).toHaveLength(1);
      const moved = e[0]!.SK !== c.entry.sortKey;
      if (moved) expect(e[0]).toMatchObject({ startTime: '2026-03-01T08:00:00.000Z', tagIds: [c.tagIds[2]], durationMinutes: 26 * 60 });
      else expect(e[0]!.tagIds).toEqual([c.tagIds[0], c.tagIds[1]]);
      return moved;
    },
  },
  {
    name: 'delete a time entry (counter decrements on project, client, task and tags)',
    success: 200,
    run: (c) => api.del(`/v1/time-entries/${c.entry.id}`, { key: c.key, query: { sortKey: c.entry.sortKey } }),
    applied: (c, items) => !byType(items, 'TIMEENTRY').some((x) => x.id === c.entry.id),
  },
  {
    name: 'update plain fields of a time entry (read, then record + event)',
    success: 200,
    run: (c) => api.put(`/v1/time-entries/${c.entry.id}`, { notes: 'edited', billable: true }, { key: c.key, query: { sortKey: c.entry.sortKey } }),
    applied: (c, items) => {
      const e = byType(items, 'TIMEENTRY').find((x) => x.id === c.entry.id)!;
      if (e.notes === 'edited') expect(e.billable).toBe(true);
      return e.notes === 'edited';
    },
  },
  {
    name: 'delete a time entry naming nothing (read, then delete + event)',
    success: 200,
    run: (c) => api.del(`/v1/time-entries/${c.plainEntry.id}`, { key: c.key, query: { sortKey: c.plainEntry.sortKey } }),
    applied: (c, items) => !byType(items, 'TIMEENTRY').some((x) => x.id === c.plainEntry.id),
  },
  {
    name: 'delete an unused project without a client (read, then delete + event)',
    success: 200,
    run: (c) => api.del(`/v1/projects/${c.spareProjectId}`, { key: c.key }),
    applied: (c, items) => !byType(items, 'PROJECT').some((x) => x.id === c.spareProjectId),
  },
  {
    name: 'delete a tag no longer used (lock delete)',
    success: 200,
    run: (c) => api.del(`/v1/tags/${c.tagIds[2]}`, { key: c.key }),
    applied: (c, items) => !byType(items, 'TAG').some((x) => x.id === c.tagIds[2]),
  },
];

/** The workspace's items but the change feed's bookkeeping (its position counter and voids of positions not written). */
const snapshot = (items: Record<string, unknown>[]) =>
  items
    .filter((i) => i._type !== 'CHANGESEQ' && i._type !== 'CHANGEVOID')
    .map((i) => JSON.stringify(i, Object.keys(i).sort()))
    .sort();
const events = (items: Record<string, unknown>[]) => items.filter((i) => i._type === 'CHANGE').length;

/** The data calls each operation makes, and how each ended, from a fault-free run (the same code path as the faulted runs). */
const callsOf = new Map<string, string[]>();
const outcomesOf = new Map<string, string[]>();
const WRITE = /^(TransactWriteItems|PutItem|UpdateItem|DeleteItem)Command$/;
beforeAll(async () => {
  // the fixtures at once (each its own workspace), the runs one at a time (the fault client is the process's)
  const fixtures = await Promise.all(OPS.map(() => fixture()));
  for (const [i, op] of OPS.entries()) {
    const { res, calls, outcomes } = await withFaultClient(undefined, () => op.run(fixtures[i]!));
    expect(res.status).toBe(op.success);
    callsOf.set(op.name, calls);
    outcomesOf.set(op.name, outcomes);
  }
  await Promise.all(fixtures.map(async (c) => dropWorkspace(await workspaceItems(c.ws))));
});

const KINDS: Array<{ kind: FaultKind; times: FaultPlan['times'] }> = [
  { kind: 'throttle', times: 'always' },
  { kind: 'timeout', times: 'always' },
  { kind: 'outage', times: 'always' },
  { kind: 'timeout-after-apply', times: 'always' },
  { kind: 'throttle', times: 'once' },
  { kind: 'timeout-after-apply', times: 'once' },
  { kind: 'transaction-throttled', times: 'always' },
];

describe.each(OPS.map((op) => [op.name, op] as const))('%s', (_name, op) => {
  test('the data calls are known (the fault matrix covers each of them)', () => {
    const calls = callsOf.get(op.name)!;
    const outcomes = outcomesOf.get(op.name)!;
    // Every change is one transaction (the record, what travels with it and its change event), the last
    // call of the request, right after the UpdateItem that takes the event's feed position; reads before.
    expect(calls.slice(-2)).toEqual(['UpdateItemCommand', 'TransactWriteItemsCommand']);
    expect(calls.filter((c) => WRITE.test(c))).toHaveLength(2);
    expect(outcomes.every((o) => o === 'ok')).toBe(true);
  });

  test('each fault at each call: documented status, the change whole or absent, counters exact', async () => {
    const calls = callsOf.get(op.name)!;
    const problems: string[] = [];
    let c: Ctx | undefined;
    // The workspace's items after the last scenario, while its fixture is kept: the next scenario's "before"
    // (nothing else writes to the workspace in between), so each scenario reads the table once, not twice.
    let kept: Record<string, unknown>[] | undefined;
    let dropping: Promise<void> | undefined;
    for (let call = 1; call <= calls.length; call++) {
      // The change itself is the last call (the transaction); the call before takes a feed position, which
      // changes no record (a position taken but not written is voided or passed over by readers).
      const isWrite = call === calls.length;
      for (const { kind, times } of KINDS) {
        if (kind === 'transaction-throttled' && calls[call - 1] !== 'TransactWriteItemsCommand') continue;
        const label = `${kind} ${times} at call ${call}/${calls.length} (${calls[call - 1]})`;
        // A fixture is reused while scenarios leave it untouched (checked below), else a fresh one is made.
        const t0 = Date.now();
        if (!c) {
          // the last fixture's items are deleted meanwhile (nothing else runs: the fault client is not set)
          [c] = await Promise.all([fixture(), dropping]);
          kept = undefined;
        }
        const t1 = Date.now();
        const beforeItems = kept ?? (await workspaceItems(c.ws));
        const before = snapshot(beforeItems);
        const { res, injected } = await withFaultClient({ call, kind, times }, () => op.run(c!));
        faultsInjected += injected;
        if (process.env.FAULT_DEBUG) console.log(label, 'fixture', t1 - t0, 'op', Date.now() - t1);
        scenarios++;
        if (injected === 0) problems.push(`${label}: no fault was injected`);
        const items = await workspaceItems(c.ws);
        const applied = op.applied(c, items);
        const broken = invariantViolations(c.ws, items);
        if (broken.length) problems.push(`${label}: half-written: ${broken.join('; ')}`);
        const unchanged = JSON.stringify(snapshot(items)) === JSON.stringify(before);
        if (!applied && !unchanged) problems.push(`${label}: not applied, yet the table changed`);
        // No change without its event, no event without its change.
        const newEvents = events(items) - events(beforeItems);
        if (newEvents !== (applied ? 1 : 0)) problems.push(`${label}: ${applied ? 'applied' : 'not applied'}, with ${newEvents} new change events`);
        // Recovers: the SDK retried and the write went through, reported as a success.
        const recovers = times === 'once' && kind !== 'transaction-throttled';
        if (recovers) {
          if (res.status !== op.success) problems.push(`${label}: expected ${op.success} after the retry, got ${res.status} ${res.text}`);
          if (!applied) problems.push(`${label}: ${res.status} but the change is not in the table`);
        } else if (kind === 'timeout-after-apply' && isWrite && res.status === op.success) {
          // Every attempt's answer lost, but the retry found the write already done (idempotent): a true success.
          if (!applied) problems.push(`${label}: ${res.status} but the change is not in the table`);
        } else {
          const e = res.body?.error;
          if (res.status !== 503 || e?.code !== 'SERVICE_UNAVAILABLE' || res.headers['Retry-After'] !== '1' || typeof e?.requestId !== 'string') {
            problems.push(`${label}: expected 503 SERVICE_UNAVAILABLE with Retry-After: 1 and a requestId, got ${res.status} ${res.text}`);
          }
          if (/injected|ECONNREFUSED|Throughput|TimeoutError|Transaction/i.test(res.text)) problems.push(`${label}: internals in the body: ${res.text}`);
          // Only a write that reached DynamoDB (its response lost) may be in the table, and then whole.
          if (applied && !(kind === 'timeout-after-apply' && isWrite)) problems.push(`${label}: failed before reaching DynamoDB, yet applied`);
          if (!applied && kind === 'timeout-after-apply' && isWrite) problems.push(`${label}: the write reached DynamoDB, yet it is not in the table`);
        }
        if (unchanged) kept = items;
        else {
          dropping = dropWorkspace(items);
          c = undefined;
        }
      }
    }
    await dropping;
    if (c) await dropWorkspace(kept ?? (await workspaceItems(c.ws)));
    expect(problems).toEqual([]);
  });
});
