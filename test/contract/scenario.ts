import { seedInvoices } from '../../shared/seed/seed-invoices';
import { MAX_BODY_BYTES } from '../../shared/api/handler';
import { makeKey, type apiClient } from '../support/harness';

/**
 * A full scenario over every route of the route table, through the harness's apiClient: each route's
 * success, and the error statuses a client meets (400, 401, 403, 404, 409, 410, 413, 501). The contract
 * suite runs it to prove every response keeps the document; the hygiene suite runs it to scan every
 * response body and log line. Every step asserts its status, so a wrong answer stops the scenario.
 */
type Api = ReturnType<typeof apiClient>;
export const HIGH_LIMITS = { perMinute: 100_000, perHour: 1_000_000 };

export interface ScenarioResult {
  ws: string;
  keys: string[];
  /** Ids of records still present at the end, by resource. */
  ids: Record<string, string[]>;
  requests: number;
}

export async function fullScenario(api: Api, ws: string): Promise<ScenarioResult> {
  const key = await makeKey(ws, { name: 'scenario', ...HIGH_LIMITS });
  const readOnly = await makeKey(ws, { name: 'scenario-read', scopes: ['clients:read'], ...HIGH_LIMITS });
  let requests = 0;
  const expectStatus = async (p: Promise<{ status: number; body: any; text: string }>, status: number, label: string) => {
    const res = await p;
    requests++;
    if (res.status !== status) throw new Error(`${label}: expected ${status}, got ${res.status}: ${res.text.slice(0, 300)}`);
    return res.body;
  };
  const k = { key };

  // public document, and its one error (unknown query parameter)
  await expectStatus(api.get('/v1/openapi.json'), 200, 'openapi');
  await expectStatus(api.get('/v1/openapi.json', { query: { format: 'yaml' } }), 400, 'openapi unknown query');
  // its reference page and the page's script
  await expectStatus(api.get('/v1/docs'), 200, 'reference page');
  await expectStatus(api.get('/v1/docs/redoc.standalone.js'), 200, 'reference page script');

  // authentication and authorization
  await expectStatus(api.get('/v1/clients'), 401, 'no key');
  await expectStatus(api.get('/v1/clients', { key: 'svc_live_' + 'x'.repeat(40) }), 401, 'unknown key');
  await expectStatus(api.get('/v1/clients', { key: readOnly }), 200, 'read-only key reads');
  await expectStatus(api.post('/v1/clients', { name: 'Nope' }, { key: readOnly }), 403, 'read-only key writes');
  await expectStatus(api.get('/v1/me', { key: readOnly }), 200, 'the calling key');

  // clients
  const acme = await expectStatus(
    api.post('/v1/clients', { name: 'Acme', email: 'billing@acme.example', currency: 'USD', notes: 'n', address: '1 Road' }, k),
    201,
    'create client',
  );
  const globex = await expectStatus(api.post('/v1/clients', { name: 'Globex' }, k), 201, 'create client 2');
  await expectStatus(api.post('/v1/clients', { name: 'Acme' }, k), 409, 'duplicate client');
  await expectStatus(api.post('/v1/clients', { name: '' }, k), 400, 'invalid client');
  await expectStatus(api.post('/v1/clients', { name: 'X', color: 'red' }, k), 400, 'unknown field');
  await expectStatus(api.call('POST', '/v1/clients', { ...k, rawBody: '{"name":' }), 400, 'malformed JSON');
  await expectStatus(api.call('POST', '/v1/clients', { ...k, rawBody: JSON.stringify({ name: 'Big', notes: 'x'.repeat(MAX_BODY_BYTES) }) }), 413, 'too large');
  await expectStatus(api.get(`/v1/clients/${acme.id}`, k), 200, 'get client');
  await expectStatus(api.get('/v1/clients/no-such-client', k), 404, 'missing client');
  await expectStatus(api.get(`/v1/clients/${'x'.repeat(200)}`, k), 400, 'bad id');
  await expectStatus(api.get('/v1/clients', { ...k, query: { page: '2' } }), 400, 'unknown query');
  const acme2 = await expectStatus(api.put(`/v1/clients/${acme.id}`, { email: null, notes: 'updated' }, k), 200, 'update client');
  if ('email' in acme2) throw new Error('null did not clear email');
  await expectStatus(api.put('/v1/clients/no-such-client', { notes: 'x' }, k), 404, 'update missing client');
  await expectStatus(api.get('/v1/clients', k), 200, 'list clients');

  // projects
  const site = await expectStatus(
    api.post('/v1/projects', { name: 'Site', clientId: acme.id, color: '#112233', hourlyRate: 100, currency: 'USD', billable: true }, k),
    201,
    'create project',
  );
  const app = await expectStatus(api.post('/v1/projects', { name: 'App' }, k), 201, 'create project 2');
  await expectStatus(api.post('/v1/projects', { name: 'P', clientId: 'no-such-client' }, k), 400, 'project with unknown client');
  await expectStatus(api.get(`/v1/projects/${site.id}`, k), 200, 'get project');
  await expectStatus(api.put(`/v1/projects/${site.id}`, { hourlyRate: 120, color: null }, k), 200, 'update project');
  await expectStatus(api.get('/v1/projects', k), 200, 'list projects');
  const temp = await expectStatus(api.post('/v1/projects', { name: 'Temp' }, k), 201, 'create project 3');
  await expectStatus(api.del(`/v1/projects/${temp.id}`, k), 200, 'delete project');
  await expectStatus(api.del(`/v1/clients/${acme.id}`, k), 409, 'delete client in use');
  await expectStatus(api.del(`/v1/clients/${globex.id}`, k), 200, 'delete client');
  await expectStatus(api.del(`/v1/clients/${globex.id}`, k), 404, 'delete client twice');

  // tasks
  const design = await expectStatus(api.post('/v1/tasks', { projectId: site.id, name: 'Design', estimateMinutes: 120 }, k), 201, 'create task');
  const build = await expectStatus(api.post('/v1/tasks', { projectId: app.id, name: 'Build', billable: false }, k), 201, 'create task 2');
  await expectStatus(api.post('/v1/tasks', { projectId: site.id, name: 'Design' }, k), 409, 'duplicate task');
  await expectStatus(api.get(`/v1/tasks/${design.id}`, k), 200, 'get task');
  await expectStatus(api.put(`/v1/tasks/${design.id}`, { status: 'done', estimateMinutes: null }, k), 200, 'update task');
  await expectStatus(api.get('/v1/tasks', { ...k, query: { projectId: site.id } }), 200, 'list tasks of project');
  await expectStatus(api.get('/v1/tasks', k), 200, 'list tasks');
  await expectStatus(api.del(`/v1/projects/${site.id}`, k), 409, 'delete project in use');

  // tags
  const urgent = await expectStatus(api.post('/v1/tags', { name: 'urgent' }, k), 201, 'create tag');
  const later = await expectStatus(api.post('/v1/tags', { name: 'later' }, k), 201, 'create tag 2');
  await expectStatus(api.post('/v1/tags', { name: 'Urgent' }, k), 409, 'duplicate tag');
  await expectStatus(api.get(`/v1/tags/${urgent.id}`, k), 200, 'get tag');
  await expectStatus(api.put(`/v1/tags/${later.id}`, { archived: true }, k), 200, 'update tag');
  await expectStatus(api.get('/v1/tags', k), 200, 'list tags');
  await expectStatus(api.del(`/v1/tags/${later.id}`, k), 200, 'delete tag');

  // time entries: create, read by sortKey, move, page through with cursors, filter, delete
  const entries: Array<{ id: string; sortKey: string }> = [];
  for (let i = 0; i < 5; i++) {
    entries.push(
      await expectStatus(
        api.post(
          '/v1/time-entries',
          {
            userId: `user-${i % 2}`,
            startTime: `2026-03-0${i + 1}T09:00:00Z`,
            endTime: `2026-03-0${i + 1}T10:30:00Z`,
            taskId: design.id,
            tagIds: [urgent.id],
            notes: 'work',
            name: 'Entry',
          },
          k,
        ),
        201,
        'create entry',
      ),
    );
  }
  const running = await expectStatus(
    api.post('/v1/time-entries', { userId: 'user-0', startTime: '2026-03-09T08:00:00+01:00', projectId: app.id, billable: true }, k),
    201,
    'create running entry',
  );
  await expectStatus(api.post('/v1/time-entries', { userId: 'user-0', startTime: 'yesterday' }, k), 400, 'invalid entry');
  await expectStatus(
    api.post('/v1/time-entries', { userId: 'user-0', startTime: '2026-03-01T09:00:00Z', taskId: build.id, projectId: site.id }, k),
    400,
    'task of another project',
  );
  const e0 = entries[0]!;
  await expectStatus(api.get(`/v1/time-entries/${e0.id}`, { ...k, query: { sortKey: e0.sortKey } }), 200, 'get entry');
  await expectStatus(api.get(`/v1/time-entries/${e0.id}`, k), 400, 'get entry without sortKey');
  await expectStatus(api.get(`/v1/time-entries/${e0.id}`, { ...k, query: { sortKey: '2026-03-01T09:00:00.000Z#nope' } }), 404, 'get entry wrong sortKey');
  const moved = await expectStatus(
    api.put(`/v1/time-entries/${e0.id}`, { startTime: '2026-03-20T09:00:00Z', endTime: '2026-03-20T11:00:00Z', tagIds: null }, { ...k, query: { sortKey: e0.sortKey } }),
    200,
    'move entry',
  );
  entries[0] = moved;
  await expectStatus(
    api.put(`/v1/time-entries/${running.id}`, { endTime: '2026-03-09T09:00:00Z', notes: 'stopped' }, { ...k, query: { sortKey: running.sortKey } }),
    200,
    'stop entry',
  );
  // timers: a running entry, the running list, the stop route (409 once stopped)
  const timer = await expectStatus(api.post('/v1/time-entries', { userId: 'user-2', startTime: '2026-03-10T08:00:00Z' }, k), 201, 'start timer');
  await expectStatus(api.get('/v1/time-entries', { ...k, query: { running: 'true' } }), 200, 'running entries');
  await expectStatus(api.post(`/v1/time-entries/${timer.id}/stop`, { endTime: '2026-03-10T09:00:00Z' }, { ...k, query: { sortKey: timer.sortKey } }), 200, 'stop timer');
  await expectStatus(api.post(`/v1/time-entries/${timer.id}/stop`, {}, { ...k, query: { sortKey: timer.sortKey } }), 409, 'stop a stopped timer');
  await expectStatus(api.get('/v1/time-entries', { ...k, query: { taskId: design.id, tagId: urgent.id, billable: 'true' } }), 200, 'entries by task, tag and billable');
  await expectStatus(api.get('/v1/time-entries', { ...k, query: { limit: '2' }, headers: { Accept: 'text/csv' } }), 200, 'entries as CSV');
  // reports
  await expectStatus(api.get('/v1/reports/summary', { ...k, query: { startDate: '2026-03-01', endDate: '2026-03-31', groupBy: 'project,day' } }), 200, 'summary report');
  await expectStatus(
    api.get('/v1/reports/summary', { ...k, query: { startDate: '2026-03-01', endDate: '2026-03-31', groupBy: 'tag', timeZone: 'Europe/Berlin' }, headers: { Accept: 'text/csv' } }),
    200,
    'summary report as CSV',
  );
  // the CSV operations of their own (the same answers as Accept: text/csv)
  await expectStatus(api.get('/v1/time-entries.csv', { ...k, query: { limit: '2' } }), 200, 'entries as CSV (GET /v1/time-entries.csv)');
  await expectStatus(
    api.get('/v1/reports/summary.csv', { ...k, query: { startDate: '2026-03-01', endDate: '2026-03-31', groupBy: 'project' } }),
    200,
    'summary report as CSV (GET /v1/reports/summary.csv)',
  );
  await expectStatus(api.get('/v1/reports/summary', { ...k, query: { startDate: '2026-03-01' } }), 400, 'summary without endDate');
  let cursor: string | undefined;
  let paged = 0;
  do {
    const page = await expectStatus(api.get('/v1/time-entries', { ...k, query: { limit: '2', ...(cursor ? { cursor } : {}) } }), 200, 'page entries');
    paged += page.items.length;
    cursor = page.hasMore ? page.nextCursor : undefined;
  } while (cursor);
  if (paged !== 7) throw new Error(`paged ${paged} entries, expected 7`);
  await expectStatus(
    api.get('/v1/time-entries', { ...k, query: { userId: 'user-1', startDate: '2026-03-01', endDate: '2026-03-31', projectId: site.id, clientId: acme.id } }),
    200,
    'filtered entries',
  );
  await expectStatus(api.get('/v1/time-entries', { ...k, query: { limit: '0' } }), 400, 'bad limit');
  await expectStatus(api.get('/v1/time-entries', { ...k, query: { cursor: 'not-a-cursor' } }), 400, 'bad cursor');
  await expectStatus(api.del(`/v1/tags/${urgent.id}`, k), 409, 'delete tag in use');
  await expectStatus(api.del(`/v1/tasks/${design.id}`, k), 409, 'delete task in use');
  await expectStatus(api.del(`/v1/time-entries/${entries[4]!.id}`, { ...k, query: { sortKey: entries[4]!.sortKey } }), 200, 'delete entry');
  await expectStatus(api.del(`/v1/time-entries/${entries[4]!.id}`, { ...k, query: { sortKey: entries[4]!.sortKey } }), 404, 'delete entry twice');
  entries.pop();

  // favorites (addressed with userId)
  const fav = await expectStatus(
    api.post('/v1/favorites', { userId: 'user-0', name: 'Daily design', taskId: design.id, tagIds: [urgent.id], billable: true, notes: 'fav' }, k),
    201,
    'create favorite',
  );
  const fav2 = await expectStatus(api.post('/v1/favorites', { userId: 'user-1', name: 'Build', projectId: app.id }, k), 201, 'create favorite 2');
  await expectStatus(api.get(`/v1/favorites/${fav.id}`, { ...k, query: { userId: 'user-0' } }), 200, 'get favorite');
  const started = await expectStatus(
    api.post(`/v1/favorites/${fav.id}/start`, { startTime: '2026-03-11T08:00:00Z' }, { ...k, query: { userId: 'user-0' } }),
    201,
    'start from a favorite',
  );
  await expectStatus(api.post(`/v1/favorites/${fav.id}/start`, {}, { ...k, query: { userId: 'user-1' } }), 404, "start from another user's favorite");
  await expectStatus(api.del(`/v1/time-entries/${started.id}`, { ...k, query: { sortKey: started.sortKey } }), 200, 'delete the started entry');
  await expectStatus(api.get(`/v1/favorites/${fav.id}`, { ...k, query: { userId: 'user-1' } }), 404, 'favorite of another user');
  await expectStatus(api.get(`/v1/favorites/${fav.id}`, k), 400, 'favorite without userId');
  await expectStatus(api.put(`/v1/favorites/${fav.id}`, { notes: null, tagIds: null, name: 'Daily' }, { ...k, query: { userId: 'user-0' } }), 200, 'update favorite');
  await expectStatus(api.get('/v1/favorites', { ...k, query: { userId: 'user-0' } }), 200, 'list favorites of user');
  await expectStatus(api.get('/v1/favorites', k), 200, 'list favorites');
  await expectStatus(api.del(`/v1/favorites/${fav2.id}`, { ...k, query: { userId: 'user-1' } }), 200, 'delete favorite');

  // invoices: created by the application (seeded through the entity), read, paged, deleted when draft/void
  const invs = await seedInvoices(ws, 6);
  let invCursor: string | undefined;
  const seen: Array<{ id: string; status: string }> = [];
  do {
    const page = await expectStatus(api.get('/v1/invoices', { ...k, query: { limit: '4', ...(invCursor ? { cursor: invCursor } : {}) } }), 200, 'page invoices');
    seen.push(...page.items);
    invCursor = page.hasMore ? page.nextCursor : undefined;
  } while (invCursor);
  if (seen.length !== invs.length) throw new Error(`paged ${seen.length} invoices, expected ${invs.length}`);
  const draft = seen.find((i) => i.status === 'draft')!;
  const sent = seen.find((i) => i.status === 'sent')!;
  await expectStatus(api.get(`/v1/invoices/${draft.id}`, k), 200, 'get invoice');
  await expectStatus(api.get('/v1/invoices/no-such-invoice', k), 404, 'missing invoice');
  await expectStatus(api.del(`/v1/invoices/${sent.id}`, k), 409, 'delete sent invoice');
  await expectStatus(api.del(`/v1/invoices/${draft.id}`, k), 200, 'delete draft invoice');
  await expectStatus(api.post('/v1/invoices', { number: 'X' }, k), 501, 'create invoice');
  await expectStatus(api.put(`/v1/invoices/${sent.id}`, { status: 'paid' }, k), 501, 'update invoice');
  await expectStatus(api.get('/v1/invoices', { ...k, query: { cursor: 'junk' } }), 400, 'bad invoice cursor');

  // the change feed: every write above, followed page by page; its errors
  let feedCursor: string | undefined;
  let feedEvents = 0;
  for (;;) {
    const page = await expectStatus(api.get('/v1/changes', { ...k, query: { limit: '7', ...(feedCursor ? { cursor: feedCursor } : {}) } }), 200, 'change feed');
    feedEvents += page.items.length;
    feedCursor = page.nextCursor;
    if (!page.hasMore) break;
  }
  if (feedEvents < 10) throw new Error(`change feed: only ${feedEvents} events`);
  await expectStatus(api.get('/v1/changes', { ...k, query: { types: 'client.*,time-entry.updated' } }), 200, 'change feed by type');
  await expectStatus(api.get('/v1/changes', { key: readOnly }), 200, 'change feed, read-only key');
  await expectStatus(api.get('/v1/changes', { ...k, query: { types: 'client.renamed' } }), 400, 'change feed unknown type');
  await expectStatus(api.get('/v1/changes', { ...k, query: { cursor: 'junk' } }), 400, 'bad change cursor');
  await expectStatus(api.get('/v1/changes', { ...k, query: { since: '2020-01-01T00:00:00Z' } }), 410, 'change feed since too old');

  // webhooks: create (secret once), read, list, update, rotate, test, deliveries, delete; their errors
  const hook = await expectStatus(
    api.post('/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['client.*', 'time-entry.created'], description: 'sync' }, k),
    201,
    'create webhook',
  );
  if (!String(hook.secret).startsWith('whsec_')) throw new Error('create webhook: no secret');
  await expectStatus(api.get(`/v1/webhooks/${hook.id}`, k), 200, 'get webhook');
  await expectStatus(api.get('/v1/webhooks', k), 200, 'list webhooks');
  await expectStatus(api.put(`/v1/webhooks/${hook.id}`, { enabled: false }, k), 200, 'update webhook');
  await expectStatus(api.post(`/v1/webhooks/${hook.id}/rotate-secret`, undefined, k), 200, 'rotate webhook secret');
  await expectStatus(api.post(`/v1/webhooks/${hook.id}/test`, undefined, k), 200, 'test webhook');
  await expectStatus(api.get(`/v1/webhooks/${hook.id}/deliveries`, { ...k, query: { limit: '5' } }), 200, 'webhook deliveries');
  await expectStatus(api.post('/v1/webhooks', { url: 'http://169.254.169.254/', events: ['*'] }, k), 400, 'webhook to metadata');
  await expectStatus(api.get('/v1/webhooks/nope/deliveries', k), 404, 'deliveries of a missing webhook');
  await expectStatus(api.del(`/v1/webhooks/${hook.id}`, k), 200, 'delete webhook');

  // delete what is no longer referenced, in dependency order
  await expectStatus(api.del(`/v1/favorites/${fav.id}`, { ...k, query: { userId: 'user-0' } }), 200, 'delete favorite 2');
  await expectStatus(api.del(`/v1/tasks/${build.id}`, k), 200, 'delete task');

  return {
    ws,
    keys: [key, readOnly],
    ids: {
      clients: [acme.id],
      projects: [site.id, app.id],
      tasks: [design.id],
      tags: [urgent.id],
      'time-entries': [...entries.map((e) => e.id), running.id, timer.id],
      invoices: seen.filter((i) => i.id !== draft.id).map((i) => i.id),
    },
    requests,
  };
}
