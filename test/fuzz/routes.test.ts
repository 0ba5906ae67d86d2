import fc from 'fast-check';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { db, setDb } from '../../shared/data/db';
import { createInvoice } from '../../shared/data/repositories';
import { ERROR_STATUS } from '../../shared/api/errors';
import { routeList, type RouteDef } from '../../shared/api/routes';
import { apiClient, makeKey, newWorkspace, tableSnapshot, useTestTable, type CallResult } from '../support/harness';
import { assertWorkspaceInvariants } from '../faults/invariants';
import { CURRENT_SORT_KEY, requestFor, type Fixture, type FuzzRequest } from './generators';

/**
 * Fuzzing: for EVERY route of the route table, requests generated inside and outside the schemas
 * (test/fuzz/generators.ts), sent through the local gateway with a key of a real, populated workspace.
 * Properties of every response:
 *   1. never a 5xx (the two declared-501 routes answer exactly 501 NOT_IMPLEMENTED);
 *   2. a 4xx has the error body { error: { code, message, details?, requestId? } }, code matching status;
 *   3. no body carries a stack trace, a file path or an internal name (PK, SK, GSI, _usedBy, _v,
 *      TransactionCanceled, ConditionalCheck, dynamodb ...) unless the request itself contained it (an
 *      echoed unknown field name); 2xx bodies carry no storage attribute at any depth;
 *   4. a rejected request changes nothing: the table (minus rate counters) before and after each rejected
 *      write is identical; read routes are compared per batch.
 * Deterministic: fixed seeds (printed), bounded runs per route.
 */
useTestTable();
const api = apiClient();

const BASE_SEED = Number(process.env.FUZZ_SEED ?? 20260701);
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 100);

const FORBIDDEN: Array<[string, RegExp]> = [
  ['PK', /\bPK\b/],
  ['SK', /\bSK\b/],
  ['GSI', /GSI\d?(PK|SK)?\b/],
  ['_usedBy', /_usedBy/],
  ['_v', /"_v"|\b_v\b/],
  ['_type', /_type\b/],
  ['TransactionCanceled', /TransactionCanceled/i],
  ['ConditionalCheck', /ConditionalCheck/i],
  ['dynamodb', /dynamo/i],
  ['ValidationException', /ValidationException/],
  ['stack trace', /\n\s+at |\bat (?:async )?[\w.<>]+ \(/],
  ['file path', /\.(?:ts|js):\d+|node_modules|\/work\/|\/home\/|\/var\/task/],
  ['JS error', /\b(?:TypeError|ReferenceError|RangeError|SyntaxError)\b/],
  ['object leak', /\[object Object\]/],
  ['table name', new RegExp(`\\b${process.env.TABLE_NAME}\\b`)],
];

let key: string;
let ws: string;
let fixture: Fixture;
let requests = 0;
const perRoute: Record<string, number> = {};

async function created(p: Promise<CallResult>, what: string) {
  const res = await p;
  if (res.status !== 201) throw new Error(`fixture ${what}: ${res.status} ${res.text}`);
  return res.body;
}

beforeAll(async () => {
  ws = newWorkspace('fuzz');
  key = await makeKey(ws, { perMinute: 1_000_000, perHour: 1_000_000 });
  const client = await created(api.post('/v1/clients', { name: 'Fixture Client' }, { key }), 'client');
  const project = await created(api.post('/v1/projects', { name: 'Fixture Project', clientId: client.id }, { key }), 'project');
  const task = await created(api.post('/v1/tasks', { projectId: project.id, name: 'Fixture Task' }, { key }), 'task');
  const tags = [await created(api.post('/v1/tags', { name: 'red' }, { key }), 'tag'), await created(api.post('/v1/tags', { name: 'blue' }, { key }), 'tag')];
  const userId = 'user-1';
  const entries = [];
  for (let i = 0; i < 3; i++) {
    // the fixture entry (the second) is a running timer, so that stopping it can succeed once
    const endTime = i === 1 ? {} : { endTime: `2026-03-0${i + 1}T10:00:00Z` };
    entries.push(
      await created(api.post('/v1/time-entries', { userId, startTime: `2026-03-0${i + 1}T09:00:00Z`, ...endTime, taskId: task.id, tagIds: [tags[0].id] }, { key }), 'entry'),
    );
  }
  const favorite = await created(api.post('/v1/favorites', { userId, name: 'Fav', projectId: project.id, tagIds: [tags[1].id] }, { key }), 'favorite');
  const invoices = [];
  for (let i = 0; i < 3; i++) {
    invoices.push(
      await createInvoice(ws, {
        number: `F-${i}`,
        clientId: client.id,
        status: i === 0 ? 'draft' : 'sent',
        issueDate: `2026-03-0${i + 1}`,
        dueDate: '2026-04-01',
        currency: 'USD',
        lineItems: [{ description: 'Work', quantity: 1, unitPrice: 10, amount: 10 }],
        subtotal: 10,
        tax: 0,
        total: 10,
      }),
    );
  }
  const webhook = (await api.post('/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['*'] }, { key })).body;
  const te = await api.get('/v1/time-entries', { key, query: { limit: '1' } });
  const inv = await api.get('/v1/invoices', { key, query: { limit: '1' } });
  fixture = {
    userId,
    clientId: client.id,
    projectId: project.id,
    taskId: task.id,
    tagIds: tags.map((t) => t.id),
    entry: { id: entries[1].id, sortKey: entries[1].sortKey },
    favorite: { id: favorite.id, userId },
    invoiceId: invoices[0]!.id,
    cursors: { timeEntries: te.body.nextCursor, invoices: inv.body.nextCursor },
    ids: {
      clients: client.id,
      projects: project.id,
      tasks: task.id,
      tags: tags[0].id,
      'time-entries': entries[1].id,
      favorites: favorite.id,
      invoices: invoices[0]!.id,
      webhooks: webhook.id,
    },
  };
});

afterAll(() => {
  const total = Object.values(perRoute).reduce((a, b) => a + b, 0);

  console.log(`fuzz: ${total} requests over ${Object.keys(perRoute).length} routes (base seed ${BASE_SEED}, ${RUNS_PER_ROUTE} runs per route)`);
});

/** Storage attributes that must never appear as a key of a response object. */
const STORAGE_KEY = /^(PK|SK|GSI\d*(PK|SK)|_.*|ttl)$/;
function storageKeysIn(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => storageKeysIn(v, `${path}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => (STORAGE_KEY.test(k) ? [`${path}.${k}`] : storageKeysIn(v, `${path}.${k}`)));
  }
  return [];
}

function violationsOf(route: RouteDef, req: FuzzRequest, res: CallResult): string[] {
  const out: string[] = [];
  const notImplemented = Boolean(route.notImplemented);
  if (res.status >= 500 && !(notImplemented && res.status === 501)) out.push(`status ${res.status}`);
  if (notImplemented && res.status < 400) out.push(`declared-501 route answered ${res.status}`);
  if (res.status >= 400) {
    const e = res.body?.error;
    const keysOk = res.body && typeof res.body === 'object' && Object.keys(res.body).join() === 'error';
    const errKeysOk = e && Object.keys(e).every((k) => ['code', 'message', 'details', 'requestId'].includes(k));
    if (!keysOk || !errKeysOk || typeof e.code !== 'string' || typeof e.message !== 'string' || e.message.length === 0) out.push(`error body shape: ${res.text.slice(0, 200)}`);
    else if (ERROR_STATUS[e.code as keyof typeof ERROR_STATUS] !== res.status) out.push(`code ${e.code} with status ${res.status}`);
    if (
      e?.details !== undefined &&
      (!Array.isArray(e.details) ||
        !e.details.every(
          (d: unknown) =>
            (d && typeof (d as { field?: unknown }).field === 'string' && typeof (d as { message?: unknown }).message === 'string') ||
            (res.status === 403 && ['RATE_LIMITED', 'MISSING_SCOPE'].includes(String((d as { reason?: unknown } | undefined)?.reason))),
        ))
    ) {
      out.push('details shape');
    }
  } else {
    const leaked = storageKeysIn(res.body);
    if (leaked.length) out.push(`storage attributes in a ${res.status} body: ${leaked.join(', ')}`);
  }
  // The reference page's script is Redoc's own bundle (a static file, no data of the API): its text is not scanned.
  if (route.produces === 'text/javascript; charset=utf-8' && res.status === 200) return out;
  const sent = `${req.path} ${JSON.stringify(req.query)} ${req.rawBody ?? ''}`;
  for (const [name, re] of FORBIDDEN) if (re.test(res.text) && !re.test(sent)) out.push(`body contains ${name}: ${res.text.slice(0, 300)}`);
  return out;
}

const describeRequest = (req: FuzzRequest) => {
  const body = req.rawBody === undefined ? '' : req.rawBody.length > 300 ? `${req.rawBody.slice(0, 300)}... (${req.rawBody.length} chars)` : req.rawBody;
  const path = req.path.length > 300 ? `${req.path.slice(0, 300)}...` : req.path;
  return `${req.method} ${path} query=${JSON.stringify(req.query).slice(0, 300)} body(${req.kind})=${body}`;
};

async function send(req: FuzzRequest): Promise<CallResult> {
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(req.query)) {
    const sub = (x: string) => (x === CURRENT_SORT_KEY ? fixture.entry.sortKey : x);
    Object.defineProperty(query, k, { value: Array.isArray(v) ? v.map(sub) : sub(v), enumerable: true, writable: true, configurable: true });
  }
  return api.call(req.method, req.path, { key, query, ...(req.rawBody !== undefined ? { rawBody: req.rawBody, headers: { 'Content-Type': 'application/json' } } : {}) });
}

/** Keys (PK|SK) of the successful write commands of the current request (rate counters left out). */
const writes = new Set<string>();
const itemKey = (x: Record<string, unknown> | undefined) => `${String(x?.PK)}|${String(x?.SK)}`;
function writtenKeys(cmd: { constructor: { name: string }; input: any }): string[] {
  const i = cmd.input ?? {};
  switch (cmd.constructor.name) {
    case 'PutCommand':
      return [itemKey(i.Item)];
    case 'UpdateCommand':
    case 'DeleteCommand':
      return [itemKey(i.Key)];
    case 'TransactWriteCommand':
      return (i.TransactItems ?? []).flatMap((t: any) => (t.Put ? [itemKey(t.Put.Item)] : t.Update ? [itemKey(t.Update.Key)] : t.Delete ? [itemKey(t.Delete.Key)] : []));
    case 'BatchWriteCommand':
      return Object.values(i.RequestItems ?? {}).flatMap((reqs: any) => reqs.map((r: any) => itemKey(r.PutRequest?.Item ?? r.DeleteRequest?.Key)));
    default:
      return [];
  }
}
function isFeedBookkeeping(cmd: { constructor: { name: string }; input: any }): boolean {
  const i = cmd.input ?? {};
  return (cmd.constructor.name === 'UpdateCommand' && String(i.Key?.PK).endsWith('#CHANGESEQ')) || (cmd.constructor.name === 'PutCommand' && i.Item?._type === 'CHANGEVOID');
}
beforeAll(() => {
  const real = db();
  setDb({
    send: async (cmd: never) => {
      const out = await real.send(cmd);
      // The limiter's counter, the authorizer's key item and the change feed's bookkeeping (a refused write
      // may take a feed position and void it: no record, no event) are not data a refusal must leave alone.
      if (isFeedBookkeeping(cmd)) return out;
      for (const k of writtenKeys(cmd)) if (!k.startsWith('RATE#') && !k.startsWith('APIKEY#')) writes.add(k);
      return out;
    },
  } as unknown as DynamoDBDocumentClient);
});
afterAll(() => setDb(undefined));

async function snapshotMap(): Promise<Map<string, string>> {
  const m = new Map<string, string>();
  for (const s of await tableSnapshot()) {
    const it = JSON.parse(s) as Record<string, unknown>;
    m.set(itemKey(it), s);
  }
  return m;
}
function changedKeys(a: Map<string, string>, b: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [k, v] of a) if (b.get(k) !== v) out.push(k);
  for (const k of b.keys()) if (!a.has(k)) out.push(k);
  return out;
}

/** Keeps the fixture entry addressable when a valid PUT moved it (new sortKey). */
function track(req: FuzzRequest, res: CallResult) {
  if (res.status === 200 && req.method === 'PUT' && res.body?.id === fixture.entry.id && typeof res.body.sortKey === 'string') fixture.entry.sortKey = res.body.sortKey;
}

// Deletes last, so the fixture records stay addressable while the other routes are fuzzed.
const ordered = [...routeList.filter((r) => r.method !== 'DELETE'), ...routeList.filter((r) => r.method === 'DELETE')];

describe.each(ordered.map((r, i) => [r.id, r, BASE_SEED + i] as const))('%s', (id, route, seed) => {
  test(`${route.method} ${route.path}: no 5xx, error body on 4xx, no internals, a rejected request changes nothing (seed ${seed})`, async () => {
    // "Changes nothing", per batch: the table is snapshotted at the start, after every request that
    // wrote (a success), and at the end; between two snapshots the only items that may differ are those
    // the one successful request in between wrote. Every write command is also seen as it is sent, so a
    // rejected request that wrote anything is caught on the spot.
    let base = await snapshotMap();
    let rejected = 0;
    const violations: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        requestFor(route, () => fixture),
        async (req) => {
          writes.clear();
          let res: CallResult;
          try {
            res = await send(req);
          } catch (err) {
            // The harness's OpenAPI check (test/support/contract.ts) throws on an undeclared status or body.
            if ((err as Error).name !== 'ContractViolation') throw err;
            const r = (err as Error & { response: { status: number; headers: Record<string, string>; body: string } }).response;
            let body: unknown;
            try {
              body = JSON.parse(r.body);
            } catch {
              body = undefined;
            }
            res = { status: r.status, headers: r.headers, body, text: r.body };
            if (violations.length < 20) violations.push(`contract: ${(err as Error).message.split('\n').slice(0, 2).join(' ')}\n  request: ${describeRequest(req)}`);
          }
          requests++;
          if (process.env.FUZZ_DEBUG) console.log(res.status, res.text.slice(0, 150), describeRequest(req).slice(0, 200));
          perRoute[id] = (perRoute[id] ?? 0) + 1;
          const problems = violationsOf(route, req, res);
          if (res.status >= 400) {
            rejected++;
            if (writes.size > 0) problems.push(`rejected (${res.status}) but wrote ${[...writes].join(', ')}`);
          } else if (writes.size > 0) {
            const now = await snapshotMap();
            const unexplained = changedKeys(base, now).filter((k) => !writes.has(k));
            if (unexplained.length)
              problems.push(`items changed since the last snapshot that this request did not write (an earlier rejected request?): ${unexplained.join(', ')}`);
            base = now;
          }
          track(req, res);
          // Collected, not thrown: one run reports every violating input of the route (first 20 kept).
          if (problems.length && violations.length < 20)
            violations.push(`${problems.join('; ')}\n  request: ${describeRequest(req)}\n  response: ${res.status} ${res.text.slice(0, 300)}`);
        },
      ),
      { seed, numRuns: RUNS_PER_ROUTE },
    );
    const changed = changedKeys(base, await snapshotMap());
    if (changed.length) violations.push(`rejected requests since the last success changed: ${changed.join(', ')}`);
    expect(violations).toEqual([]);
    // The generators reach the deep layers: some requests are rejected, and (except on the 501 routes) some are not.
    // The reference page takes any query (unknown parameters on a page are not an error): nothing is rejected.
    if (route.trailingSlash) expect(rejected).toBe(0);
    else expect(rejected).toBeGreaterThan(0);
    if (!route.notImplemented && route.method !== 'DELETE') expect(rejected).toBeLessThan(RUNS_PER_ROUTE);
  });
});

test('after all of it, the fixture workspace is consistent: usage counters exact, locks match names, index keys match fields', async () => {
  await assertWorkspaceInvariants(ws);
  expect(requests).toBeGreaterThanOrEqual(routeList.length * RUNS_PER_ROUTE);
});
