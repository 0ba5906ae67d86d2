import { appendFileSync } from 'node:fs';
import { client } from '../generated/hey-api/client.gen';
import * as sdk from '../generated/hey-api';
import type { Client, Invoice, TimeEntry } from '../generated/hey-api';

/**
 * A scenario over every resource with the SDK @hey-api/openapi-ts generated from the document: compiled
 * with `tsc --strict` (tsconfig.json beside this file) and run by test/contract/hey-api-client.test.ts
 * against a real local server, as `node out/hey-api/scenario.js`. It takes API_BASE_URL, API_KEY (all
 * scopes; API_KEY_SCOPES: how many), INVOICE_IDS (seeded: draft,paid) and RECORD_FILE, where every response is written (one JSON
 * line) for the test to check against the document. Any unexpected answer throws: exit code 1.
 */
const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const recordFile = env('RECORD_FILE');

/** The real fetch, each answer recorded for the contract check. */
const recordingFetch: typeof fetch = async (input, init) => {
  const req = new Request(input, init);
  const res = await fetch(req);
  const body = await res.clone().text();
  appendFileSync(
    recordFile,
    JSON.stringify({ method: req.method, path: new URL(req.url).pathname, status: res.status, headers: Object.fromEntries(res.headers.entries()), body }) + '\n',
  );
  return res;
};

client.setConfig({ baseUrl: env('API_BASE_URL'), auth: env('API_KEY'), fetch: recordingFetch });

/** A success's data, or a thrown error naming the status and the typed error body. */
function ok<T>(r: { data?: T; error?: unknown; response?: Response }): T {
  if (r.data === undefined || r.error !== undefined) throw new Error(`${r.response?.status} ${r.response?.url}: ${JSON.stringify(r.error)}`);
  return r.data;
}
function expectEqual(label: string, actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`${label}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

async function main(): Promise<void> {
  // the document, its reference page and its script (text answers)
  expectEqual('openapi', ok(await sdk.getOpenApi()).openapi, '3.0.3');
  expectEqual('docs', ok(await sdk.getApiReference({ parseAs: 'text' })).includes('<redoc'), true);
  // (the generator types a text/javascript answer as a Blob; its fetch client reads text/* as text)
  const script = await sdk.getApiReferenceScript({ parseAs: 'text' });
  expectEqual(
    'docs script',
    [script.response?.status, script.response?.headers.get('content-type'), String(script.data).includes('Redoc')],
    [200, 'text/javascript; charset=utf-8', true],
  );

  // the calling key
  const me = ok(await sdk.getMe());
  expectEqual('me scopes', me.scopes.length, Number(process.env.API_KEY_SCOPES));
  expectEqual('me quota', me.quota.minute.limit, me.limits.perMinute);

  // clients (addClient: the create route, clear of the SDK's own createClient factory)
  const acme: Client = ok(await sdk.addClient({ body: { name: 'Acme', currency: 'EUR' } }));
  expectEqual('get client', ok(await sdk.getClient({ path: { id: acme.id } })).name, 'Acme');
  const updated = ok(await sdk.updateClient({ path: { id: acme.id }, headers: { 'If-Match': acme.etag }, body: { notes: 'key account' } }));
  expectEqual('update client', updated.notes, 'key account');
  const stale = await sdk.updateClient({ path: { id: acme.id }, headers: { 'If-Match': acme.etag }, body: { notes: 'lost' } });
  expectEqual('stale If-Match', [stale.response?.status, stale.error?.error.code], [412, 'PRECONDITION_FAILED']);
  const dup = await sdk.addClient({ body: { name: 'Acme' } });
  expectEqual('duplicate', [dup.response?.status, dup.error?.error.code], [409, 'CONFLICT']);
  const temp = ok(await sdk.addClient({ body: { name: 'Temp' } }));
  expectEqual(
    'list clients',
    ok(await sdk.listClients())
      .items.map((c) => c.name)
      .filter((n) => n === 'Acme' || n === 'Temp'),
    ['Acme', 'Temp'],
  );
  expectEqual('delete client', ok(await sdk.deleteClient({ path: { id: temp.id } })), { deleted: true, id: temp.id });
  const gone = await sdk.getClient({ path: { id: temp.id } });
  expectEqual('deleted client', [gone.response?.status, gone.error?.error.message], [404, 'Client not found']);

  // projects, tasks, tags
  const site = ok(await sdk.createProject({ body: { name: 'Site', clientId: acme.id, hourlyRate: 90 } }));
  const projectsBefore = ok(await sdk.listProjects()).items.length;
  expectEqual('get project', ok(await sdk.getProject({ path: { id: site.id } })).clientId, acme.id);
  expectEqual('update project', ok(await sdk.updateProject({ path: { id: site.id }, body: { hourlyRate: 95 } })).hourlyRate, 95);
  const tmpProject = ok(await sdk.createProject({ body: { name: 'Temp' } }));
  expectEqual('list projects', ok(await sdk.listProjects()).items.length, projectsBefore + 1);
  ok(await sdk.deleteProject({ path: { id: tmpProject.id } }));

  const task = ok(await sdk.createTask({ body: { projectId: site.id, name: 'Design', estimateMinutes: 60 } }));
  expectEqual('get task', ok(await sdk.getTask({ path: { id: task.id } })).status, 'active');
  expectEqual('update task', ok(await sdk.updateTask({ path: { id: task.id }, body: { status: 'done' } })).status, 'done');
  const tmpTask = ok(await sdk.createTask({ body: { projectId: site.id, name: 'Temp' } }));
  expectEqual(
    'list tasks',
    ok(await sdk.listTasks({ query: { projectId: site.id } })).items.map((t) => t.name),
    ['Design', 'Temp'],
  );
  ok(await sdk.deleteTask({ path: { id: tmpTask.id } }));

  const tag = ok(await sdk.createTag({ body: { name: 'deep work' } }));
  expectEqual('get tag', ok(await sdk.getTag({ path: { id: tag.id } })).name, 'deep work');
  expectEqual('update tag', ok(await sdk.updateTag({ path: { id: tag.id }, body: { name: 'focus' } })).name, 'focus');
  const retry = { headers: { 'Idempotency-Key': 'hey-api-tag-temp' }, body: { name: 'temp' } };
  const tmpTag = ok(await sdk.createTag(retry));
  const replay = await sdk.createTag(retry);
  expectEqual('replayed create', [replay.data?.id, replay.response?.headers.get('Idempotent-Replayed')], [tmpTag.id, 'true']);
  expectEqual('list tags', ok(await sdk.listTags()).items.length, 2);
  ok(await sdk.deleteTag({ path: { id: tmpTag.id } }));

  // time entries: sortKey addressing and cursor paging
  const entries: TimeEntry[] = [];
  for (let day = 1; day <= 5; day++) {
    entries.push(
      ok(await sdk.createTimeEntry({ body: { userId: 'ann', startTime: `2026-04-0${day}T09:00:00Z`, endTime: `2026-04-0${day}T10:30:00Z`, taskId: task.id, tagIds: [tag.id] } })),
    );
  }
  const first = entries[0]!;
  expectEqual('entry derived', [first.projectId, first.clientId, first.durationMinutes], [site.id, acme.id, 90]);
  expectEqual('get entry', ok(await sdk.getTimeEntry({ path: { id: first.id }, query: { sortKey: first.sortKey } })).id, first.id);
  const moved = ok(
    await sdk.updateTimeEntry({ path: { id: first.id }, query: { sortKey: first.sortKey }, body: { startTime: '2026-04-09T09:00:00Z', endTime: '2026-04-09T10:00:00Z' } }),
  );
  expectEqual('moved entry', moved.sortKey === first.sortKey, false);
  const paged: string[] = [];
  let cursor: string | undefined;
  do {
    const page = ok(await sdk.listTimeEntries({ query: { limit: 2, ...(cursor ? { cursor } : {}) } }));
    paged.push(...page.items.map((e) => e.id));
    cursor = page.hasMore ? page.nextCursor : undefined;
  } while (cursor);
  expectEqual('paged entries', paged.length, 5);
  ok(await sdk.deleteTimeEntry({ path: { id: moved.id }, query: { sortKey: moved.sortKey } }));

  // favorites, addressed with userId
  const fav = ok(await sdk.createFavorite({ body: { userId: 'ann', name: 'Design block', taskId: task.id } }));
  expectEqual('get favorite', ok(await sdk.getFavorite({ path: { id: fav.id }, query: { userId: 'ann' } })).projectId, site.id);
  expectEqual('update favorite', ok(await sdk.updateFavorite({ path: { id: fav.id }, query: { userId: 'ann' }, body: { billable: true } })).billable, true);
  expectEqual('list favorites', ok(await sdk.listFavorites({ query: { userId: 'ann' } })).items.length, 1);
  // timers: start one from the favorite, stop it; then the summary report of that day
  const running = ok(await sdk.startFavorite({ path: { id: fav.id }, query: { userId: 'ann' }, body: { startTime: '2026-04-09T09:00:00Z' } }));
  expectEqual('started timer runs', running.endTime, undefined);
  const stopped = ok(await sdk.stopTimeEntry({ path: { id: running.id }, query: { sortKey: running.sortKey! }, body: { endTime: '2026-04-09T09:45:00Z' } }));
  expectEqual('stopped timer', stopped.durationMinutes, 45);
  const report = ok(await sdk.getSummaryReport({ query: { startDate: '2026-04-09', endDate: '2026-04-09', groupBy: 'project' } }));
  expectEqual('report of the day', report.totals.durationMinutes, 45);
  // CSV: operations of their own, typed as text
  const reportCsv: string = ok(await sdk.getSummaryReportCsv({ query: { startDate: '2026-04-09', endDate: '2026-04-09', groupBy: 'project' }, parseAs: 'text' }));
  expectEqual('report as CSV', reportCsv.split('\r\n')[1]!.split(',').slice(0, 4), ['total', '', '', '1']);
  const entriesCsv: string = ok(await sdk.listTimeEntriesCsv({ query: { limit: 1 }, parseAs: 'text' }));
  expectEqual('entries as CSV', entriesCsv.split('\r\n')[0]!.split(',')[0], 'id');
  ok(await sdk.deleteFavorite({ path: { id: fav.id }, query: { userId: 'ann' } }));

  // invoices (seeded by the test: the API only reads and deletes them; create and update answer 501)
  const [draftId, paidId] = env('INVOICE_IDS').split(',') as [string, string];
  const invoices: Invoice[] = ok(await sdk.listInvoices({ query: { limit: 200 } })).items;
  expectEqual(
    'list invoices',
    [draftId, paidId].every((id) => invoices.some((i) => i.id === id)),
    true,
  );
  expectEqual('get invoice', ok(await sdk.getInvoice({ path: { id: paidId } })).status, 'paid');
  const refused = await sdk.deleteInvoice({ path: { id: paidId } });
  expectEqual('delete paid invoice', [refused.response?.status, refused.error?.error.code], [409, 'CONFLICT']);
  ok(await sdk.deleteInvoice({ path: { id: draftId } }));
  const notOffered = await sdk.createInvoice();
  expectEqual('create invoice', [notOffered.response?.status, notOffered.error?.error.code], [501, 'NOT_IMPLEMENTED']);
  const notOffered2 = await sdk.updateInvoice({ path: { id: paidId } });
  expectEqual('update invoice', notOffered2.response?.status, 501);

  // the change feed: every write above, page by page; an expired since is a typed 410
  let feedCursor: string | undefined;
  let events = 0;
  for (;;) {
    const page = ok(await sdk.listChanges({ query: { limit: 50, ...(feedCursor ? { cursor: feedCursor } : {}) } }));
    events += page.items.length;
    feedCursor = page.nextCursor;
    if (!page.hasMore) break;
  }
  expectEqual('change feed has the writes', events > 10, true);
  const expired = await sdk.listChanges({ query: { since: '2020-01-01T00:00:00Z' } });
  expectEqual('change feed since too old', [expired.response?.status, expired.error?.error.code], [410, 'CURSOR_EXPIRED']);

  // webhooks: the secret in the create and rotate answers only; ping and the delivery log
  const hook = ok(await sdk.createWebhook({ body: { url: 'http://127.0.0.1:9/hooks', events: ['*'] } }));
  expectEqual('webhook secret shown once', hook.secret.startsWith('whsec_'), true);
  expectEqual('get webhook', 'secret' in ok(await sdk.getWebhook({ path: { id: hook.id } })), false);
  expectEqual('list webhooks', ok(await sdk.listWebhooks()).items.length, 1);
  expectEqual('update webhook', ok(await sdk.updateWebhook({ path: { id: hook.id }, body: { description: 'hey-api' } })).description, 'hey-api');
  expectEqual('rotate secret', ok(await sdk.rotateWebhookSecret({ path: { id: hook.id } })).secret !== hook.secret, true);
  expectEqual('ping', ok(await sdk.testWebhook({ path: { id: hook.id } })).type, 'webhook.ping');
  expectEqual('deliveries', Array.isArray(ok(await sdk.listWebhookDeliveries({ path: { id: hook.id }, query: { limit: 10 } })).items), true);
  ok(await sdk.deleteWebhook({ path: { id: hook.id } }));

  // a missing scope and a refused key are typed errors, the 403 with its machine-readable reason
  const anonymous = await sdk.listClients({ auth: undefined, security: [] });
  expectEqual('no key', [anonymous.response?.status, anonymous.error?.error.code], [401, 'UNAUTHORIZED']);
  console.log('hey-api scenario: done');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
