import type { EntityRecord, AnyEntity } from '../shared/domain/entity';
import { routes, type RouteDef, type RouteId } from '../shared/api/routes';
import { summarize, type Call, type DynamoCounter } from './lib/dynamo-counter';
import { percentile } from './lib/stats';
import type { Workspace } from './lib/fixtures';

/**
 * Section 4: DynamoDB work per endpoint. Every route of the route table (shared/api/routes.ts routeList; a
 * route this file does not know how to call fails the benchmark, so a new route cannot be skipped) is
 * called once through the local gateway (the same handler modules as deployed; authorizer cache warm,
 * so only the route's own calls are seen), with the counter middleware on the shared client. A few
 * routes are also called with their filters or a second typical body ("variant").
 */
export interface WorkRow {
  route: RouteId;
  kind: 'list' | 'create' | 'get' | 'update' | 'delete' | 'other';
  label: string;
  status: number;
  calls: Call[];
  summary: ReturnType<typeof summarize>;
  /** The target for this kind of route, when the issue sets one. */
  target?: string;
  met?: boolean;
  /** Why this request needs the stored record first (and so a second data call), when it does. */
  why?: string;
  /** A write: the reason for every data call above the one that writes (the transaction). */
  reasons?: string[];
}

interface Req {
  label?: string;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  why?: string;
  /** Extra request headers (an Idempotency-Key). */
  headers?: Record<string, string>;
  /** A request with an Idempotency-Key: the first (the targets of its kind: the key adds no call), or a repeat (target: 1 data call). */
  keyed?: 'first' | 'replay';
  /** A create whose body references no other record (target: position + transaction). */
  plain?: boolean;
}

/** What an Idempotency-Key adds to a write (shared/data/idempotency.ts): no call (its record is one more item of the transaction; an update's or delete's read reads it too, one BatchGetItem). */
const WITH_KEY =
  "Idempotency-Key: its record is one more Put in the transaction; a PUT/DELETE reads it with the record (BatchGetItem), a create with the feed counter (BatchGetItem instead of the position's UpdateItem: the position is taken in the transaction)";
const REPLAY = 'Idempotency-Key repeated: the key is found by the first read (BatchGetItem of the record and the key) and its answer returned; the write does not run';
const CREATE_REPLAY =
  'Idempotency-Key repeated on a create: the key is found by its first call (BatchGetItem of the feed counter and the key) and its answer returned; nothing is written, no position taken';

/** Why some updates and deletes read the stored record first (shared/data/repository.ts). */
export const NEEDS_READ = {
  lock: 'the uniqueness lock to release is keyed by the stored name, which the request does not carry',
  counters: 'the usage counters to decrement are on the records the stored item names (project, client, task, tags)',
  move: 'the new key needs the whole stored item (Delete old + Put new in one transaction)',
} as const;

type Gateway = {
  handle: (r: { method: string; path: string; query?: Record<string, string>; headers?: Record<string, string>; body?: string }) => Promise<{ status: number; body: string }>;
};

const CRUD = ['list', 'create', 'get', 'update', 'delete'] as const;
/** One of an entity's five operations (the route table says which), or 'other' (the document, /v1/me, the feed, timers, reports...). */
export function routeKind(id: RouteId): WorkRow['kind'] {
  const op = (routes[id] as RouteDef).operation;
  return op && (CRUD as readonly string[]).includes(op) ? (op as WorkRow['kind']) : 'other';
}

/** The data calls a write may make (issue 27): what each target allows beyond the rate-limit write. */
export const WRITE_TARGETS = {
  updateOrDelete: 'GetItem + position + transaction (<= 3 data calls) + RL write',
  plainCreate: 'position + transaction (<= 2 data calls) + RL write',
  /** Issue 35: a repeat with the same Idempotency-Key reads the kept answer. */
  replay: '1 data call (the kept answer read) + RL write',
} as const;

/** The target of a request of this kind, and whether its calls meet it (reads: 1 call; writes: the issue's bounds). */
export function targetOf(kind: WorkRow['kind'], req: { plain?: boolean; keyed?: 'first' | 'replay' }, calls: readonly Call[]): { target: string; met: boolean } | undefined {
  const s = summarize(calls);
  const data = calls.filter((c) => !c.rate);
  const rl = s.rateCalls === 1;
  const only = (allowed: Array<(c: Call) => boolean>) => {
    // each allowed call at most once, nothing else
    const left = [...allowed];
    return data.every((c) => {
      const i = left.findIndex((ok) => ok(c));
      if (i < 0) return false;
      left.splice(i, 1);
      return true;
    });
  };
  const position = (c: Call) => c.feedPosition;
  const transaction = (c: Call) => c.command === 'TransactWriteItems';
  // with an Idempotency-Key, the record and the key's record are read in one BatchGetItem
  const read = (c: Call) => c.command === 'GetItem' || (req.keyed !== undefined && c.command === 'BatchGetItem');
  if (req.keyed === 'replay') return { target: WRITE_TARGETS.replay, met: s.dataCalls === 1 && rl };
  switch (kind) {
    case 'list':
      return { target: '1 Query + RL write', met: s.dataCalls === 1 && s.commands[0] === 'Query' && rl };
    case 'get':
      return { target: '1 data call + RL write', met: s.dataCalls === 1 && rl };
    case 'update':
    case 'delete':
      return { target: WRITE_TARGETS.updateOrDelete, met: only([read, position, transaction]) && rl };
    case 'create':
      return req.plain ? { target: WRITE_TARGETS.plainCreate, met: only([position, transaction]) && rl } : undefined;
    default:
      return undefined;
  }
}

/**
 * Why a write makes each data call above its one write (the transaction that carries the record, its locks
 * and counters and its event; or its single write when it has no transaction).
 */
export function callReasons(kind: WorkRow['kind'], calls: readonly Call[], why?: string): string[] {
  const data = calls.filter((c) => !c.rate);
  let main = data.findIndex((c) => c.command === 'TransactWriteItems');
  if (main < 0) main = data.findIndex((c) => !c.idempotency && !c.feedPosition && ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'].includes(c.command));
  let readSeen = false;
  return data.flatMap((c, i) => {
    if (i === main) return [];
    if (c.idempotency)
      return [
        `${c.command}: Idempotency-Key (${c.command === 'PutItem' ? 'the in-progress record; a repeat reads the kept answer through it' : c.command === 'UpdateItem' ? 'keeps the answer' : 'the key record'})`,
      ];
    if (c.feedPosition && c.command === 'BatchGetItem')
      return [`${c.command}: reads the change feed counter and the Idempotency-Key's record (the position is taken in the transaction; a live key answers from this read)`];
    if (c.feedPosition) return [`${c.command}: takes the change feed position (the event's number: one counter item per workspace)`];
    if ((c.command === 'GetItem' || c.command === 'BatchGetItem') && kind !== 'create' && !readSeen) {
      readSeen = true;
      return [`${c.command}: reads the stored record (its event carries the record after the change, and the write is guarded by the version read)${why ? `; ${why}` : ''}`];
    }
    if (c.command === 'GetItem' || c.command === 'BatchGetItem')
      return [`${c.command}: reads a record the request names, to derive and check references (a task implies its project, a project its client)`];
    if (c.command === 'TransactWriteItems') return [`${c.command}: a second transaction${c.ok ? '' : ' (the first was cancelled)'}`];
    if (c.command === 'PutItem' && c.feedWcu > 0) return [`${c.command}: gives the feed position up (a void: the transaction was cancelled)`];
    return [`${c.command}: ${c.ok ? '' : 'failed, '}not classified by bench/dynamo-work.ts callReasons`];
  });
}

export interface WriteLatency {
  kind: string;
  /** The row of the work table with the same request (its calls). */
  label: string;
  runs: number;
  p50: number;
  p90: number;
}

/**
 * p50 latency per write kind against DynamoDB Local: `runs` requests of each kind through the local gateway
 * (counter off, authorizer cache warm): create, update and delete of a client (references nothing) and of a
 * time entry naming a project, task and tag (locks, counters, rollups, five indexes).
 */
export async function measureWriteLatency(gateway: Gateway, ws: Workspace, runs: number): Promise<WriteLatency[]> {
  const headers = { 'X-API-Key': ws.key, 'Content-Type': 'application/json' };
  const project = ws.projects.find((p) => p.clientId)!;
  const task = ws.tasks.find((t) => t.projectId === project.id)!;
  const call = async (method: string, path: string, query: Record<string, string>, body: unknown, want: number) => {
    const t = performance.now();
    const res = await gateway.handle({ method, path, query, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const ms = performance.now() - t;
    if (res.status !== want) throw new Error(`write latency: ${method} ${path}: expected ${want}, got ${res.status} ${res.body}`);
    return { ms, rec: JSON.parse(res.body) as { id: string; sortKey?: string } };
  };
  const kinds: Array<{ name: string; resource: string; create: () => unknown; update: unknown; query: (rec: { sortKey?: string }) => Record<string, string> }> = [
    { name: 'client', resource: 'clients', create: () => ({ name: unique('Latency client') }), update: { notes: 'updated' }, query: () => ({}) },
    {
      name: 'time entry (project, task, tag)',
      resource: 'time-entries',
      create: () => ({
        userId: ws.user,
        startTime: new Date(Date.now() - 3_600_000).toISOString(),
        endTime: new Date().toISOString(),
        projectId: project.id,
        taskId: task.id,
        tagIds: [ws.tags[0]!.id],
      }),
      update: { notes: 'updated' },
      query: (rec) => ({ sortKey: String(rec.sortKey) }),
    },
  ];
  const out: WriteLatency[] = [];
  for (const k of kinds) {
    const base = `/v1/${k.resource}`;
    const times = { create: [] as number[], update: [] as number[], delete: [] as number[] };
    for (let i = 0; i < runs; i++) {
      const c = await call('POST', base, {}, k.create(), 201);
      times.create.push(c.ms);
      const path = `${base}/${c.rec.id}`;
      times.update.push((await call('PUT', path, k.query(c.rec), k.update, 200)).ms);
      times.delete.push((await call('DELETE', path, k.query(c.rec), undefined, 200)).ms);
    }
    const label = (method: string, suffix: string) => `${method} ${base}${suffix}${k.resource === 'time-entries' && method === 'DELETE' ? ' with project, task, tag' : ''}`;
    for (const [op, method, suffix] of [
      ['create', 'POST', ''],
      ['update', 'PUT', '/{id}'],
      ['delete', 'DELETE', '/{id}'],
    ] as const) {
      out.push({ kind: `${op} ${k.name}`, label: label(method, suffix), runs, p50: percentile(times[op], 50), p90: percentile(times[op], 90) });
    }
  }
  return out;
}

let seq = 0;
const unique = (p: string) => `${p} ${Date.now().toString(36)}-${seq++}`;

/** Requests for every route, fixtures created on the way (not counted). */
async function requestsFor(route: RouteDef & { id: RouteId }, ws: Workspace): Promise<Req[]> {
  await import('../shared/services/timers'); // time entries written here carry the running-timer rule and the rollups, as through the API
  const { clients, projects, tasks, tags, timeEntries, favorites, createInvoice } = await import('../shared/data/repositories');
  const project = ws.projects.find((p) => p.clientId)!;
  const task = ws.tasks.find((t) => t.projectId === project.id)!;
  const client = ws.clients.find((c) => c.id === project.clientId)!;
  const tag = ws.tags[0]!;
  const entry = ws.entries[0]!;
  const fav = ws.favorites[0]!;
  const entryBody = () => ({
    userId: ws.user,
    startTime: new Date(Date.now() - 3_600_000).toISOString(),
    endTime: new Date().toISOString(),
    projectId: project.id,
    taskId: task.id,
    tagIds: [tag.id],
    notes: 'bench',
  });
  /** Records to delete: the typical one, and (label) one naming nothing where a resource can have such. */
  const fresh: Record<string, Array<{ label?: string; why?: string; make: () => Promise<EntityRecord<AnyEntity>> }>> = {
    clients: [{ why: NEEDS_READ.lock, make: () => clients.create(ws.id, { name: unique('Client') }) }],
    projects: [
      { label: 'without client', make: () => projects.create(ws.id, { name: unique('Project') }) },
      { label: 'with client', why: NEEDS_READ.counters, make: () => projects.create(ws.id, { name: unique('Project'), clientId: client.id }) },
    ],
    tasks: [{ why: `${NEEDS_READ.lock}; ${NEEDS_READ.counters}`, make: () => tasks.create(ws.id, { name: unique('Task'), projectId: project.id }) }],
    tags: [{ why: NEEDS_READ.lock, make: () => tags.create(ws.id, { name: unique('Tag') }) }],
    'time-entries': [
      {
        label: 'naming nothing',
        make: () => timeEntries.create(ws.id, { userId: ws.user, startTime: new Date(Date.now() - 3_600_000).toISOString(), endTime: new Date().toISOString(), notes: 'bench' }),
      },
      { label: 'with project, task, tag', why: NEEDS_READ.counters, make: () => timeEntries.create(ws.id, entryBody()) },
    ],
    favorites: [
      { label: 'naming nothing', make: () => favorites.create(ws.id, { userId: ws.user, name: unique('Fav') }) },
      { label: 'with project', why: NEEDS_READ.counters, make: () => favorites.create(ws.id, { userId: ws.user, name: unique('Fav'), projectId: project.id }) },
    ],
    invoices: [
      {
        why: `${NEEDS_READ.lock} (number); ${NEEDS_READ.counters}; only draft and void invoices may be deleted, and entries carrying its id are released (a release job opens first); that no release is still running is a ConditionCheck in the transaction`,
        make: async () => {
          // amountDue is derived on every read (the total minus the payments): not an input
          const { id: _id, createdAt: _createdAt, updatedAt: _updatedAt, etag: _etag, amountDue: _due, ...inv } = ws.invoices[0]!;
          return createInvoice(ws.id, { ...inv, number: unique('INV').replace(/\s/g, '-'), status: 'draft' });
        },
      },
    ],
  };
  const r = route.resource;
  const base = `/v1/${r}`;
  if (r === 'webhooks') return webhookRequests(route, ws);
  const idQuery = (rec: EntityRecord<AnyEntity>): Record<string, string> =>
    r === 'time-entries' ? { sortKey: String(rec.sortKey) } : r === 'favorites' ? { userId: String(rec.userId) } : {};
  const existing: Record<string, EntityRecord<AnyEntity>> = {
    clients: client,
    projects: project,
    tasks: task,
    tags: tag,
    'time-entries': entry,
    favorites: fav,
    invoices: ws.invoices[0]!,
  };
  const createBodies: Record<string, unknown> = {
    clients: { name: unique('Client'), currency: 'EUR' },
    projects: { name: unique('Project'), clientId: client.id },
    tasks: { name: unique('Task'), projectId: project.id },
    tags: { name: unique('Tag') },
    'time-entries': entryBody(),
    favorites: { userId: ws.user, name: unique('Fav'), projectId: project.id, taskId: task.id },
    invoices: { number: 'X' },
  };
  /** A second create of the resources whose typical create names other records: one naming none. */
  const createNamingNothing: Record<string, { label: string; body: unknown } | undefined> = {
    projects: { label: 'without client', body: { name: unique('Project') } },
    'time-entries': {
      label: 'naming nothing',
      body: { userId: ws.user, startTime: new Date(Date.now() - 7_200_000).toISOString(), endTime: new Date(Date.now() - 3_600_000).toISOString() },
    },
    favorites: { label: 'naming nothing', body: { userId: ws.user, name: unique('Fav') } },
  };
  const updateBodies: Record<string, unknown> = {
    clients: { notes: 'updated' },
    projects: { notes: 'updated' },
    tasks: { estimateMinutes: 60 },
    tags: { archived: false },
    'time-entries': { notes: 'updated' },
    favorites: { notes: 'updated' },
    invoices: { notes: 'updated' },
  };
  // the routes that are not one of an entity's five operations and need more than their path
  switch (route.id) {
    case 'getSummaryReport':
    case 'getSummaryReportCsv': {
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      return [{ label: 'last 30 days by project', path: route.path, query: { startDate: day(Date.now() - 30 * 86_400_000), endDate: day(Date.now()), groupBy: 'project' } }];
    }
    case 'stopTimeEntry': {
      const running = await timeEntries.create(ws.id, { userId: unique('timer').replace(/\s/g, '-'), startTime: new Date(Date.now() - 3_600_000).toISOString() });
      return [{ path: `/v1/time-entries/${running.id}/stop`, query: { sortKey: String(running.sortKey) } }];
    }
    case 'startFavorite':
      return [{ path: `/v1/favorites/${fav.id}/start`, query: { userId: String(fav.userId) } }];
  }
  switch (routeKind(route.id)) {
    case 'other':
      return [{ path: route.path }];
    case 'list': {
      const reqs: Req[] = [{ path: base }];
      if (r === 'tasks') reqs.push({ label: '?projectId', path: base, query: { projectId: project.id } });
      if (r === 'favorites') reqs.push({ label: '?userId', path: base, query: { userId: ws.user } });
      if (r === 'time-entries') {
        reqs.push({ label: '?userId', path: base, query: { userId: ws.user } });
        reqs.push({ label: '?projectId&clientId', path: base, query: { projectId: project.id, clientId: client.id } });
      }
      return reqs;
    }
    case 'create': {
      const plain = r === 'clients' || r === 'tags' || r === 'invoices';
      const reqs: Req[] = [{ path: base, body: createBodies[r], ...(plain ? { plain } : {}) }];
      const nothing = createNamingNothing[r];
      if (nothing) reqs.push({ ...nothing, path: base, plain: true });
      if (r === 'clients') {
        const key = { 'Idempotency-Key': unique('bench-create').replace(/\s/g, '-') };
        const body = { name: unique('Client'), currency: 'EUR' };
        reqs.push({ label: 'with Idempotency-Key', why: WITH_KEY, path: base, body, headers: key, plain: true, keyed: 'first' });
        reqs.push({ label: 'same Idempotency-Key again (replay)', why: CREATE_REPLAY, path: base, body, headers: key, keyed: 'replay' });
      }
      return reqs;
    }
    case 'get':
      return [{ path: `${base}/${existing[r]!.id}`, query: idQuery(existing[r]!) }];
    case 'update': {
      const reqs: Req[] = [{ path: `${base}/${existing[r]!.id}`, query: idQuery(existing[r]!), body: updateBodies[r] }];
      if (r === 'clients' || r === 'tags')
        reqs.push({ label: 'rename', why: NEEDS_READ.lock, path: `${base}/${existing[r]!.id}`, query: idQuery(existing[r]!), body: { name: unique('Renamed') } });
      if (r === 'clients') {
        const key = { 'Idempotency-Key': unique('bench-update').replace(/\s/g, '-') };
        const at = { path: `${base}/${existing[r]!.id}`, query: idQuery(existing[r]!), body: updateBodies[r], headers: key };
        reqs.push({ label: 'with Idempotency-Key', why: WITH_KEY, ...at, keyed: 'first' });
        reqs.push({ label: 'same Idempotency-Key again (replay)', why: REPLAY, ...at, keyed: 'replay' });
      }
      if (r === 'time-entries') {
        reqs.push({
          label: 'move startTime',
          why: NEEDS_READ.move,
          path: `${base}/${entry.id}`,
          query: idQuery(entry),
          body: { startTime: new Date(Date.parse(String(entry.startTime)) - 60_000).toISOString() },
        });
      }
      return reqs;
    }
    case 'delete': {
      const reqs: Req[] = [];
      for (const f of fresh[r]!) {
        const rec = await f.make();
        reqs.push({ ...(f.label ? { label: f.label } : {}), ...(f.why ? { why: f.why } : {}), path: `${base}/${rec.id}`, query: idQuery(rec) });
      }
      if (r === 'clients') {
        const rec = await fresh[r]![0]!.make();
        const at = { path: `${base}/${rec.id}`, query: idQuery(rec), headers: { 'Idempotency-Key': unique('bench-delete').replace(/\s/g, '-') } };
        reqs.push({ label: 'with Idempotency-Key', why: WITH_KEY, ...at, keyed: 'first' });
        reqs.push({ label: 'same Idempotency-Key again (replay)', why: REPLAY, ...at, keyed: 'replay' });
      }
      return reqs;
    }
  }
}

/** The webhook routes: a fresh endpoint per request (loopback receivers allowed, as on a local run). */
async function webhookRequests(route: RouteDef & { id: RouteId }, ws: Workspace): Promise<Req[]> {
  process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
  const { repository } = await import('../shared/data/repository');
  const { webhooks } = await import('../shared/domain/entities/webhooks');
  const { encryptSecret } = await import('../shared/webhooks/store');
  const { newWebhookSecret } = await import('../shared/domain/webhooks');
  const body = { url: 'http://127.0.0.1:9/bench', events: ['client.*'] };
  const hook = async () =>
    repository(webhooks).create(ws.id, body, {
      system: { internals: { _secret: await encryptSecret(newWebhookSecret()), _readable: ['clients'], _activeSince: new Date().toISOString(), _failedEvents: 0 } },
    });
  const at = async (suffix = '') => `/v1/webhooks/${(await hook()).id}${suffix}`;
  switch (route.id) {
    case 'listWebhooks':
      return [{ path: '/v1/webhooks' }];
    case 'createWebhook':
      return [{ label: '(checks the URL, encrypts the secret, records the workspace in the delivery directory)', path: '/v1/webhooks', body }];
    case 'getWebhook':
    case 'deleteWebhook':
      return [{ path: await at() }];
    case 'updateWebhook':
      return [{ path: await at(), body: { description: 'updated' } }];
    case 'rotateWebhookSecret':
      return [{ path: await at('/rotate-secret') }];
    case 'testWebhook':
      return [{ path: await at('/test') }];
    case 'listWebhookDeliveries':
      return [{ path: await at('/deliveries') }];
    default:
      throw new Error(`bench/dynamo-work.ts: no request for webhook route ${route.id}`);
  }
}

export async function measureDynamoWork(gateway: Gateway, counter: DynamoCounter, ws: Workspace): Promise<WorkRow[]> {
  const { routeList } = await import('../shared/api/routes');
  const headers = { 'X-API-Key': ws.key, 'Content-Type': 'application/json' };
  counter.enabled = false;
  await gateway.handle({ method: 'GET', path: '/v1/clients', headers }); // authorizer cache warm
  const rows: WorkRow[] = [];
  for (const route of routeList) {
    counter.enabled = false;
    const reqs = await requestsFor(route, ws);
    for (const req of reqs) {
      counter.enabled = true;
      counter.reset();
      const res = await gateway.handle({
        method: route.method,
        path: req.path,
        ...(req.query ? { query: req.query } : {}),
        headers: { ...headers, ...req.headers },
        ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
      });
      counter.enabled = false;
      const calls = counter.reset();
      const expected = route.notImplemented ? 501 : route.successStatus;
      if (res.status !== expected) throw new Error(`${route.id} ${req.label ?? ''}: expected ${expected}, got ${res.status} ${res.body}`);
      const kind = routeKind(route.id);
      const s = summarize(calls);
      const row: WorkRow = {
        route: route.id,
        kind,
        label: `${route.method} ${route.path}${req.label ? ` ${req.label}` : ''}`,
        status: res.status,
        calls,
        summary: s,
        ...(req.why ? { why: req.why } : {}),
      };
      if (route.method !== 'GET' && !route.notImplemented) row.reasons = callReasons(kind, calls, req.why);
      if (!route.notImplemented && (!req.headers || req.keyed)) {
        const target = targetOf(kind, req, calls);
        if (target) Object.assign(row, target);
      }
      rows.push(row);
    }
  }
  counter.enabled = true;
  return rows;
}
