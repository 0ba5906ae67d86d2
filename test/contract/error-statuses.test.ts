import { buildOpenApi } from '../../shared/api/openapi';
import { routeList } from '../../shared/api/routes';

/**
 * Each operation lists the errors it can really give (issue 26): no 413 on an operation without a body,
 * no 414 on any (a URL over the gateway's limit can meet every operation: the `default` answer says so
 * once), no write errors on reads, no 422 or idempotency 409 where Idempotency-Key is refused, no 400 on a
 * page that ignores its query. The other direction (every status the API gives is declared) is checked on
 * every response of every suite by the harness's contract validator (test/support/contract.ts).
 */
type Json = Record<string, any>;
const doc = buildOpenApi() as Json;
const operations = Object.entries<Json>(doc.paths).flatMap(([path, ops]) =>
  Object.entries<Json>(ops).map(([method, op]) => ({
    at: `${method.toUpperCase()} ${path}`,
    method,
    id: op.operationId as string,
    statuses: Object.keys(op.responses),
    params: ((op.parameters ?? []) as Json[]).map((p) => `${p.in}:${p.name}`),
    body: op.requestBody !== undefined,
    secured: (op.security ?? []).length > 0,
  })),
);
const having = (status: string) => operations.filter((o) => o.statuses.includes(status)).map((o) => o.id);

test('no 414 on any operation (the default answer describes it once), no 413 without a request body', () => {
  expect(operations.length).toBe(routeList.length);
  expect(having('414')).toEqual([]);
  expect(Object.keys(doc.components.responses)).not.toContain('UriTooLong');
  for (const o of operations) expect([o.id, o.statuses.at(-1)]).toEqual([o.id, 'default']);
  expect(doc.components.responses.OtherError.description).toContain('414');
  expect(operations.filter((o) => o.statuses.includes('413') !== o.body).map((o) => o.id)).toEqual([]);
});

test('reads list no write errors; 412, 304, 422, 410, 404, 401 only where their cause exists', () => {
  const gets = operations.filter((o) => o.method === 'get');
  expect(gets.filter((o) => ['409', '412', '413', '422'].some((s) => o.statuses.includes(s))).map((o) => o.id)).toEqual([]);
  // 412 needs If-Match, 304 If-None-Match, 422 (and the in-progress 409) an Idempotency-Key the route takes
  expect(operations.filter((o) => o.statuses.includes('412') !== o.params.includes('header:If-Match')).map((o) => o.id)).toEqual([]);
  expect(operations.filter((o) => o.statuses.includes('304') !== o.params.includes('header:If-None-Match')).map((o) => o.id)).toEqual([]);
  expect(operations.filter((o) => o.statuses.includes('422') !== o.params.includes('header:Idempotency-Key')).map((o) => o.id)).toEqual([]);
  expect(having('410')).toEqual(['listChanges']);
  expect(operations.filter((o) => o.statuses.includes('404') && !o.params.some((p) => p.startsWith('path:'))).map((o) => o.id)).toEqual([]);
  expect(operations.filter((o) => ['401', '403', '503'].some((s) => o.statuses.includes(s)) !== o.secured).map((o) => o.id)).toEqual([]);
  expect(having('501').sort()).toEqual(['createInvoice', 'updateInvoice']);
});

test('the operations whose answers carry a secret refuse Idempotency-Key: no 422, no in-progress 409, the refusal described', () => {
  for (const id of ['createWebhook', 'rotateWebhookSecret']) {
    const o = operations.find((x) => x.id === id)!;
    expect([id, o.statuses.includes('422'), o.params.includes('header:Idempotency-Key')]).toEqual([id, false, false]);
  }
  expect(operations.find((o) => o.id === 'rotateWebhookSecret')!.statuses).not.toContain('409');
  expect(doc.paths['/v1/webhooks/{id}/rotate-secret'].post.description).toContain('Idempotency-Key is not accepted here');
});

test('the exact lists of a few operations', () => {
  const of = (id: string) => operations.find((o) => o.id === id)!.statuses;
  expect(of('getApiReference')).toEqual(['200', '429', '500', '504', 'default']);
  expect(of('getOpenApi')).toEqual(['200', '400', '429', '500', '504', 'default']);
  expect(of('listClients')).toEqual(['200', '400', '401', '403', '429', '500', '503', '504', 'default']);
  expect(of('getClient')).toEqual(['200', '304', '400', '401', '403', '404', '429', '500', '503', '504', 'default']);
  expect(of('addClient')).toEqual(['201', '400', '401', '403', '409', '413', '422', '429', '500', '503', '504', 'default']);
  expect(of('deleteTimeEntry')).toEqual(['200', '400', '401', '403', '404', '409', '412', '422', '429', '500', '503', '504', 'default']);
  expect(of('rotateWebhookSecret')).toEqual(['200', '400', '401', '403', '404', '429', '500', '503', '504', 'default']);
});
