import '../hygiene/debug-logs';
import { createApiKey, revokeApiKey } from '../../shared/data/apikey-store';
import { apiClient, newWorkspace, useTestTable } from '../support/harness';
import { until, useDeliveryRig } from '../webhooks/support';
import { localQueueDepth } from '../../local/queue';
import { consoleClient, person, startOidc, type Oidc } from './support';

/**
 * Issue 36 item 5: the console's Webhooks routes against DynamoDB Local, signed in for real, with a real
 * receiver: viewers read, owners and admins disable, enable and delete; another workspace's webhooks are 404;
 * each shows the key that made it (name, prefix), its last delivery and its attempts, and why it was disabled.
 */
process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
process.env.WEBHOOK_RETRY_SCHEDULE = '0.05';
process.env.API_KEY_CACHE_SECONDS = '1';
useTestTable();
jest.setTimeout(120_000);
let oidc: Oidc;
const api = consoleClient();
const v1 = apiClient();
const rig = useDeliveryRig();
const WS = newWorkspace('hooks');
const OTHER = newWorkspace('hooks-other');
const base = `/console/api/workspaces/${WS}/webhooks`;
type P = { token: string; email: string };
const people: Record<'owner' | 'admin' | 'viewer', P> = {} as never;
let otherOwner: P;

beforeAll(async () => {
  oidc = await startOidc();
  people.owner = await person(oidc.issuer, WS, 'owner', 'owner');
  people.admin = await person(oidc.issuer, WS, 'admin', 'admin');
  people.viewer = await person(oidc.issuer, WS, 'viewer', 'viewer');
  otherOwner = await person(oidc.issuer, OTHER, 'owner', 'other');
});
afterAll(async () => {
  await oidc.stop();
});

const keyFor = (ws: string, name: string) =>
  createApiKey({ workspaceId: ws, name, scopes: ['clients:read', 'clients:write', 'webhooks:read', 'webhooks:write'], perMinute: 1000, perHour: 10000 });

test('the list shows each webhook with its key (name, prefix), its last delivery and its attempts; viewers read', async () => {
  const { key, record } = await keyFor(WS, 'billing sync');
  const r = await rig.receiver();
  const made = await v1.post('/v1/webhooks', { url: r.url, events: ['client.*'], description: 'to billing' }, { key });
  expect(made.status).toBe(201);
  r.secrets.push(made.body.secret);
  const list = await api.call('GET', base, { token: people.viewer.token });
  expect(list.status).toBe(200);
  const shown = list.body.items.find((w: { id: string }) => w.id === made.body.id);
  expect(shown).toEqual({
    id: made.body.id,
    url: r.url,
    events: ['client.*'],
    description: 'to billing',
    enabled: true,
    disabledReason: null,
    createdAt: made.body.createdAt,
    key: { id: record.id, name: 'billing sync', prefix: record.prefix, status: 'active' },
    lastDelivery: null,
  });
  rig.start();
  const client = await v1.post('/v1/clients', { name: 'Delivered' }, { key });
  await until(() => r.events().length === 1);
  await until(async () => (await localQueueDepth()) === 0);
  const one = await api.call('GET', `${base}/${made.body.id}`, { token: people.viewer.token });
  expect(one.body.lastDelivery).toEqual({ at: expect.any(String), type: 'client.created', statusCode: 204, error: null });
  const attempts = await api.call('GET', `${base}/${made.body.id}/deliveries`, { token: people.viewer.token, query: { limit: '5' } });
  expect(attempts.status).toBe(200);
  expect(attempts.body.items.map((a: { eventId: string; type: string; attempt: number }) => [a.type, a.attempt])).toEqual([['client.created', 1]]);
  expect(attempts.body).toMatchObject({ hasMore: false, nextCursor: null });
  expect(r.events()[0]!.event.resourceId).toBe(client.body.id);
  expect((await api.call('GET', `${base}/${made.body.id}/deliveries`, { token: people.viewer.token, query: { limit: '0' } })).status).toBe(400);
});

test('viewers cannot disable or delete (403 ROLE); admins and owners can; enabling again resumes', async () => {
  const { key } = await keyFor(WS, 'writer');
  const made = await v1.post('/v1/webhooks', { url: 'http://127.0.0.1:9/none', events: ['client.*'] }, { key });
  const path = `${base}/${made.body.id}`;
  const refused = await api.call('PATCH', path, { token: people.viewer.token, body: { enabled: false } });
  expect([refused.status, refused.body.error.details]).toEqual([403, [{ reason: 'ROLE', required: 'admin' }]]);
  expect((await api.call('DELETE', path, { token: people.viewer.token })).status).toBe(403);
  const off = await api.call('PATCH', path, { token: people.admin.token, body: { enabled: false } });
  expect([off.status, off.body.enabled]).toEqual([200, false]);
  expect((await v1.get(`/v1/webhooks/${made.body.id}`, { key })).body.enabled).toBe(false);
  const on = await api.call('PATCH', path, { token: people.owner.token, body: { enabled: true } });
  expect([on.status, on.body.enabled]).toEqual([200, true]);
  expect((await api.call('PATCH', path, { token: people.owner.token, body: { enabled: 'yes' } })).status).toBe(400);
  const audit = await api.call('GET', `/console/api/workspaces/${WS}/audit-log`, { token: people.admin.token, query: { limit: '20' } });
  const actions = audit.body.items.filter((e: { target: { id: string } }) => e.target.id === made.body.id).map((e: { action: string; actor: string }) => [e.action, e.actor]);
  expect(actions).toEqual([
    ['webhook.enabled', people.owner.email],
    ['webhook.disabled', people.admin.email],
  ]);
  const gone = await api.call('DELETE', path, { token: people.admin.token });
  expect([gone.status, gone.body.id]).toEqual([200, made.body.id]);
  expect((await api.call('GET', path, { token: people.viewer.token })).status).toBe(404);
  expect((await v1.get(`/v1/webhooks/${made.body.id}`, { key })).status).toBe(404);
});

test("another workspace's webhooks are 404 and change nothing", async () => {
  const { key } = await keyFor(OTHER, 'theirs');
  const theirs = await v1.post('/v1/webhooks', { url: 'http://127.0.0.1:9/theirs', events: ['client.*'] }, { key });
  for (const [method, suffix, body] of [
    ['GET', '', undefined],
    ['PATCH', '', { enabled: false }],
    ['DELETE', '', undefined],
    ['GET', '/deliveries', undefined],
  ] as const) {
    const r = await api.call(method, `${base}/${theirs.body.id}${suffix}`, { token: people.owner.token, body });
    expect([method, suffix, r.status]).toEqual([method, suffix, 404]);
  }
  expect((await api.call('GET', `/console/api/workspaces/${OTHER}/webhooks`, { token: people.owner.token })).status).toBe(404);
  expect((await api.call('GET', `/console/api/workspaces/${OTHER}/webhooks`, { token: otherOwner.token })).body.items).toHaveLength(1);
  expect((await v1.get(`/v1/webhooks/${theirs.body.id}`, { key })).body.enabled).toBe(true);
});

test('a webhook whose key was revoked shows why it stopped, and cannot be enabled from the console (409)', async () => {
  const { key, record } = await keyFor(WS, 'leaked');
  const r = await rig.receiver();
  const made = await v1.post('/v1/webhooks', { url: r.url, events: ['client.*'] }, { key });
  await revokeApiKey(record.id);
  await new Promise((res) => setTimeout(res, 1100));
  const writer = (await keyFor(WS, 'writer 2')).key;
  rig.start();
  await v1.post('/v1/clients', { name: 'not sent' }, { key: writer });
  await until(async () => (await api.call('GET', `${base}/${made.body.id}`, { token: people.viewer.token })).body.enabled === false);
  const shown = await api.call('GET', `${base}/${made.body.id}`, { token: people.viewer.token });
  expect(shown.body.key).toEqual({ id: record.id, name: 'leaked', prefix: record.prefix, status: 'revoked' });
  expect(shown.body.disabledReason).toContain(`(${record.prefix}, "leaked") is revoked`);
  const again = await api.call('PATCH', `${base}/${made.body.id}`, { token: people.owner.token, body: { enabled: true } });
  expect([again.status, again.body.error.message]).toEqual([409, expect.stringContaining('is revoked')]);
  expect(r.requests).toEqual([]);
});
