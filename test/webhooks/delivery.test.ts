import { DeleteCommand, PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/data/db';
import { keys } from '../../shared/data/keys';
import { dispatch } from '../../shared/webhooks/delivery';
import { dispatchPosition } from '../../shared/webhooks/store';
import { localEnqueue, localQueueDepth } from '../../local/queue';
import { HIGH_LIMITS, workspaceWithKey } from '../resources/support';
import { apiClient, makeKey, newWorkspace, useTestTable } from '../support/harness';
import { type Receiver, until, useDeliveryRig } from './support';

/**
 * Webhook delivery end to end against DynamoDB Local and a real receiver on 127.0.0.1 that verifies
 * every request with the `standardwebhooks` library: every change arrives once; a receiver failing
 * (5xx, timeouts, refused connections) then recovering still gets every event, each retry with the same
 * webhook-id; a restart of the delivery loop with deliveries pending loses none; an endpoint whose events
 * keep exhausting their retries is disabled and re-enabling resumes; scopes, isolation, secrets.
 */
process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
process.env.WEBHOOK_RETRY_SCHEDULE = '0.05,0.1,0.1,0.2,0.2,0.3,0.3,0.3';
// Receivers answer within milliseconds, but a loaded machine (CI on 2 cores, files in parallel) can take
// over 300 ms: a POST timed out after its receiver got it is sent again, and the tests that count exactly one
// POST per event would see two. So 5 s by default; only the test of a hanging receiver shortens it.
const TIMEOUT_MS = '5000';
const HANG_TIMEOUT_MS = '300';
process.env.WEBHOOK_TIMEOUT_MS = TIMEOUT_MS;
process.env.WEBHOOK_DISABLE_AFTER = '2';

useTestTable();
const api = apiClient();
const rig = useDeliveryRig({ forgetWorkspaces: true });
const start = () => rig.start();
const receiver = () => rig.receiver();
/**
 * Tests whose receiver is down while the test acts get retries spread over ~20 s, so no event can exhaust
 * its retries while the test is still acting, however slow the machine.
 */
const PATIENT_SCHEDULE = '0.05,0.1,0.2,0.5,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1';
const SHORT_SCHEDULE = process.env.WEBHOOK_RETRY_SCHEDULE;
afterEach(() => {
  process.env.WEBHOOK_RETRY_SCHEDULE = SHORT_SCHEDULE;
  process.env.WEBHOOK_TIMEOUT_MS = TIMEOUT_MS;
});

async function hook(key: string, r: Receiver, events: string[] = ['*']) {
  const res = await api.post('/v1/webhooks', { url: r.url, events }, { key });
  expect(res.status).toBe(201);
  r.secrets.push(res.body.secret);
  return res.body as { id: string; secret: string };
}
const settled = () => until(async () => (await localQueueDepth()) === 0);
/** Makes every queued message due now (the local queue's sort key is its due time, then its id). */
async function dueNow(): Promise<void> {
  const queued =
    (
      await db().send(
        new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': keys.localQueuePartition }, ConsistentRead: true }),
      )
    ).Items ?? [];
  for (const item of queued) {
    const sk = `${String(Date.now()).padStart(15, '0')}#${String(item.SK).split('#')[1]}`;
    if (sk === item.SK) continue; // already due this millisecond (a put then delete of the same key would lose it)
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...item, SK: sk } }));
    await db().send(new DeleteCommand({ TableName: tableName(), Key: { PK: item.PK, SK: item.SK } }));
  }
}

/** One create, update and delete of every resource the API writes; returns the [type, id] expected. */
async function writeEverything(key: string): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  const made = async (path: string, body: unknown, type: string) => {
    const res = await api.post(path, body, { key });
    expect(res.status).toBe(201);
    out.push([`${type}.created`, res.body.id]);
    return res.body;
  };
  const client = await made('/v1/clients', { name: 'Acme' }, 'client');
  const project = await made('/v1/projects', { name: 'Site', clientId: client.id }, 'project');
  const task = await made('/v1/tasks', { name: 'Build', projectId: project.id }, 'task');
  const tag = await made('/v1/tags', { name: 'red' }, 'tag');
  const entry = await made('/v1/time-entries', { userId: 'u1', startTime: '2026-03-02T09:00:00Z', endTime: '2026-03-02T10:00:00Z', projectId: project.id }, 'time-entry');
  const fav = await made('/v1/favorites', { userId: 'u1', name: 'Quick', projectId: project.id }, 'favorite');
  const changed = async (path: string, body: unknown, type: string, id: string, query?: Record<string, string>) => {
    expect((await api.put(path, body, { key, ...(query ? { query } : {}) })).status).toBe(200);
    out.push([`${type}.updated`, id]);
  };
  await changed(`/v1/clients/${client.id}`, { notes: 'VIP' }, 'client', client.id);
  await changed(`/v1/projects/${project.id}`, { notes: 'x' }, 'project', project.id);
  await changed(`/v1/tasks/${task.id}`, { name: 'Build 2' }, 'task', task.id);
  await changed(`/v1/tags/${tag.id}`, { name: 'blue' }, 'tag', tag.id);
  await changed(`/v1/time-entries/${entry.id}`, { notes: 'n' }, 'time-entry', entry.id, { sortKey: entry.sortKey });
  await changed(`/v1/favorites/${fav.id}`, { name: 'Quicker' }, 'favorite', fav.id, { userId: 'u1' });
  const gone = async (path: string, type: string, id: string, query?: Record<string, string>) => {
    expect((await api.del(path, { key, ...(query ? { query } : {}) })).status).toBe(200);
    out.push([`${type}.deleted`, id]);
  };
  await gone(`/v1/time-entries/${entry.id}`, 'time-entry', entry.id, { sortKey: entry.sortKey });
  await gone(`/v1/favorites/${fav.id}`, 'favorite', fav.id, { userId: 'u1' });
  await gone(`/v1/tasks/${task.id}`, 'task', task.id);
  await gone(`/v1/tags/${tag.id}`, 'tag', tag.id);
  await gone(`/v1/projects/${project.id}`, 'project', project.id);
  await gone(`/v1/clients/${client.id}`, 'client', client.id);
  return out;
}

const typesAndIds = (r: Receiver) => r.events().map((e) => [e.event.type, e.event.resourceId]);

test('every create, update and delete of every resource arrives once, verified, with the event id as webhook-id', async () => {
  const { key } = await workspaceWithKey('wh');
  const r = await receiver();
  await hook(key, r);
  start();
  const expected = await writeEverything(key);
  await until(() => r.events().length >= expected.length);
  await settled();
  expect(r.unverified).toEqual([]);
  expect(r.requests).toHaveLength(expected.length); // once each: no duplicate
  expect(typesAndIds(r).sort()).toEqual(expected.sort());
  for (const req of r.requests) expect(req.id).toBe(req.event.id);
  // every delivered event carries its place in the feed: sorting on it gives the feed's order, whatever the arrival order
  const feed = await api.get('/v1/changes', { key, query: { limit: '200' } });
  const byPosition = [...r.events()].sort((a, b) => Number(a.event.position) - Number(b.event.position));
  const delivered = new Set(r.events().map((e) => e.event.id));
  const inFeed = (feed.body.items as Array<{ id: string; position: number }>).filter((e) => delivered.has(e.id));
  expect(inFeed).toHaveLength(expected.length);
  expect(byPosition.map((e) => [e.event.id, e.event.position])).toEqual(inFeed.map((e) => [e.id, e.position]));
  expect(r.events().every((e) => Number.isInteger(e.event.position) && Number(e.event.position) >= 1)).toBe(true);
});

test('a receiver failing for a while (5xx, timeouts, refused connections) then recovering gets every event; retries keep the webhook-id', async () => {
  const { key } = await workspaceWithKey('wh');
  const r = await receiver();
  const created = await hook(key, r);
  process.env.WEBHOOK_RETRY_SCHEDULE = PATIENT_SCHEDULE;
  process.env.WEBHOOK_TIMEOUT_MS = HANG_TIMEOUT_MS;
  // Each event: first a 503, then a hang (timeout); then the receiver goes away (refused) and comes back.
  r.behave = ({ attempt }) => (attempt === 1 ? 503 : attempt === 2 ? 'hang' : 200);
  start();
  for (const name of ['a', 'b', 'c']) expect((await api.post('/v1/clients', { name }, { key })).status).toBe(201);
  await until(() => r.events().length === 3 && r.events().every((e) => r.attemptsOf(e.id) >= 2));
  // the hanging attempts end by the sender's timeout (closing the receiver first would reset them)
  const attempts = async () => (await api.get(`/v1/webhooks/${created.id}/deliveries`, { key, query: { limit: '200' } })).body.items as Array<{ error?: string }>;
  await until(async () => (await attempts()).filter((a) => /^timeout/.test(a.error ?? '')).length >= 3);
  const port = r.port;
  await r.close();
  expect((await api.post('/v1/clients', { name: 'd' }, { key })).status).toBe(201); // sent while refused
  await until(async () => {
    const page = await api.get(`/v1/webhooks/${created.id}/deliveries`, { key, query: { limit: '200' } });
    return page.body.items.some((a: { error?: string }) => a.error === 'ECONNREFUSED');
  });
  await r.listen(port);
  await until(() => r.events().length === 4 && r.requests.filter((q) => q.event.resourceId && q.event.type === 'client.created').length >= 4);
  await settled();
  expect(r.unverified).toEqual([]);
  expect(
    r
      .events()
      .map((e) => e.event.data.name)
      .sort(),
  ).toEqual(['a', 'b', 'c', 'd']);
  for (const e of r.events().slice(0, 3)) expect(r.attemptsOf(e.id)).toBeGreaterThanOrEqual(3); // 503, timeout, then 200
  // The delivery log: newest first, with status codes, errors, attempt numbers and next retries.
  const log = (await api.get(`/v1/webhooks/${created.id}/deliveries`, { key, query: { limit: '200' } })).body.items as Array<Record<string, any>>;
  expect(log.map((a) => a.at)).toEqual([...log.map((a) => a.at)].sort().reverse());
  expect(log.some((a) => a.statusCode === 503 && a.attempt === 1 && typeof a.nextRetryAt === 'string')).toBe(true);
  expect(log.some((a) => /^timeout/.test(a.error ?? '') && a.attempt === 2)).toBe(true);
  expect(log.filter((a) => a.statusCode === 200)).toHaveLength(4);
  expect(log.filter((a) => a.statusCode === 200).every((a) => a.nextRetryAt === undefined)).toBe(true);
});

test('nothing is lost across a restart of the delivery loop while deliveries are pending', async () => {
  const { key } = await workspaceWithKey('wh');
  const r = await receiver();
  await hook(key, r);
  process.env.WEBHOOK_RETRY_SCHEDULE = PATIENT_SCHEDULE;
  r.behave = () => 500;
  start();
  const names = Array.from({ length: 8 }, (_, i) => `n${i}`);
  for (const name of names) expect((await api.post('/v1/clients', { name }, { key })).status).toBe(201);
  await until(() => r.events().length === names.length);
  await rig.loop!.stop(); // deliveries pending, retries queued
  expect(await localQueueDepth()).toBeGreaterThan(0);
  for (const name of ['late1', 'late2']) expect((await api.post('/v1/clients', { name }, { key })).status).toBe(201); // while stopped
  r.behave = () => 200;
  start();
  await until(() => r.events().length === names.length + 2);
  await settled();
  const delivered = new Set(r.requests.map((q) => q.id));
  expect(
    r
      .events()
      .map((e) => e.event.data.name)
      .sort(),
  ).toEqual([...names, 'late1', 'late2'].sort());
  expect(delivered.size).toBe(names.length + 2);
});

test('an endpoint whose events keep exhausting their retries is disabled with the reason; re-enabling resumes', async () => {
  const { key } = await workspaceWithKey('wh');
  const r = await receiver();
  const created = await hook(key, r);
  r.behave = () => 500;
  start();
  for (const name of ['x', 'y']) expect((await api.post('/v1/clients', { name }, { key })).status).toBe(201);
  await until(async () => (await api.get(`/v1/webhooks/${created.id}`, { key })).body.enabled === false);
  const disabled = (await api.get(`/v1/webhooks/${created.id}`, { key })).body;
  expect(disabled.disabledReason).toMatch(/2 events in a row exhausted their retries/);
  await settled();
  const attempts = r.requests.length;
  expect(attempts).toBe(2 * 9); // each event: 1 + 8 retries
  // While disabled, nothing is sent.
  expect((await api.post('/v1/clients', { name: 'while-off' }, { key })).status).toBe(201);
  r.behave = () => 200;
  const enabled = await api.put(`/v1/webhooks/${created.id}`, { enabled: true }, { key });
  expect(enabled.status).toBe(200);
  expect(enabled.body.enabled).toBe(true);
  expect(enabled.body.disabledReason).toBeUndefined();
  expect((await api.post('/v1/clients', { name: 'after' }, { key })).status).toBe(201);
  await until(() => r.events().some((e) => e.event.data.name === 'after'));
  await settled();
  expect(r.events().map((e) => e.event.data.name)).not.toContain('while-off');
});

test('scopes: an endpoint receives only events of resources its creating key could read', async () => {
  const ws = newWorkspace('wh');
  const all = await makeKey(ws, HIGH_LIMITS);
  const narrow = await makeKey(ws, { ...HIGH_LIMITS, scopes: ['clients:read', 'webhooks:write', 'webhooks:read'] });
  const r = await receiver();
  await hook(narrow, r, ['*']);
  const typed = await receiver();
  await hook(all, typed, ['project.*']);
  start();
  const client = (await api.post('/v1/clients', { name: 'c' }, { key: all })).body;
  const project = (await api.post('/v1/projects', { name: 'p', clientId: client.id }, { key: all })).body;
  expect((await api.post('/v1/tags', { name: 't' }, { key: all })).status).toBe(201);
  const end = (await api.post('/v1/clients', { name: 'end' }, { key: all })).body;
  await until(() => r.events().length === 2 && typed.events().length === 1);
  await settled();
  // events of different records may arrive in any order (parallel sending)
  expect(typesAndIds(r).sort()).toEqual(
    [
      ['client.created', client.id],
      ['client.created', end.id],
    ].sort(),
  );
  expect(typesAndIds(typed)).toEqual([['project.created', project.id]]);
});

test('workspaces are isolated: an endpoint gets its own workspace events only, and another workspace cannot see it', async () => {
  const a = await workspaceWithKey('wha');
  const b = await workspaceWithKey('whb');
  const ra = await receiver();
  const rb = await receiver();
  const hookA = await hook(a.key, ra);
  await hook(b.key, rb);
  start();
  expect((await api.post('/v1/clients', { name: 'in-a' }, { key: a.key })).status).toBe(201);
  expect((await api.post('/v1/clients', { name: 'in-b' }, { key: b.key })).status).toBe(201);
  await until(() => ra.events().length === 1 && rb.events().length === 1);
  await settled();
  expect(ra.events().map((e) => e.event.data.name)).toEqual(['in-a']);
  expect(rb.events().map((e) => e.event.data.name)).toEqual(['in-b']);
  for (const [method, path] of [
    ['GET', `/v1/webhooks/${hookA.id}`],
    ['PUT', `/v1/webhooks/${hookA.id}`],
    ['DELETE', `/v1/webhooks/${hookA.id}`],
    ['POST', `/v1/webhooks/${hookA.id}/rotate-secret`],
    ['POST', `/v1/webhooks/${hookA.id}/test`],
    ['GET', `/v1/webhooks/${hookA.id}/deliveries`],
  ] as const) {
    const res = await api.call(method, path, { key: b.key, ...(method === 'PUT' ? { body: { enabled: false } } : {}) });
    expect({ path, method, status: res.status, code: res.body.error.code }).toEqual({ path, method, status: 404, code: 'NOT_FOUND' });
  }
  expect((await api.get('/v1/webhooks', { key: b.key })).body.items).toHaveLength(1);
});

test('the secret is shown once, stored encrypted, and rotation signs with the new one (the old one too, for 24 hours)', async () => {
  const { key } = await workspaceWithKey('wh');
  const r = await receiver();
  const created = await hook(key, r);
  expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const got = await api.get(`/v1/webhooks/${created.id}`, { key });
  expect(got.body.secret).toBeUndefined();
  expect(JSON.stringify((await api.get('/v1/webhooks', { key })).body)).not.toContain('whsec_');
  const items = (await db().send(new ScanCommand({ TableName: tableName() }))).Items ?? [];
  expect(JSON.stringify(items)).not.toContain(created.secret.slice(6));

  const rotated = await api.post(`/v1/webhooks/${created.id}/rotate-secret`, undefined, { key });
  expect(rotated.status).toBe(200);
  expect(rotated.body.secret).toMatch(/^whsec_/);
  expect(rotated.body.secret).not.toBe(created.secret);
  expect(JSON.stringify((await api.get(`/v1/webhooks/${created.id}`, { key })).body)).not.toContain('whsec_');
  // A receiver that knows only the new secret verifies; one that knows only the old one too (transition).
  r.secrets = [rotated.body.secret];
  start();
  expect((await api.post('/v1/clients', { name: 'after-rotation' }, { key })).status).toBe(201);
  await until(() => r.events().length === 1);
  expect(r.unverified).toEqual([]);
  r.secrets = [created.secret];
  const ping = await api.post(`/v1/webhooks/${created.id}/test`, undefined, { key });
  expect(ping.status).toBe(200);
  await until(() => r.events().length === 2);
  expect(r.events()[1]!.event.type).toBe('webhook.ping');
  expect(r.events()[1]!.id).toBe(ping.body.id);
  expect(r.unverified).toEqual([]);
  await settled();
  // A receiver that knows neither secret refuses every delivery (the check above can fail).
  r.secrets = ['whsec_' + Buffer.alloc(32, 7).toString('base64')];
  expect((await api.post(`/v1/webhooks/${created.id}/test`, undefined, { key })).status).toBe(200);
  await until(() => r.unverified.length === 1);
  await settled();
});

test('Idempotency-Key is refused where the answer carries the secret', async () => {
  const { key } = await workspaceWithKey('wh');
  const r = await receiver();
  const res = await api.post('/v1/webhooks', { url: r.url, events: ['*'] }, { key, headers: { 'Idempotency-Key': 'k1' } });
  expect(res.status).toBe(400);
  expect(res.body.error.message).toMatch(/secret/);
  expect((await api.get('/v1/webhooks', { key })).body.items).toHaveLength(0);
});

test('the test ping with an Idempotency-Key: concurrent and later repeats get the one event id, and one ping is sent', async () => {
  const { key } = await workspaceWithKey('wh');
  const r = await receiver();
  const created = await hook(key, r);
  const depth = await localQueueDepth();
  const pings = await Promise.all(Array.from({ length: 5 }, () => api.post(`/v1/webhooks/${created.id}/test`, undefined, { key, headers: { 'Idempotency-Key': 'ping-1' } })));
  expect(pings.map((p) => p.status)).toEqual([200, 200, 200, 200, 200]);
  expect(new Set(pings.map((p) => p.body.id)).size).toBe(1);
  expect(pings.filter((p) => p.headers['Idempotent-Replayed'] === 'true')).toHaveLength(4);
  expect(await localQueueDepth()).toBe(depth + 1);
  const later = await api.post(`/v1/webhooks/${created.id}/test`, undefined, { key, headers: { 'Idempotency-Key': 'ping-1' } });
  expect([later.body.id, later.headers['Idempotent-Replayed']]).toEqual([pings[0]!.body.id, 'true']);
  start();
  await until(() => r.events().length === 1);
  await settled();
  expect(r.events().map((e) => e.id)).toEqual([pings[0]!.body.id]);
});

test('a dispatcher that dies after writing deliveries, before queueing them and moving its position, loses nothing and sends nothing twice', async () => {
  const { ws, key } = await workspaceWithKey('wh');
  const r = await receiver();
  await hook(key, r);
  for (const name of ['p', 'q', 'r']) expect((await api.post('/v1/clients', { name }, { key })).status).toBe(201);
  const crashing = {
    send: () => Promise.reject(new Error('crash')),
  };
  await expect(dispatch(ws, crashing)).rejects.toThrow('crash');
  expect(await dispatchPosition(ws)).toBe(0);
  start();
  await until(() => r.events().length === 3);
  await settled();
  expect(r.requests).toHaveLength(3);
  expect(await dispatchPosition(ws)).toBe(3);
});

test('one delivery queued several times (dispatchers running at once) is POSTed once: the attempt is claimed', async () => {
  const { ws, key } = await workspaceWithKey('wh');
  const r = await receiver();
  const created = await hook(key, r);
  expect((await api.post('/v1/clients', { name: 'once' }, { key })).status).toBe(201);
  const queue = { send: (m: Parameters<typeof localEnqueue>[0]) => localEnqueue(m) };
  await Promise.all([dispatch(ws, queue), dispatch(ws, queue), dispatch(ws, queue)]);
  const [event] = r.events();
  expect(event).toBeUndefined(); // nothing sent yet: only queued
  const queued = await localQueueDepth();
  expect(queued).toBeGreaterThanOrEqual(1);
  // and the same message twice more, as a redelivery would
  const id = (await api.get(`/v1/changes`, { key })).body.items[0].id as string;
  await localEnqueue([0, 1].map(() => ({ body: { kind: 'deliver', workspaceId: ws, webhookId: created.id, eventId: id }, delaySeconds: 0 })));
  start();
  await until(() => r.events().length === 1);
  // The copies that lost the claim were queued again for when it ends (the sender's timeout + 20 s): they are
  // made due now, as a redelivery would be, once the attempt is recorded; then each finds the delivery done.
  await until(async () => (await api.get(`/v1/webhooks/${created.id}/deliveries`, { key })).body.items.length === 1);
  await rig.loop!.stop();
  await dueNow();
  start();
  await settled();
  expect(r.requests).toHaveLength(1);
});
