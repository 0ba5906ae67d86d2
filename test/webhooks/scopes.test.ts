import { createApiKey, revokeApiKey } from '../../shared/data/apikey-store';
import { localQueueDepth } from '../../local/queue';
import type { Scope } from '../../shared/api/routes';
import { err, HIGH_LIMITS } from '../resources/support';
import { apiClient, makeKey, newWorkspace, useTestTable } from '../support/harness';
import { until, useDeliveryRig } from './support';

/**
 * Issue 22 item 1 (docs/webhooks.md, "Who may change a webhook"): a key holding webhooks:write but not
 * the read scopes of the events a webhook delivers can neither redirect it (url), re-sign it (rotate the
 * secret), change which events it sends (events, enabled) nor read those events in its delivery log.
 * End to end: an attacker's receiver verifying with `standardwebhooks` under the secret the attacker could
 * get must receive nothing; the owner's receiver keeps getting every event.
 */
process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
process.env.WEBHOOK_RETRY_SCHEDULE = '0.05,0.05';
process.env.WEBHOOK_TIMEOUT_MS = '1000';
useTestTable();
const api = apiClient();
const rig = useDeliveryRig();
const receiver = () => rig.receiver();
const settled = () => until(async () => (await localQueueDepth()) === 0);
const HOOK_ONLY: Scope[] = ['webhooks:read', 'webhooks:write'];
const missing = (res: { status: number; body: any }) => ({ ...err(res), details: res.body?.error?.details });

test('a key without the read scopes cannot steer, re-sign, widen or read another key\u2019s webhook; the owner\u2019s receiver gets every event', async () => {
  const ws = newWorkspace('steer');
  const owner = await makeKey(ws, HIGH_LIMITS);
  const attacker = await makeKey(ws, { ...HIGH_LIMITS, scopes: HOOK_ONLY });
  const good = await receiver();
  const evil = await receiver();
  const created = await api.post('/v1/webhooks', { url: good.url, events: ['client.*'] }, { key: owner });
  expect(created.status).toBe(201);
  good.secrets.push(created.body.secret);
  const id = created.body.id as string;
  expect((await api.get('/v1/clients', { key: attacker })).status).toBe(403);

  // every way of changing where events go, what they are signed with or which are sent: 403 naming clients:read
  for (const body of [{ url: evil.url }, { events: ['*'] }, { enabled: false }, { url: evil.url, description: 'mine' }]) {
    const res = await api.put(`/v1/webhooks/${id}`, body, { key: attacker });
    expect({ body, ...missing(res) }).toEqual({
      body,
      status: 403,
      code: 'FORBIDDEN',
      message: expect.stringContaining('clients:read'),
      details: [{ reason: 'MISSING_SCOPE', scope: 'clients:read' }],
    });
  }
  const rotate = await api.post(`/v1/webhooks/${id}/rotate-secret`, undefined, { key: attacker });
  expect(missing(rotate)).toEqual(expect.objectContaining({ status: 403, details: [{ reason: 'MISSING_SCOPE', scope: 'clients:read' }] }));
  expect(rotate.body.secret).toBeUndefined();
  // a description changes none of that: allowed
  expect((await api.put(`/v1/webhooks/${id}`, { description: 'labelled' }, { key: attacker })).status).toBe(200);
  const now = await api.get(`/v1/webhooks/${id}`, { key: owner });
  expect(now.body).toEqual(expect.objectContaining({ url: good.url, events: ['client.*'], enabled: true, description: 'labelled' }));

  rig.start();
  const client = await api.post('/v1/clients', { name: 'Secret Corp', notes: 'not for the attacker' }, { key: owner });
  expect(client.status).toBe(201);
  await until(() => good.events().length === 1);
  await settled();
  expect(good.events().map((r) => [r.event.type, r.event.resourceId])).toEqual([['client.created', client.body.id]]);
  expect(good.unverified).toEqual([]);
  expect(evil.requests).toEqual([]);
  expect(evil.unverified).toEqual([]);

  // the delivery log shows the attacker no event it could not read; the owner sees it
  const ownerLog = await api.get(`/v1/webhooks/${id}/deliveries`, { key: owner });
  expect(ownerLog.body.items.map((a: { type: string }) => a.type)).toEqual(['client.created']);
  const attackerLog = await api.get(`/v1/webhooks/${id}/deliveries`, { key: attacker });
  expect(attackerLog.status).toBe(200);
  expect(attackerLog.body.items).toEqual([]);
  // pings carry no record data: the attacker may test the endpoint and see its ping in the log
  expect((await api.post(`/v1/webhooks/${id}/test`, undefined, { key: attacker })).status).toBe(200);
  await until(() => good.events().length === 2);
  await settled();
  expect((await api.get(`/v1/webhooks/${id}/deliveries`, { key: attacker })).body.items.map((a: { type: string }) => a.type)).toEqual(['webhook.ping']);
  expect(evil.requests).toEqual([]);
});

test('a key holding every read scope the webhook delivers may steer it; one that holds only some may not widen it', async () => {
  const ws = newWorkspace('steer');
  const owner = await makeKey(ws, HIGH_LIMITS);
  const tagsOnly = await makeKey(ws, { ...HIGH_LIMITS, scopes: [...HOOK_ONLY, 'tags:read'] });
  const r = await receiver();
  const moved = await receiver();
  const hook = await api.post('/v1/webhooks', { url: r.url, events: ['tag.*'] }, { key: owner });
  const id = hook.body.id as string;
  // the webhook delivers tag events only: tags:read is every scope they need
  const ok = await api.put(`/v1/webhooks/${id}`, { url: moved.url }, { key: tagsOnly });
  expect([ok.status, ok.body.url]).toEqual([200, moved.url]);
  const rotated = await api.post(`/v1/webhooks/${id}/rotate-secret`, undefined, { key: tagsOnly });
  expect(rotated.status).toBe(200);
  moved.secrets.push(rotated.body.secret);
  // asking for more than it can read (the webhook was made by a key that reads clients): 403
  const widen = await api.put(`/v1/webhooks/${id}`, { events: ['tag.*', 'client.*'] }, { key: tagsOnly });
  expect(missing(widen)).toEqual(expect.objectContaining({ status: 403, details: [{ reason: 'MISSING_SCOPE', scope: 'clients:read' }] }));
  expect((await api.get(`/v1/webhooks/${id}`, { key: owner })).body.events).toEqual(['tag.*']);

  rig.start();
  const tag = await api.post('/v1/tags', { name: 't' }, { key: owner });
  await api.post('/v1/clients', { name: 'c' }, { key: owner });
  await until(() => moved.events().length === 1);
  await settled();
  expect(moved.events().map((e) => [e.event.type, e.event.resourceId])).toEqual([['tag.created', tag.body.id]]);
  expect(moved.unverified).toEqual([]);
  expect(r.requests).toEqual([]);
});

test('after its creating key is revoked a webhook keeps delivering what it was created for; no narrower key can take it over', async () => {
  const ws = newWorkspace('revoked');
  const { key: creator, record } = await createApiKey({ workspaceId: ws, name: 'creator', scopes: ['clients:read', 'tags:read', ...HOOK_ONLY], ...HIGH_LIMITS });
  const writer = await makeKey(ws, HIGH_LIMITS);
  const narrower = await makeKey(ws, { ...HIGH_LIMITS, scopes: ['tags:read', ...HOOK_ONLY] });
  const r = await receiver();
  const hook = await api.post('/v1/webhooks', { url: r.url, events: ['*'] }, { key: creator });
  expect(hook.status).toBe(201);
  r.secrets.push(hook.body.secret);
  await revokeApiKey(record.id);
  expect(missing(await api.put(`/v1/webhooks/${hook.body.id}`, { url: r.url }, { key: narrower }))).toEqual(
    expect.objectContaining({ status: 403, details: [{ reason: 'MISSING_SCOPE', scope: 'clients:read' }] }),
  );
  rig.start();
  const client = await api.post('/v1/clients', { name: 'c' }, { key: writer });
  const tag = await api.post('/v1/tags', { name: 't' }, { key: writer });
  await api.post('/v1/projects', { name: 'p' }, { key: writer });
  await until(() => r.events().length === 2);
  await settled();
  // the resources the creating key could read when it made the webhook: clients and tags, not projects
  // deliveries are concurrent: any two may arrive in either order (docs/webhooks.md)
  expect(
    r
      .events()
      .map((e) => [e.event.type, e.event.resourceId])
      .sort(),
  ).toEqual([
    ['client.created', client.body.id],
    ['tag.created', tag.body.id],
  ]);
  // deleting it sends nothing: webhooks:write is enough
  expect((await api.del(`/v1/webhooks/${hook.body.id}`, { key: narrower })).status).toBe(200);
});
