import { withFaultClient, type FaultPlan } from '../faults/inject';
import { apiClient, useTestTable } from '../support/harness';
import { workspaceWithKey } from '../resources/support';

/**
 * Idempotency-Key on writes (shared/api/idempotency.ts, Powertools idempotency with its DynamoDB
 * persistence layer in the API's table), against DynamoDB Local through the local gateway.
 */
useTestTable();
const api = apiClient();
const K = (key: string) => ({ 'Idempotency-Key': key });

async function names(key: string): Promise<string[]> {
  return (await api.get('/v1/clients', { key })).body.items.map((c: { name: string }) => c.name);
}

test('a repeated POST returns the kept answer (same status, body, ETag) with Idempotent-Replayed, and creates one record', async () => {
  const { key } = await workspaceWithKey('idem');
  const first = await api.post('/v1/clients', { name: 'Acme', notes: 'n' }, { key, headers: K('create-acme-1') });
  expect(first.status).toBe(201);
  expect(first.headers['Idempotent-Replayed']).toBeUndefined();
  // the same JSON with other whitespace and key order is the same request
  const again = await api.call('POST', '/v1/clients', { key, headers: { ...K('create-acme-1'), 'Content-Type': 'application/json' }, rawBody: '{ "notes":"n",\n "name":"Acme" }' });
  expect([again.status, again.body, again.headers.ETag, again.headers['Idempotent-Replayed']]).toEqual([201, first.body, first.headers.ETag, 'true']);
  expect(again.headers.RateLimit).toBeDefined(); // a replay is still a counted request
  expect(await names(key)).toEqual(['Acme']);
});

test('the same key with another body, path or method is 422 IDEMPOTENCY_KEY_REUSED and changes nothing', async () => {
  const { key } = await workspaceWithKey('idem-reuse');
  const c = await api.post('/v1/clients', { name: 'Acme' }, { key, headers: K('k1') });
  for (const [method, path, body] of [
    ['POST', '/v1/clients', { name: 'Other' }],
    ['POST', '/v1/tags', { name: 'Acme' }],
    ['PUT', `/v1/clients/${c.body.id}`, { name: 'Acme' }],
  ] as const) {
    const res = await api.call(method, path, { key, headers: K('k1'), body });
    expect({ method, path, status: res.status, code: res.body.error?.code }).toEqual({ method, path, status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
  }
  expect(await names(key)).toEqual(['Acme']);
  expect((await api.get('/v1/tags', { key })).body.items).toEqual([]);
});

test('20 concurrent identical POSTs with one key: one record; every answer is the kept 201 or 409 in progress', async () => {
  const { key } = await workspaceWithKey('idem-race');
  const results = await Promise.all(Array.from({ length: 20 }, () => api.post('/v1/clients', { name: 'Raced' }, { key, headers: K('race') })));
  const created = results.filter((r) => r.status === 201);
  const busy = results.filter((r) => r.status === 409);
  expect(created.length + busy.length).toBe(20);
  expect(created.length).toBeGreaterThanOrEqual(1);
  expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
  for (const r of busy) expect([r.body.error.code, r.headers['Retry-After']]).toEqual(['CONFLICT', '1']);
  expect(await names(key)).toEqual(['Raced']);
  // after the first finished, a repeat is the kept answer
  const later = await api.post('/v1/clients', { name: 'Raced' }, { key, headers: K('race') });
  expect([later.status, later.body.id, later.headers['Idempotent-Replayed']]).toEqual([201, created[0]!.body.id, 'true']);
});

test('kept: 404 and 409 decided by the data; not kept: 400s (the retry runs afresh)', async () => {
  const { key } = await workspaceWithKey('idem-kept');
  const missing = await api.del('/v1/clients/01NOPE', { key, headers: K('del') });
  expect(missing.status).toBe(404);
  const again = await api.del('/v1/clients/01NOPE', { key, headers: K('del') });
  expect([again.status, again.body, again.headers['Idempotent-Replayed']]).toEqual([404, missing.body, 'true']);
  await api.post('/v1/clients', { name: 'Taken' }, { key });
  const dup = await api.post('/v1/clients', { name: 'Taken' }, { key, headers: K('dup') });
  expect((await api.post('/v1/clients', { name: 'Taken' }, { key, headers: K('dup') })).headers['Idempotent-Replayed']).toBe('true');
  expect(dup.status).toBe(409);
  // a refused body is not kept: the same key then serves a valid request
  expect((await api.post('/v1/clients', { name: '' }, { key, headers: K('fix') })).status).toBe(400);
  expect((await api.post('/v1/projects', { name: 'P', clientId: '01NOPE' }, { key, headers: K('fix2') })).status).toBe(400);
  expect((await api.post('/v1/clients', { name: 'Fixed' }, { key, headers: K('fix') })).status).toBe(201);
  expect((await api.post('/v1/projects', { name: 'P' }, { key, headers: K('fix2') })).status).toBe(201);
});

test('keys are scoped to the workspace, and a malformed key is 400 naming the header', async () => {
  const a = await workspaceWithKey('idem-a');
  const b = await workspaceWithKey('idem-b');
  const ra = await api.post('/v1/clients', { name: 'Same' }, { key: a.key, headers: K('shared-key') });
  const rb = await api.post('/v1/clients', { name: 'Same' }, { key: b.key, headers: K('shared-key') });
  expect([ra.status, rb.status, rb.headers['Idempotent-Replayed']]).toEqual([201, 201, undefined]);
  expect(ra.body.id).not.toBe(rb.body.id);
  for (const bad of ['', 'x'.repeat(256), 'tab\there', 'é']) {
    const res = await api.post('/v1/clients', { name: 'Bad' }, { key: a.key, headers: K(bad) });
    expect({ bad, status: res.status, field: res.body.error?.details?.[0]?.field }).toEqual({ bad, status: 400, field: 'Idempotency-Key' });
  }
});

test('keys expire after 24 hours (injected clock): the same key then runs again', async () => {
  const { key } = await workspaceWithKey('idem-expiry');
  const first = await api.post('/v1/clients', { name: 'Day 1' }, { key, headers: K('daily') });
  const now = Date.now();
  const clock = jest.spyOn(Date, 'now');
  try {
    clock.mockReturnValue(now + 24 * 3600_000 - 60_000);
    expect((await api.post('/v1/clients', { name: 'Day 1' }, { key, headers: K('daily') })).headers['Idempotent-Replayed']).toBe('true');
    clock.mockReturnValue(now + 24 * 3600_000 + 60_000);
    const later = await api.post('/v1/clients', { name: 'Day 1' }, { key, headers: K('daily') });
    expect(later.status).toBe(409); // ran again: the name is taken by the first record
    expect(later.headers['Idempotent-Replayed']).toBeUndefined();
  } finally {
    clock.mockRestore();
  }
  expect(first.status).toBe(201);
});

describe('faults', () => {
  const withFault = <T>(plan: FaultPlan, fn: () => Promise<T>) => withFaultClient(plan, fn);

  test("a write applied but answered with a timeout, then the client's retry with the same key: one record, the original answer", async () => {
    const { key } = await workspaceWithKey('idem-fault');
    // data calls with a key: 1 the in-progress record, 2 the change-feed position, 3 the create's write, 4 the kept answer
    const {
      res: first,
      calls,
      injected,
    } = await withFault({ call: 3, kind: 'timeout-after-apply', times: 'once' }, () => api.post('/v1/clients', { name: 'Once' }, { key, headers: K('once') }));
    // the SDK sent the applied transaction again (same ClientRequestToken: nothing written twice), then the answer was kept
    expect({ calls, injected }).toEqual({ calls: ['PutItemCommand', 'UpdateItemCommand', 'TransactWriteItemsCommand', 'UpdateItemCommand'], injected: 1 });
    expect(first.status).toBe(201);
    const retry = await api.post('/v1/clients', { name: 'Once' }, { key, headers: K('once') });
    expect([retry.status, retry.body, retry.headers['Idempotent-Replayed']]).toEqual([201, first.body, 'true']);
    expect(await names(key)).toEqual(['Once']);
  });

  test('a failure (5xx) is not kept: the retry with the same key runs afresh', async () => {
    const { key } = await workspaceWithKey('idem-5xx');
    const { res: failed } = await withFault({ call: 3, kind: 'throttle', times: 'always' }, () => api.post('/v1/clients', { name: 'Later' }, { key, headers: K('later') }));
    expect(failed.status).toBe(503);
    expect(await names(key)).toEqual([]);
    const retry = await api.post('/v1/clients', { name: 'Later' }, { key, headers: K('later') });
    expect([retry.status, retry.headers['Idempotent-Replayed']]).toEqual([201, undefined]);
  });
});
