import { apiClient, makeKey, newWorkspace, useTestTable, type CallResult } from '../support/harness';
import { invariantViolations, workspaceItems } from '../faults/invariants';

/**
 * Issue 22 items 2 and 3, against DynamoDB Local: contention is not a conflict, and an Idempotency-Key keeps
 * only final answers.
 * - 20 concurrent PUTs of different fields on one record, without If-Match, all answer 200, and every
 *   field's final value is one that was written (no field lost): writes retry with full-jitter backoff
 *   within WRITE_CONTENTION_BUDGET_MS;
 * - past the budget (0 here) the answer is 503 SERVICE_UNAVAILABLE with Retry-After, never 409; the
 *   client's retry with the same Idempotency-Key then runs (the 503 was not kept) and succeeds;
 * - the 409 of a list at its bound is not kept either: after a delete the same key succeeds;
 * - If-Match and If-None-Match are part of what a repeat must match (another value: 422).
 */
useTestTable();
const api = apiClient();
const PARALLEL = 20;
/**
 * The retry budget is a deployment setting (4 s by default, for DynamoDB's milliseconds per call); DynamoDB
 * Local on a shared 2-core machine takes up to ~0.5 s per write, so the tests that prove "every writer
 * succeeds, no field lost" give the writers a budget that cannot run out before the test's own timeout
 * (no timed assertion). Running out is tested on its own, with a budget of 0.
 */
const GENEROUS_BUDGET_MS = '150000';
beforeEach(() => {
  process.env.WRITE_CONTENTION_BUDGET_MS = GENEROUS_BUDGET_MS;
});
afterEach(() => {
  delete process.env.WRITE_CONTENTION_BUDGET_MS;
  delete process.env.MAX_CLIENTS;
});
jest.setTimeout(180_000);

async function workspace(label: string) {
  const ws = newWorkspace(label);
  return { ws, key: await makeKey(ws, { perMinute: 1_000_000, perHour: 1_000_000 }) };
}
async function ok<T = any>(p: Promise<CallResult<T>>, status = 201): Promise<T> {
  const res = await p;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.text}`);
  return res.body;
}
const statuses = (rs: ReadonlyArray<CallResult>) => rs.map((r) => `${r.status} ${r.body?.error?.code ?? ''}`.trim());

/** 20 writers, each setting one of the record's fields (cycling over `fields`) to a value only it writes. */
function plan<F extends string>(fields: readonly F[], value: (field: F, i: number) => unknown) {
  return Array.from({ length: PARALLEL }, (_, i) => {
    const field = fields[i % fields.length]!;
    return { i, field, body: { [field]: value(field, i) } as Record<string, unknown> };
  });
}
/** Every field's final value is one a writer wrote to it (acknowledged with 200). */
function noFieldLost(final: Record<string, unknown>, writes: ReturnType<typeof plan>) {
  for (const field of new Set(writes.map((w) => w.field))) {
    const written = writes.filter((w) => w.field === field).map((w) => JSON.stringify(w.body[field]));
    expect({ field, value: written.includes(JSON.stringify(final[field])) }).toEqual({ field, value: true });
  }
}

test('20 concurrent PUTs of different fields on one time entry, without If-Match: all 200, no field lost', async () => {
  const { ws, key } = await workspace('contend-te');
  const tags = await Promise.all([1, 2, 3].map((n) => ok(api.post('/v1/tags', { name: `t${n}` }, { key }))));
  const entry = await ok(api.post('/v1/time-entries', { userId: 'u', startTime: '2026-03-02T09:00:00Z', endTime: '2026-03-02T10:00:00Z' }, { key }));
  const writes = plan(['name', 'notes', 'billable', 'tagIds'] as const, (field, i) =>
    field === 'billable' ? i % 8 === 2 : field === 'tagIds' ? [tags[i % 3]!.id] : `${field} by writer ${i}`,
  );
  const results = await Promise.all(writes.map((w) => api.put(`/v1/time-entries/${entry.id}`, w.body, { key, query: { sortKey: entry.sortKey } })));
  expect(statuses(results)).toEqual(Array(PARALLEL).fill('200'));
  const final = (await api.get(`/v1/time-entries/${entry.id}`, { key, query: { sortKey: entry.sortKey } })).body;
  noFieldLost(final, writes);
  expect(final.etag).toBe(`"${PARALLEL + 1}"`);
  expect(invariantViolations(ws, await workspaceItems(ws))).toEqual([]);
});

test('20 concurrent PUTs of different fields on one client, without If-Match: all 200, no field lost', async () => {
  const { key } = await workspace('contend-client');
  const client = await ok(api.post('/v1/clients', { name: 'Acme' }, { key }));
  const writes = plan(['name', 'notes', 'address', 'email'] as const, (field, i) => (field === 'email' ? `w${i}@example.com` : `${field} ${i}`));
  const results = await Promise.all(writes.map((w) => api.put(`/v1/clients/${client.id}`, w.body, { key })));
  expect(statuses(results)).toEqual(Array(PARALLEL).fill('200'));
  noFieldLost((await api.get(`/v1/clients/${client.id}`, { key })).body, writes);
});

test('past the retry budget: 503 SERVICE_UNAVAILABLE with Retry-After, never 409; the retry with the same Idempotency-Key succeeds', async () => {
  const { key } = await workspace('contend-budget');
  const client = await ok(api.post('/v1/clients', { name: 'Acme' }, { key }));
  process.env.WRITE_CONTENTION_BUDGET_MS = '0';
  const writes = plan(['notes', 'address'] as const, (field, i) => `${field} ${i}`);
  const results = await Promise.all(writes.map((w) => api.put(`/v1/clients/${client.id}`, w.body, { key, headers: { 'Idempotency-Key': `put-${w.i}` } })));
  const refused = results.filter((r) => r.status !== 200);
  expect(new Set(statuses(refused))).toEqual(new Set(refused.length ? ['503 SERVICE_UNAVAILABLE'] : []));
  expect(refused.length).toBeGreaterThan(0); // 20 writers with no budget: some must meet another
  for (const r of refused) expect([r.headers['Retry-After'], r.body.error.message]).toEqual(['1', expect.stringMatching(/retry/)]);
  // the client retries what failed with the same key, as it should: it runs again (not a replay) and succeeds
  process.env.WRITE_CONTENTION_BUDGET_MS = GENEROUS_BUDGET_MS;
  for (const w of writes.filter((_, i) => results[i]!.status !== 200)) {
    const retry = await api.put(`/v1/clients/${client.id}`, w.body, { key, headers: { 'Idempotency-Key': `put-${w.i}` } });
    expect([retry.status, retry.headers['Idempotent-Replayed']]).toEqual([200, undefined]);
    // and now its answer is kept
    const again = await api.put(`/v1/clients/${client.id}`, w.body, { key, headers: { 'Idempotency-Key': `put-${w.i}` } });
    expect([again.status, again.headers['Idempotent-Replayed'], again.body.etag]).toEqual([200, 'true', retry.body.etag]);
  }
});

test('20 concurrent creates naming one project (its usage counter contends): all 201, the counter exact', async () => {
  const { ws, key } = await workspace('contend-ref');
  const project = await ok(api.post('/v1/projects', { name: 'P' }, { key }));
  const results = await Promise.all(
    Array.from({ length: PARALLEL }, (_, i) =>
      api.post('/v1/time-entries', { userId: `u${i}`, projectId: project.id, startTime: '2026-03-02T09:00:00Z', endTime: '2026-03-02T10:00:00Z' }, { key }),
    ),
  );
  expect(statuses(results)).toEqual(Array(PARALLEL).fill('201'));
  const deletes = await Promise.all(results.map((r) => api.del(`/v1/time-entries/${r.body.id}`, { key, query: { sortKey: r.body.sortKey } })));
  expect(statuses(deletes)).toEqual(Array(PARALLEL).fill('200'));
  expect(invariantViolations(ws, await workspaceItems(ws))).toEqual([]);
  expect((await api.del(`/v1/projects/${project.id}`, { key })).status).toBe(200);
});

test('the 409 of a list at its bound is not kept: after a delete, the retry with the same Idempotency-Key creates', async () => {
  const { key } = await workspace('bound-idem');
  process.env.MAX_CLIENTS = '2';
  const a = await ok(api.post('/v1/clients', { name: 'A' }, { key }));
  await ok(api.post('/v1/clients', { name: 'B' }, { key }));
  const full = await api.post('/v1/clients', { name: 'C' }, { key, headers: { 'Idempotency-Key': 'make-c' } });
  expect([full.status, full.body.error.code]).toEqual([409, 'CONFLICT']);
  expect(full.body.error.message).toMatch(/MAX_CLIENTS/);
  expect((await api.del(`/v1/clients/${a.id}`, { key })).status).toBe(200);
  const retry = await api.post('/v1/clients', { name: 'C' }, { key, headers: { 'Idempotency-Key': 'make-c' } });
  expect([retry.status, retry.body.name, retry.headers['Idempotent-Replayed']]).toEqual([201, 'C', undefined]);
  // a lasting conflict (the name taken) is still kept and replayed
  const dup = await api.post('/v1/clients', { name: 'B' }, { key, headers: { 'Idempotency-Key': 'dup-b' } });
  const dupAgain = await api.post('/v1/clients', { name: 'B' }, { key, headers: { 'Idempotency-Key': 'dup-b' } });
  expect([dup.status, dupAgain.status, dupAgain.headers['Idempotent-Replayed']]).toEqual([409, 409, 'true']);
});

test('If-Match and If-None-Match are part of what a repeat must match: another value with the same key is 422', async () => {
  const { key } = await workspace('idem-cond');
  const client = await ok(api.post('/v1/clients', { name: 'Acme' }, { key }));
  const first = await api.put(`/v1/clients/${client.id}`, { notes: 'x' }, { key, headers: { 'Idempotency-Key': 'cond', 'If-Match': '"1"' } });
  expect(first.status).toBe(200);
  for (const headers of [{ 'If-Match': '"2"' }, {}, { 'If-Match': '"1"', 'If-None-Match': '"7"' }] as Array<Record<string, string>>) {
    const res = await api.put(`/v1/clients/${client.id}`, { notes: 'x' }, { key, headers: { 'Idempotency-Key': 'cond', ...headers } });
    expect({ headers, status: res.status, code: res.body.error?.code }).toEqual({ headers, status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
  }
  const same = await api.put(`/v1/clients/${client.id}`, { notes: 'x' }, { key, headers: { 'Idempotency-Key': 'cond', 'If-Match': '"1"' } });
  expect([same.status, same.headers['Idempotent-Replayed'], same.body.etag]).toEqual([200, 'true', first.body.etag]);
  // a request without conditions keeps matching its repeat without them
  const plain = await api.put(`/v1/clients/${client.id}`, { notes: 'y' }, { key, headers: { 'Idempotency-Key': 'plain' } });
  expect((await api.put(`/v1/clients/${client.id}`, { notes: 'y' }, { key, headers: { 'Idempotency-Key': 'plain' } })).headers['Idempotent-Replayed']).toBe('true');
  expect(plain.status).toBe(200);
});
