import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import createClient from 'openapi-fetch';
import { seedInvoices } from '../../shared/seed/seed-invoices';
import { createLocalServer } from '../../local/server';
import { routeList, SCOPES } from '../../shared/api/routes';
import { ContractValidator } from '../support/contract';
import { makeKey, newWorkspace, useTestTable } from '../support/harness';
import { GENERATED_TYPES, generateTypes } from './codegen';
import type { components, paths } from './generated/api';
import { HIGH_LIMITS } from './scenario';
import { plainResources, plainRoundTrip } from '../support/plain-resources';

/**
 * Contract, part 2: the document is usable as a client author uses it. Types generated from it by
 * openapi-typescript (committed, checked here to be current) drive an openapi-fetch client that runs a
 * full scenario over every resource against a real local HTTP server. Each response is also checked
 * against the served document by the validator, through the client's fetch.
 */
useTestTable();

type Schemas = components['schemas'];
let server: Server;
let baseUrl: string;
let served: Record<string, unknown>;
let validator: ContractValidator;
const operationsSeen = new Set<string>();

/** fetch for openapi-fetch: the real one, plus a contract check of every response. */
const checkingFetch = async (input: Request): Promise<Response> => {
  const method = input.method;
  const path = new URL(input.url).pathname;
  const res = await fetch(input);
  const text = await res.clone().text();
  validator.assert({ method, path, status: res.status, headers: Object.fromEntries(res.headers.entries()), body: text });
  const op = validator.operationOf(method, path);
  if (op) operationsSeen.add(`${op.op.operationId} ${res.status}`);
  return res;
};

beforeAll(async () => {
  server = createLocalServer({ authCacheTtlSeconds: 300 });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  served = (await (await fetch(`${baseUrl}/v1/openapi.json`)).json()) as Record<string, unknown>;
  validator = new ContractValidator(served);
});
afterAll(async () => {
  await new Promise((done) => server.close(done));
});

test('the committed generated types are what openapi-typescript makes of the served document', () => {
  expect((served.servers as Array<{ url: string }>)[0]!.url).toContain(baseUrl.replace('http://', ''));
  const fresh = generateTypes(served);
  // on failure: npx tsx test/contract/codegen.ts
  expect(readFileSync(GENERATED_TYPES, 'utf8')).toBe(fresh);
}, 120_000);

test('a generated client runs a full scenario over every resource', async () => {
  const ws = newWorkspace('typed');
  const key = await makeKey(ws, HIGH_LIMITS);
  const api = createClient<paths>({ baseUrl, headers: { 'X-API-Key': key }, fetch: checkingFetch });
  /** Unwraps a success; a failure shows the typed error body. */
  // JSON routes declare JSON alone (CSV is an operation of its own): no union to narrow.
  const ok = <T>(r: { data?: T; error?: unknown; response: Response }): T => {
    if (r.data === undefined) throw new Error(`${r.response.status} ${r.response.url}: ${JSON.stringify(r.error)}`);
    return r.data;
  };

  // the document
  const doc = ok(await api.GET('/v1/openapi.json'));
  expect(doc.openapi).toBe('3.0.3');
  // its reference page and the page's script (text answers)
  const page = await api.GET('/v1/docs', { parseAs: 'text' });
  expect([page.response.status, String(page.data)]).toEqual([200, expect.stringContaining('<redoc spec-url="openapi.json"')]);
  expect((await api.GET('/v1/docs/redoc.standalone.js', { parseAs: 'text' })).response.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8');

  // the calling key, and a 403 that says why
  const me: Schemas['ApiKeyInfo'] = ok(await api.GET('/v1/me'));
  expect([me.workspaceId, me.scopes.length, me.quota.hour.limit]).toEqual([ws, SCOPES.length, HIGH_LIMITS.perHour]);

  // clients
  const acme: Schemas['Client'] = ok(await api.POST('/v1/clients', { body: { name: 'Acme', currency: 'EUR', email: 'a@acme.example' } }));
  expect(acme).toMatchObject({ name: 'Acme', currency: 'EUR', archived: false });
  expect(ok(await api.GET('/v1/clients/{id}', { params: { path: { id: acme.id } } })).email).toBe('a@acme.example');
  const acme2 = ok(await api.PUT('/v1/clients/{id}', { params: { path: { id: acme.id } }, body: { email: null, notes: 'key account' } }));
  expect(acme2.email).toBeUndefined();
  expect(acme2.notes).toBe('key account');
  // conditional requests, typed: the record's etag in If-None-Match (304) and a stale one in If-Match (412)
  const notModified = await api.GET('/v1/clients/{id}', { params: { path: { id: acme.id }, header: { 'If-None-Match': acme2.etag } } });
  expect([notModified.response.status, notModified.response.headers.get('ETag')]).toEqual([304, acme2.etag]);
  const staleWrite = await api.PUT('/v1/clients/{id}', { params: { path: { id: acme.id }, header: { 'If-Match': acme.etag } }, body: { notes: 'lost update' } });
  expect([staleWrite.response.status, staleWrite.error?.error.code]).toEqual([412, 'PRECONDITION_FAILED']);
  const dup = await api.POST('/v1/clients', { body: { name: 'Acme' } });
  expect(dup.response.status).toBe(409);
  expect(dup.error?.error.code).toBe('CONFLICT');
  const tmpClient = ok(await api.POST('/v1/clients', { body: { name: 'Temp' } }));
  expect(ok(await api.GET('/v1/clients')).items.map((c) => c.name)).toEqual(['Acme', 'Temp']);
  expect(ok(await api.DELETE('/v1/clients/{id}', { params: { path: { id: tmpClient.id } } }))).toEqual({ deleted: true, id: tmpClient.id });
  const gone = await api.GET('/v1/clients/{id}', { params: { path: { id: tmpClient.id } } });
  expect([gone.response.status, gone.error?.error]).toEqual([404, { code: 'NOT_FOUND', message: 'Client not found' }]);

  // projects
  const site: Schemas['Project'] = ok(await api.POST('/v1/projects', { body: { name: 'Site', clientId: acme.id, hourlyRate: 90, color: '#AABBCC' } }));
  expect(ok(await api.GET('/v1/projects/{id}', { params: { path: { id: site.id } } })).clientId).toBe(acme.id);
  expect(ok(await api.PUT('/v1/projects/{id}', { params: { path: { id: site.id } }, body: { hourlyRate: 95, color: null } })).color).toBeUndefined();
  const tmpProject = ok(await api.POST('/v1/projects', { body: { name: 'Temp' } }));
  expect(ok(await api.GET('/v1/projects')).items).toHaveLength(2);
  ok(await api.DELETE('/v1/projects/{id}', { params: { path: { id: tmpProject.id } } }));

  // tasks
  const task: Schemas['Task'] = ok(await api.POST('/v1/tasks', { body: { projectId: site.id, name: 'Design', estimateMinutes: 60 } }));
  expect(ok(await api.GET('/v1/tasks/{id}', { params: { path: { id: task.id } } })).status).toBe('active');
  expect(ok(await api.PUT('/v1/tasks/{id}', { params: { path: { id: task.id } }, body: { status: 'done' } })).status).toBe('done');
  const tmpTask = ok(await api.POST('/v1/tasks', { body: { projectId: site.id, name: 'Temp' } }));
  expect(ok(await api.GET('/v1/tasks', { params: { query: { projectId: site.id } } })).items.map((t) => t.name)).toEqual(['Design', 'Temp']);
  ok(await api.DELETE('/v1/tasks/{id}', { params: { path: { id: tmpTask.id } } }));

  // tags
  const tag: Schemas['Tag'] = ok(await api.POST('/v1/tags', { body: { name: 'deep work' } }));
  expect(ok(await api.GET('/v1/tags/{id}', { params: { path: { id: tag.id } } })).name).toBe('deep work');
  expect(ok(await api.PUT('/v1/tags/{id}', { params: { path: { id: tag.id } }, body: { name: 'focus' } })).name).toBe('focus');
  // a retried create with an Idempotency-Key, typed: the kept answer, marked as replayed
  const idem = { params: { header: { 'Idempotency-Key': 'typed-tag-temp' } }, body: { name: 'temp' } };
  const tmpTag = ok(await api.POST('/v1/tags', idem));
  const retried = await api.POST('/v1/tags', idem);
  expect([retried.data?.id, retried.response.headers.get('Idempotent-Replayed')]).toEqual([tmpTag.id, 'true']);
  expect(ok(await api.GET('/v1/tags')).items).toHaveLength(2);
  ok(await api.DELETE('/v1/tags/{id}', { params: { path: { id: tmpTag.id } } }));

  // time entries: sortKey addressing, moving, paging with cursors
  const entries: Array<Schemas['TimeEntry']> = [];
  for (let day = 1; day <= 7; day++) {
    const body = { userId: day % 2 ? 'ann' : 'bob', startTime: `2026-04-0${day}T09:00:00Z`, endTime: `2026-04-0${day}T10:00:00Z`, taskId: task.id, tagIds: [tag.id] };
    entries.push(ok(await api.POST('/v1/time-entries', { body })));
  }
  const first = entries[0]!;
  expect(first).toMatchObject({ projectId: site.id, clientId: acme.id, durationMinutes: 60 });
  expect(ok(await api.GET('/v1/time-entries/{id}', { params: { path: { id: first.id }, query: { sortKey: first.sortKey } } })).id).toBe(first.id);
  const moved = ok(
    await api.PUT('/v1/time-entries/{id}', {
      params: { path: { id: first.id }, query: { sortKey: first.sortKey } },
      body: { startTime: '2026-04-09T09:00:00Z', endTime: '2026-04-09T11:00:00Z', notes: 'moved' },
    }),
  );
  expect(moved.sortKey).not.toBe(first.sortKey);
  expect(moved.durationMinutes).toBe(120);
  const stale = await api.GET('/v1/time-entries/{id}', { params: { path: { id: first.id }, query: { sortKey: first.sortKey } } });
  expect(stale.response.status).toBe(404);
  entries[0] = moved;
  const pagedIds: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = ok(await api.GET('/v1/time-entries', { params: { query: { limit: 3, ...(cursor ? { cursor } : {}) } } }));
    pagedIds.push(...page.items.map((e) => e.id));
    cursor = page.hasMore ? page.nextCursor : undefined;
    pages++;
  } while (cursor);
  expect(pages).toBe(3);
  expect(pagedIds).toEqual([...entries].sort((a, b) => (a.sortKey < b.sortKey ? 1 : -1)).map((e) => e.id));
  const anns = ok(await api.GET('/v1/time-entries', { params: { query: { userId: 'ann', startDate: '2026-04-01', endDate: '2026-04-05' } } }));
  expect(anns.items.map((e) => e.id)).toEqual([entries[4]!.id, entries[2]!.id]);
  const last = entries[6]!;
  ok(await api.DELETE('/v1/time-entries/{id}', { params: { path: { id: last.id }, query: { sortKey: last.sortKey } } }));

  // favorites, addressed with userId
  const fav: Schemas['Favorite'] = ok(await api.POST('/v1/favorites', { body: { userId: 'ann', name: 'Design block', taskId: task.id, tagIds: [tag.id] } }));
  expect(ok(await api.GET('/v1/favorites/{id}', { params: { path: { id: fav.id }, query: { userId: 'ann' } } })).projectId).toBe(site.id);
  expect(ok(await api.PUT('/v1/favorites/{id}', { params: { path: { id: fav.id }, query: { userId: 'ann' } }, body: { tagIds: null, billable: true } })).tagIds).toBeUndefined();
  expect(ok(await api.GET('/v1/favorites', { params: { query: { userId: 'ann' } } })).items.map((f) => f.id)).toEqual([fav.id]);
  expect(ok(await api.GET('/v1/favorites', { params: { query: { userId: 'bob' } } })).items).toEqual([]);
  // timers: start from the favorite (a running entry with its fields), stop it; filters; the summary report
  const timer = ok(await api.POST('/v1/favorites/{id}/start', { params: { path: { id: fav.id }, query: { userId: 'ann' } }, body: { startTime: '2026-04-10T09:00:00Z' } }));
  expect(timer).toMatchObject({ userId: 'ann', name: 'Design block', taskId: task.id, billable: true });
  expect(ok(await api.GET('/v1/time-entries', { params: { query: { running: 'true', userId: 'ann' } } })).items.map((e) => e.id)).toEqual([timer.id]);
  const stopped = ok(
    await api.POST('/v1/time-entries/{id}/stop', { params: { path: { id: timer.id }, query: { sortKey: timer.sortKey } }, body: { endTime: '2026-04-10T09:30:00Z' } }),
  );
  expect(stopped.durationMinutes).toBe(30);
  expect(ok(await api.GET('/v1/time-entries', { params: { query: { taskId: task.id, tagId: tag.id, billable: 'true' } } })).items).toHaveLength(6);
  const summary: Schemas['SummaryReport'] = ok(
    await api.GET('/v1/reports/summary', { params: { query: { startDate: '2026-04-01', endDate: '2026-04-30', groupBy: 'user,day' } } }),
  );
  expect(summary.groups.map((g) => [g.key, g.entries])).toEqual([
    ['ann', 4],
    ['bob', 3],
  ]);
  expect(summary.totals.durationMinutes).toBe(7 * 60 + 30);
  // CSV, as operations of their own
  const summaryCsv = await api.GET('/v1/reports/summary.csv', { params: { query: { startDate: '2026-04-01', endDate: '2026-04-30', groupBy: 'user' } }, parseAs: 'text' });
  expect([summaryCsv.response.headers.get('Content-Type'), String(summaryCsv.data).split('\r\n')[1]]).toEqual([
    'text/csv; charset=utf-8',
    expect.stringMatching(/^total,,,7,450,/),
  ]);
  const entriesCsv = await api.GET('/v1/time-entries.csv', { params: { query: { limit: 2 } }, parseAs: 'text' });
  expect([String(entriesCsv.data).split('\r\n')[0]!.split(',')[0], entriesCsv.response.headers.get('Next-Cursor')?.length]).toEqual(['id', expect.any(Number)]);
  ok(await api.DELETE('/v1/time-entries/{id}', { params: { path: { id: timer.id }, query: { sortKey: stopped.sortKey } } }));
  ok(await api.DELETE('/v1/favorites/{id}', { params: { path: { id: fav.id }, query: { userId: 'ann' } } }));

  // invoices: seeded through the entity (the API only reads and deletes them)
  const seeded = await seedInvoices(ws, 5);
  const invoices: Array<Schemas['Invoice']> = [];
  cursor = undefined;
  do {
    const page: { items: Array<Schemas['Invoice']>; nextCursor?: string; hasMore: boolean } = ok(
      await api.GET('/v1/invoices', { params: { query: { limit: 2, ...(cursor ? { cursor } : {}) } } }),
    );
    invoices.push(...page.items);
    cursor = page.hasMore ? page.nextCursor : undefined;
  } while (cursor);
  expect(invoices.map((i) => i.id).sort()).toEqual(seeded.map((i) => String(i.id)).sort());
  const draft = invoices.find((i) => i.status === 'draft')!;
  const paid = invoices.find((i) => i.status === 'paid')!;
  expect(ok(await api.GET('/v1/invoices/{id}', { params: { path: { id: paid.id } } })).total).toBe(paid.total);
  const refused = await api.DELETE('/v1/invoices/{id}', { params: { path: { id: paid.id } } });
  expect([refused.response.status, refused.error?.error.code]).toEqual([409, 'CONFLICT']);
  ok(await api.DELETE('/v1/invoices/{id}', { params: { path: { id: draft.id } } }));
  const notOffered = await api.POST('/v1/invoices', {});
  expect([notOffered.response.status, notOffered.error?.error.code]).toEqual([501, 'NOT_IMPLEMENTED']);
  const notOffered2 = await api.PUT('/v1/invoices/{id}', { params: { path: { id: paid.id } } });
  expect(notOffered2.response.status).toBe(501);

  // the change feed: every write above, typed (a ChangeEvent's data is the record's own schema)
  const feed: Array<Schemas['ChangeEvent']> = [];
  let feedCursor: string | undefined;
  for (;;) {
    const page: Schemas['ChangePage'] = ok(await api.GET('/v1/changes', { params: { query: { limit: 50, ...(feedCursor ? { cursor: feedCursor } : {}) } } }));
    feed.push(...page.items);
    feedCursor = page.nextCursor;
    if (!page.hasMore) break;
  }
  expect(feed.filter((e) => e.type === 'time-entry.deleted').map((e) => e.resourceId)).toContain(last.id);
  const expired = await api.GET('/v1/changes', { params: { query: { since: '2020-01-01T00:00:00Z' } } });
  expect([expired.response.status, expired.error?.error.code]).toEqual([410, 'CURSOR_EXPIRED']);

  // webhooks: the secret in the create and rotate answers only; ping and the delivery log
  const hook: Schemas['WebhookCreated'] = ok(await api.POST('/v1/webhooks', { body: { url: 'http://127.0.0.1:9/hooks', events: ['*'] } }));
  expect(hook.secret).toMatch(/^whsec_/);
  const readBack: Schemas['Webhook'] = ok(await api.GET('/v1/webhooks/{id}', { params: { path: { id: hook.id } } }));
  expect(readBack).not.toHaveProperty('secret');
  expect(ok(await api.GET('/v1/webhooks')).items.map((w) => w.id)).toEqual([hook.id]);
  expect(ok(await api.PUT('/v1/webhooks/{id}', { params: { path: { id: hook.id } }, body: { description: 'typed' } })).description).toBe('typed');
  const rotated: Schemas['WebhookSecret'] = ok(await api.POST('/v1/webhooks/{id}/rotate-secret', { params: { path: { id: hook.id } } }));
  expect(rotated.secret).not.toBe(hook.secret);
  const ping: Schemas['WebhookPing'] = ok(await api.POST('/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } }));
  expect(ping.type).toBe('webhook.ping');
  const log = ok(await api.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: hook.id }, query: { limit: 10 } } }));
  expect(log.hasMore).toBe(false);
  ok(await api.DELETE('/v1/webhooks/{id}', { params: { path: { id: hook.id } } }));

  // a resource added by its declaration alone (no hand-written steps above): its five routes, through the same checked fetch
  for (const resource of plainResources()) {
    await plainRoundTrip(resource, async (method, path, body) => {
      const init = { method, headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
      const res = await checkingFetch(new Request(`${baseUrl}${path}`, init));
      return { status: res.status, body: await res.json() };
    });
  }

  // auth errors are typed too
  const anon = createClient<paths>({ baseUrl, fetch: checkingFetch });
  const denied = await anon.GET('/v1/clients');
  expect([denied.response.status, denied.error?.error.code]).toEqual([401, 'UNAUTHORIZED']);

  // every operation of the route table was used with its success status
  const missing = routeList.filter((r) => !operationsSeen.has(`${r.id} ${r.notImplemented ? 501 : r.successStatus}`)).map((r) => r.id);
  expect(missing).toEqual([]);
  expect(validator.stats.violations).toBe(0);
  console.log(`typed client scenario: ${validator.stats.validated} responses validated over a real HTTP server`);
});
