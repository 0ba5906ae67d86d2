import { randomBytes } from 'node:crypto';
import { seedInvoices } from '../../shared/seed/seed-invoices';
import { RESOURCES, routeList, type RouteDef, type RouteId, type ResourceName } from '../../shared/api/routes';
import { plainBody, plainResources } from '../support/plain-resources';
import { apiClient, makeKey, tableSnapshot, useTestTable, type CallResult } from '../support/harness';

/**
 * Workspaces are walls. Two workspaces with the same shape of data; each in turn is the attacker: its key
 * (every scope) is used with the victim's ids, sortKeys, userIds, filter ids, cursors and unique names on
 * EVERY route of the route table (derived, so a new route cannot be forgotten):
 *  - id routes: 404 "<Kind> not found" (501 for the declared-but-not-offered invoice routes);
 *  - paginated lists with the victim's cursor: 400 on `cursor`;
 *  - lists, plain and filtered by the victim's ids: 200 with none of the victim's data;
 *  - creates and updates that reference the victim's records: 400 naming the field;
 *  - creates that reuse the victim's unique names (and send its ids): 201, a new record of the attacker.
 * No response to the attacker contains anything of the victim's, and the victim's items in the table are
 * byte-for-byte unchanged (snapshot before/after).
 */
useTestTable();
const api = apiClient();
const HIGH_LIMITS = { perMinute: 100_000, perHour: 1_000_000 };

interface Workspace {
  ws: string;
  key: string;
  userId: string;
  /** Every id, sortKey, name and cursor of this workspace: none may appear in a response to the other. */
  secrets: string[];
  rec: Record<ResourceName, { id: string; name?: string; sortKey?: string }>;
  cursors: { 'time-entries': string; invoices: string; changes: string };
}

async function createWorkspace(label: string): Promise<Workspace> {
  const ws = `iso-${label}-${randomBytes(6).toString('hex')}`;
  const key = await makeKey(ws, HIGH_LIMITS);
  const k = { key };
  const created = async (path: string, body: unknown) => {
    const res = await api.post(path, body, k);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const userId = `user-${label}`;
  const client = await created('/v1/clients', { name: `Client ${label}` });
  const project = await created('/v1/projects', { name: `Project ${label}`, clientId: client.id });
  const task = await created('/v1/tasks', { projectId: project.id, name: `Task ${label}` });
  const tag = await created('/v1/tags', { name: `tag-${label}` });
  const favorite = await created('/v1/favorites', { userId, name: `Favorite ${label}`, taskId: task.id, tagIds: [tag.id] });
  const entries = [];
  for (let i = 1; i <= 4; i++)
    entries.push(
      await created('/v1/time-entries', {
        userId,
        startTime: `2026-05-0${i}T09:00:00Z`,
        endTime: `2026-05-0${i}T10:00:00Z`,
        taskId: task.id,
        tagIds: [tag.id],
        notes: `notes ${label}`,
      }),
    );
  const invoices = await seedInvoices(ws, 4);
  const webhook = await created('/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['*'], description: `Hook ${label}` });
  const page = async (path: string) => {
    const res = await api.get(path, { ...k, query: { limit: '2' } });
    if (!res.body.nextCursor) throw new Error(`${path}: no cursor`);
    return res.body.nextCursor as string;
  };
  const entry = entries[0];
  const fixtures: Partial<Workspace['rec']> = {
    clients: client,
    projects: project,
    tasks: task,
    tags: tag,
    favorites: favorite,
    'time-entries': entry,
    invoices: { id: String(invoices[0]!.id) },
    webhooks: webhook,
  };
  // a resource with no fixture above (a plain one, added by its declaration alone): one record from its create schema
  for (const resource of RESOURCES) fixtures[resource] ??= await created(`/v1/${resource}`, plainBody(resource));
  const rec = fixtures as Workspace['rec'];
  return {
    ws,
    key,
    userId,
    rec,
    cursors: { 'time-entries': await page('/v1/time-entries'), invoices: await page('/v1/invoices'), changes: await page('/v1/changes') },
    secrets: [
      ws,
      userId,
      ...[client, project, task, tag, favorite].flatMap((r) => [r.id, r.name]),
      ...entries.flatMap((e) => [e.id, e.sortKey]),
      ...invoices.map((i) => String(i.id)),
      webhook.id,
      ...plainResources().flatMap((r) => [rec[r].id, rec[r].name ?? rec[r].id]),
    ],
  };
}

/** The victim's records this workspace's own item filter picks out of the table. */
const itemsOf = async (ws: string) => (await tableSnapshot()).filter((item) => item.includes(ws));

/** Query addressing a record on its id route (time entries by sortKey, favorites by userId). */
function addressing(route: RouteDef, w: Workspace): Record<string, string> {
  const shape = Object.keys(route.query?.shape ?? {});
  const q: Record<string, string> = {};
  if (shape.includes('sortKey')) q.sortKey = w.rec['time-entries'].sortKey!;
  if (shape.includes('userId')) q.userId = w.userId;
  return q;
}

/** A valid create body of the attacker for a resource (its own references). */
function ownBody(resource: ResourceName, w: Workspace): Record<string, unknown> {
  const bodies: Partial<Record<ResourceName, Record<string, unknown>>> = {
    clients: { name: `New ${randomBytes(3).toString('hex')}` },
    projects: { name: 'New project' },
    tasks: { projectId: w.rec.projects.id, name: `New ${randomBytes(3).toString('hex')}` },
    tags: { name: `new-${randomBytes(3).toString('hex')}` },
    'time-entries': { userId: w.userId, startTime: '2026-06-01T09:00:00Z' },
    favorites: { userId: w.userId, name: 'New favorite' },
    webhooks: { url: 'http://127.0.0.1:9/new', events: ['client.*'] },
  };
  return bodies[resource] ?? plainBody(resource);
}

/** The victim's id for a reference field of a body or a filter of a list. */
function victimRef(field: string, v: Workspace): unknown {
  switch (field) {
    case 'clientId':
      return v.rec.clients.id;
    case 'projectId':
      return v.rec.projects.id;
    case 'taskId':
      return v.rec.tasks.id;
    case 'tagIds':
      return [v.rec.tags.id];
    case 'tagId':
      return v.rec.tags.id;
    case 'userId':
      return v.userId;
    default:
      return undefined;
  }
}
const REFERENCE_FIELDS = ['clientId', 'projectId', 'taskId', 'tagIds'];

interface Tally {
  routes: Set<RouteId>;
  requests: number;
}

async function attack(a: Workspace, v: Workspace, tally: Tally): Promise<void> {
  /** Calls the API with the attacker's key; the response may echo what the attacker sent, nothing else of the victim's. */
  const send = async (method: string, path: string, what: string, opts: { query?: Record<string, string>; body?: unknown } = {}) => {
    const res = await api.call(method, path, { key: a.key, ...opts });
    const sent = path + JSON.stringify(opts);
    const leaked = v.secrets.filter((s) => res.text.includes(s) && !sent.includes(s));
    if (leaked.length) throw new Error(`${what}: the response to ${a.ws} contains ${v.ws}'s ${leaked.join(', ')}: ${res.text.slice(0, 300)}`);
    tally.requests++;
    return res;
  };
  const expectError = (res: CallResult, status: number, what: string, field?: string) => {
    expect([what, res.status, res.body?.error?.code]).toEqual([what, status, { 400: 'VALIDATION_ERROR', 404: 'NOT_FOUND', 501: 'NOT_IMPLEMENTED' }[status]]);
    if (field) expect([what, res.body.error.details?.map((d: { field: string }) => d.field)]).toEqual([what, expect.arrayContaining([field])]);
  };

  for (const route of routeList) {
    const what = `${route.id} (${a.ws} -> ${v.ws})`;
    const isIdRoute = route.path.includes('{id}');
    if (route.scope === null) {
      // the public document and its reference page: no workspace data at all
      expect((await send('GET', route.path, what)).status).toBe(200);
    } else if (route.id === 'getMe') {
      // the calling key: its own workspace, never the other's
      const me = await send('GET', route.path, what);
      expect([what, me.status, me.body.workspaceId]).toEqual([what, 200, a.ws]);
    } else if (isIdRoute) {
      // the victim's real id (and sortKey / userId); a route's entity may be another function's (start a favorite)
      const target = v.rec[(route.entity?.resource ?? route.resource) as ResourceName];
      const path = route.path.replace('{id}', encodeURIComponent(target.id));
      const writable = Object.keys((route.body as { shape?: object } | undefined)?.shape ?? {});
      const body = route.method === 'PUT' ? { [writable.includes('notes') ? 'notes' : writable.includes('name') ? 'name' : 'description']: 'hijacked' } : undefined;
      const res = await send(route.method, path, what, { query: addressing(route, v), ...(body ? { body } : {}) });
      if (route.notImplemented) expectError(res, 501, what);
      else {
        expectError(res, 404, what);
        expect([what, res.body.error.message]).toEqual([what, `${route.kind} not found`]);
      }
      // updates of the attacker's own record that point at the victim's records
      if (route.method === 'PUT' && !route.notImplemented && route.body) {
        const own = a.rec[route.resource as ResourceName];
        const ownPath = route.path.replace('{id}', encodeURIComponent(own.id));
        const fields = Object.keys((route.body as { shape?: object }).shape ?? {}).filter((f) => REFERENCE_FIELDS.includes(f));
        for (const field of fields) {
          const r = await send('PUT', ownPath, what, { body: { [field]: victimRef(field, v) }, query: addressing(route, a) });
          // 400 on the field, or on a reference it contradicts (an entry's taskId names a task of its own project)
          expectError(r, 400, `${what} own record with the victim's ${field}`);
          expect(r.body.error.details.some((d: { field: string }) => REFERENCE_FIELDS.includes(d.field))).toBe(true);
        }
      }
    } else if (route.csvOf) {
      // the CSV forms (GET /v1/time-entries.csv, GET /v1/reports/summary.csv): the attacker's own rows; under
      // the victim's ids, the header row alone (the report: the header and a total row); the victim's cursor 400
      const report = route.csvOf === 'getSummaryReport';
      const period: Record<string, string> = report ? { startDate: '2026-05-01', endDate: '2026-05-31', groupBy: 'project,tag' } : {};
      const lines = (text: string) => text.trim().split('\n').length;
      const own = await send('GET', route.path, what, { query: period });
      expect([what, own.status, lines(own.text) > (report ? 2 : 1)]).toEqual([what, 200, true]);
      for (const field of Object.keys(route.query?.shape ?? {})) {
        if (field === 'cursor') {
          expectError(await send('GET', route.path, what, { query: { ...period, cursor: v.cursors['time-entries'] } }), 400, `${what} with the victim's cursor`, 'cursor');
          continue;
        }
        const ref = victimRef(field, v);
        if (ref === undefined) continue;
        const res = await send('GET', route.path, `${what} filtered by the victim's ${field}`, { query: { ...period, [field]: String(ref) } });
        expect([what, field, res.status, lines(res.text)]).toEqual([what, field, 200, report ? 2 : 1]);
      }
    } else if (route.id === 'getSummaryReport') {
      // the report: the attacker's own time, and nothing of the victim's under the victim's filters
      const period = { startDate: '2026-05-01', endDate: '2026-05-31', groupBy: 'project,tag' };
      const own = await send('GET', route.path, what, { query: period });
      expect([what, own.status, own.body.totals.entries]).toEqual([what, 200, 4]);
      for (const field of Object.keys(route.query?.shape ?? {})) {
        const ref = victimRef(field, v);
        if (ref === undefined) continue;
        const res = await send('GET', route.path, `${what} filtered by the victim's ${field}`, { query: { ...period, [field]: String(ref) } });
        expect([what, field, res.status, res.body.totals.entries, res.body.groups]).toEqual([what, field, 200, 0, []]);
      }
    } else if (route.method === 'GET') {
      // lists: plain, then filtered by the victim's ids, then with the victim's cursor
      const plain = await send('GET', route.path, what);
      expect([what, plain.status, plain.body.items.length > 0]).toEqual([what, 200, true]);
      for (const field of Object.keys(route.query?.shape ?? {})) {
        if (field === 'cursor') {
          const cursor = v.cursors[route.resource as 'time-entries' | 'invoices' | 'changes'];
          expectError(await send('GET', route.path, what, { query: { cursor } }), 400, `${what} with the victim's cursor`, 'cursor');
          expectError(await send('GET', route.path, what, { query: { cursor, limit: '2' } }), 400, `${what} with the victim's cursor and its limit`, 'cursor');
          continue;
        }
        const ref = victimRef(field, v);
        if (ref === undefined) continue;
        const res = await send('GET', route.path, `${what} filtered by the victim's ${field}`, { query: { [field]: String(ref) } });
        expect([what, field, res.status, res.body.items]).toEqual([what, field, 200, []]);
      }
    } else if (route.method === 'POST') {
      if (route.notImplemented) {
        expectError(await send('POST', route.path, what, { body: { id: v.rec.invoices.id } }), 501, what);
        tally.routes.add(route.id);
        continue;
      }
      const base = ownBody(route.resource as ResourceName, a);
      const fields = Object.keys((route.body as { shape?: object }).shape ?? {}).filter((f) => REFERENCE_FIELDS.includes(f));
      for (const field of fields) {
        expectError(await send('POST', route.path, what, { body: { ...base, [field]: victimRef(field, v) } }), 400, `${what} referencing the victim's ${field}`, field);
      }
      // the victim's name is free in the attacker's workspace (uniqueness is per workspace), and the
      // victim's id in the body is ignored: a new record of the attacker
      const victimRec = v.rec[route.resource as ResourceName] as { id: string; name?: string };
      const res = await send('POST', route.path, what, { body: { ...base, ...(victimRec.name && 'name' in base ? { name: victimRec.name } : {}), id: victimRec.id } });
      expect([what, res.status]).toEqual([what, 201]);
      expect(res.body.id).not.toBe(victimRec.id);
    } else {
      throw new Error(`${route.id}: no isolation check for ${route.method} ${route.path}`);
    }
    tally.routes.add(route.id);
  }
}

test("every route, both directions: the other workspace's ids, sortKeys, userIds, filters, cursors and names get 404/400, and change nothing", async () => {
  const alpha = await createWorkspace('alpha');
  const bravo = await createWorkspace('bravo');
  // the targets are real: the owner's key reads each of them
  for (const w of [alpha, bravo]) {
    for (const route of routeList.filter((r) => r.method === 'GET' && r.path.includes('{id}'))) {
      const res = await api.get(route.path.replace('{id}', w.rec[route.resource as ResourceName].id), { key: w.key, query: addressing(route, w) });
      expect([route.id, res.status]).toEqual([route.id, 200]);
    }
  }

  const checked: Array<[string, number]> = [];
  for (const [attacker, victim] of [
    [bravo, alpha],
    [alpha, bravo],
  ] as const) {
    const before = await itemsOf(victim.ws);
    expect(before.length).toBeGreaterThan(20);
    const tally: Tally = { routes: new Set(), requests: 0 };
    await attack(attacker, victim, tally);
    expect(await itemsOf(victim.ws)).toEqual(before);
    expect([...tally.routes].sort()).toEqual(routeList.map((r) => r.id).sort());
    checked.push([attacker.ws, tally.requests]);
  }
  // the victims' records are intact through their own keys
  for (const w of [alpha, bravo]) {
    expect((await api.get(`/v1/clients/${w.rec.clients.id}`, { key: w.key })).body.name).toBe(w.rec.clients.name);
    const fav = await api.get(`/v1/favorites/${w.rec.favorites.id}`, { key: w.key, query: { userId: w.userId } });
    expect(fav.body.name).toBe(w.rec.favorites.name);
  }
  const requests = checked.reduce((n, [, r]) => n + r, 0);
  console.log(
    `isolation: ${routeList.length} routes x ${checked.length} workspaces = ${routeList.length * checked.length} route checks, ${requests} cross-workspace requests, 0 leaks`,
  );
}, 180_000);
