import { AsyncResource } from 'node:async_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoConfig, setDb } from '../../shared/data/db';
import { withCrashAfter, withFaultClient, type FaultPlan } from '../faults/inject';
import { drain } from '../changes/support';
import { apiClient, useTestTable } from '../support/harness';
import { workspaceWithKey } from '../resources/support';

/**
 * Idempotency-Key on writes (shared/api/idempotency.ts; the key's record is written in the write's own
 * transaction, shared/data/idempotency.ts), against DynamoDB Local through the local gateway.
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
    // data calls with a key: 1 the change-feed counter read with the key's record, 2 the create's transaction, which takes
    // the position and carries the key's record and answer
    const {
      res: first,
      calls,
      injected,
    } = await withFault({ call: 2, kind: 'timeout-after-apply', times: 'once' }, () => api.post('/v1/clients', { name: 'Once' }, { key, headers: K('once') }));
    // the SDK sent the applied transaction again (same ClientRequestToken: nothing written twice); the answer was kept by it
    expect({ calls, injected }).toEqual({ calls: ['BatchGetItemCommand', 'TransactWriteItemsCommand'], injected: 1 });
    expect(first.status).toBe(201);
    const retry = await api.post('/v1/clients', { name: 'Once' }, { key, headers: K('once') });
    expect([retry.status, retry.body, retry.headers['Idempotent-Replayed']]).toEqual([201, first.body, 'true']);
    expect(await names(key)).toEqual(['Once']);
  });

  test('a failure (5xx) is not kept: the retry with the same key runs afresh', async () => {
    const { key } = await workspaceWithKey('idem-5xx');
    const { res: failed } = await withFault({ call: 2, kind: 'throttle', times: 'always' }, () => api.post('/v1/clients', { name: 'Later' }, { key, headers: K('later') }));
    expect(failed.status).toBe(503);
    expect(await names(key)).toEqual([]);
    const retry = await api.post('/v1/clients', { name: 'Later' }, { key, headers: K('later') });
    expect([retry.status, retry.headers['Idempotent-Replayed']]).toEqual([201, undefined]);
  });
});

describe("the record in the write's own transaction", () => {
  /** The answers of 20 concurrent requests with one key: one effect, 20 identical answers, 19 replayed. */
  function expectOneAnswer(results: Array<{ status: number; body: unknown; headers: Record<string, string | undefined> }>, status: number) {
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(status));
    const answers = new Set(results.map((r) => JSON.stringify([r.body, r.headers.ETag ?? null, r.headers.Location ?? null])));
    expect(answers.size).toBe(1);
    expect(results.filter((r) => r.headers['Idempotent-Replayed'] === 'true').length).toBe(19);
    expect(results.filter((r) => r.headers['Idempotent-Replayed'] === undefined).length).toBe(1);
  }
  const eventsOf = async (key: string) => (await drain(api, key)).events.map((e) => `${e.type} ${e.resourceId}`);

  test('20 concurrent same-key creates: one record, one change event, 20 identical answers, 19 replayed', async () => {
    const { key } = await workspaceWithKey('idem-tx-create');
    const results = await Promise.all(Array.from({ length: 20 }, () => api.post('/v1/clients', { name: 'Once only' }, { key, headers: K('tx-create') })));
    expectOneAnswer(results, 201);
    expect(await names(key)).toEqual(['Once only']);
    expect(await eventsOf(key)).toEqual([`client.created ${results[0]!.body.id}`]);
  });

  test('20 concurrent same-key updates: one change (one revision, one event), 20 identical answers, 19 replayed', async () => {
    const { key } = await workspaceWithKey('idem-tx-update');
    const c = await api.post('/v1/clients', { name: 'Before' }, { key });
    const results = await Promise.all(Array.from({ length: 20 }, () => api.put(`/v1/clients/${c.body.id}`, { name: 'After' }, { key, headers: K('tx-update') })));
    expectOneAnswer(results, 200);
    expect([results[0]!.body.name, results[0]!.headers.ETag]).toEqual(['After', '"2"']);
    expect((await api.get(`/v1/clients/${c.body.id}`, { key })).headers.ETag).toBe('"2"');
    expect(await eventsOf(key)).toEqual([`client.created ${c.body.id}`, `client.updated ${c.body.id}`]);
  });

  test('20 concurrent same-key deletes: one delete, one event, 20 identical answers (not 404s), 19 replayed', async () => {
    const { key } = await workspaceWithKey('idem-tx-delete');
    const c = await api.post('/v1/clients', { name: 'Doomed' }, { key });
    const results = await Promise.all(Array.from({ length: 20 }, () => api.del(`/v1/clients/${c.body.id}`, { key, headers: K('tx-delete') })));
    expectOneAnswer(results, 200);
    expect(results[0]!.body).toEqual({ deleted: true, id: c.body.id });
    expect(await eventsOf(key)).toEqual([`client.created ${c.body.id}`, `client.deleted ${c.body.id}`]);
  });

  test('data calls: a keyed POST makes as many calls as one without a key; a keyed PUT reads the record and the key in one call; a replay is that one read', async () => {
    const { key } = await workspaceWithKey('idem-tx-calls');
    const plain = await withFaultClient(undefined, () => api.post('/v1/clients', { name: 'Plain' }, { key }));
    const keyed = await withFaultClient(undefined, () => api.post('/v1/clients', { name: 'Keyed' }, { key, headers: K('calls-post') }));
    expect([plain.res.status, keyed.res.status]).toEqual([201, 201]);
    expect(plain.calls).toEqual(['UpdateItemCommand', 'TransactWriteItemsCommand']);
    // the keyed create reads the feed's counter with the key's record, and takes its position in its transaction
    expect(keyed.calls).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand']);
    const postAgain = await withFaultClient(undefined, () => api.post('/v1/clients', { name: 'Keyed' }, { key, headers: K('calls-post') }));
    expect([postAgain.res.status, postAgain.res.body, postAgain.res.headers['Idempotent-Replayed'], postAgain.calls]).toEqual([
      201,
      keyed.res.body,
      'true',
      ['BatchGetItemCommand'],
    ]);
    const path = `/v1/clients/${keyed.res.body.id}`;
    const put = await withFaultClient(undefined, () => api.put(path, { notes: 'n' }, { key, headers: K('calls-put') }));
    expect([put.res.status, put.calls]).toEqual([200, ['BatchGetItemCommand', 'UpdateItemCommand', 'TransactWriteItemsCommand']]);
    const replay = await withFaultClient(undefined, () => api.put(path, { notes: 'n' }, { key, headers: K('calls-put') }));
    expect([replay.res.status, replay.res.body, replay.res.headers['Idempotent-Replayed'], replay.calls]).toEqual([200, put.res.body, 'true', ['BatchGetItemCommand']]);
    const del = await withFaultClient(undefined, () => api.del(path, { key, headers: K('calls-del') }));
    expect([del.res.status, del.calls]).toEqual([200, ['BatchGetItemCommand', 'UpdateItemCommand', 'TransactWriteItemsCommand']]);
    const delAgain = await withFaultClient(undefined, () => api.del(path, { key, headers: K('calls-del') }));
    expect([delAgain.res.status, delAgain.res.headers['Idempotent-Replayed'], delAgain.calls]).toEqual([200, 'true', ['BatchGetItemCommand']]);
  });

  test('a crash between the transaction and the answer: the retry with the same key replays the committed answer, nothing written twice', async () => {
    const { key } = await workspaceWithKey('idem-tx-crash');
    const crashed = await withCrashAfter('TransactWriteItemsCommand', () => api.post('/v1/clients', { name: 'Survivor' }, { key, headers: K('crash') }));
    // the transaction was applied; the process "died" before it answered (no data call after it got through)
    expect([crashed.applied, crashed.res.status, crashed.res.body.error.code]).toEqual([true, 500, 'INTERNAL_ERROR']);
    const { res: retry, calls } = await withFaultClient(undefined, () => api.post('/v1/clients', { name: 'Survivor' }, { key, headers: K('crash') }));
    expect([retry.status, retry.headers['Idempotent-Replayed']]).toEqual([201, 'true']);
    // a keyed create first reads the feed's counter with the key's record: the live record answers, nothing is written
    expect(calls).toEqual(['BatchGetItemCommand']);
    const stored = await api.get(`/v1/clients/${retry.body.id}`, { key });
    expect([retry.body, retry.headers.ETag]).toEqual([stored.body, stored.headers.ETag]);
    expect(await names(key)).toEqual(['Survivor']);
    expect(await eventsOf(key)).toEqual([`client.created ${retry.body.id}`]);
  });

  test('20 concurrent keyed creates with different keys and 10 without (the feed counter contended): each write once in the feed, each key replays', async () => {
    const { key } = await workspaceWithKey('idem-tx-claims');
    const keyedPost = (i: number) => api.post('/v1/clients', { name: `K${i}` }, { key, headers: K(`claim-${i}`) });
    const results = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => keyedPost(i)),
      ...Array.from({ length: 10 }, (_, i) => api.post('/v1/clients', { name: `P${i}` }, { key })),
    ]);
    // 30 creates at once contend on the workspace's list bound and feed counter: past the contention budget a
    // write is a retryable 503 that wrote nothing (on a loaded machine some are), else 201
    expect(results.filter((r) => r.status !== 201 && r.status !== 503).map((r) => r.status)).toEqual([]);
    expect(results.filter((r) => r.headers['Idempotent-Replayed'] !== undefined)).toEqual([]);
    // a keyed 503 retried with its key creates (the 503 was not kept)
    const keyed = [];
    for (const [i, r] of results.slice(0, 20).entries()) keyed.push(r.status === 201 ? r : await keyedPost(i));
    expect(keyed.map((r) => [r.status, r.headers['Idempotent-Replayed']])).toEqual(Array(20).fill([201, undefined]));
    const created = [...keyed, ...results.slice(20).filter((r) => r.status === 201)];
    expect((await names(key)).sort()).toEqual(created.map((r) => r.body.name).sort());
    expect((await eventsOf(key)).sort()).toEqual(created.map((r) => `client.created ${r.body.id}`).sort());
    const again = await Promise.all(Array.from({ length: 20 }, (_, i) => keyedPost(i)));
    expect(again.map((r) => [r.status, r.body.id, r.headers['Idempotent-Replayed']])).toEqual(keyed.map((r) => [201, r.body.id, 'true']));
  });

  test('a keyed create whose feed counter moves between its read and its transaction takes a position the usual way: both writes, each event once, in commit order', async () => {
    const { key } = await workspaceWithKey('idem-tx-moved');
    // a real client whose hook runs another create (no key) right after the keyed create's first read
    const client = new DynamoDBClient(dynamoConfig());
    const calls: string[] = [];
    let other: { status: number; body: { id: string } } | undefined;
    // another request: bound here, so it runs outside the keyed request's context (as another Lambda would)
    const otherCreate = AsyncResource.bind(() => api.post('/v1/clients', { name: 'Other' }, { key }));
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const input = (args as { input?: { Key?: { PK?: string }; RequestItems?: unknown } }).input;
        if (String(input?.Key?.PK ?? '').includes('RATE#') || String(input?.Key?.PK ?? '').includes('APIKEY#')) return next(args);
        calls.push(context.commandName ?? '?');
        const res = await next(args);
        if (context.commandName === 'BatchGetItemCommand' && !other) other = await otherCreate();
        return res;
      },
      { step: 'initialize', priority: 'high', name: 'counterMover' },
    );
    setDb(DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }));
    let keyed;
    try {
      keyed = await api.post('/v1/clients', { name: 'Keyed' }, { key, headers: K('moved') });
    } finally {
      setDb(undefined);
      client.destroy();
    }
    expect([keyed.status, keyed.headers['Idempotent-Replayed'], other?.status]).toEqual([201, undefined, 201]);
    // the keyed create: its read; the other create (position, transaction); its transaction, cancelled on the
    // counter; then the position taken by UpdateItem and the transaction again
    expect(calls).toEqual(['BatchGetItemCommand', 'UpdateItemCommand', 'TransactWriteItemsCommand', 'TransactWriteItemsCommand', 'UpdateItemCommand', 'TransactWriteItemsCommand']);
    expect((await names(key)).sort()).toEqual(['Keyed', 'Other']);
    expect(await eventsOf(key)).toEqual([`client.created ${other!.body.id}`, `client.created ${keyed.body.id}`]);
    const again = await withFaultClient(undefined, () => api.post('/v1/clients', { name: 'Keyed' }, { key, headers: K('moved') }));
    expect([again.res.status, again.res.body, again.res.headers['Idempotent-Replayed'], again.calls]).toEqual([201, keyed.body, 'true', ['BatchGetItemCommand']]);
  });

  test('a refusal decided by the data is kept by one conditional write; a concurrent repeat of it answers the same', async () => {
    const { key } = await workspaceWithKey('idem-tx-refusal');
    const results = await Promise.all(Array.from({ length: 5 }, () => api.del('/v1/clients/01GONE', { key, headers: K('gone') })));
    expect(results.map((r) => r.status)).toEqual(Array(5).fill(404));
    expect(new Set(results.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(results.filter((r) => r.headers['Idempotent-Replayed'] === 'true').length).toBe(4);
  });
});
