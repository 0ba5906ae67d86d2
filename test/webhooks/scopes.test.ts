import { createApiKey, revokeApiKey, rollApiKey, updateApiKey } from '../../shared/data/apikey-store';
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
// the webhook's key is re-read after this long (the authorizer cache time; 300 s by default)
process.env.API_KEY_CACHE_SECONDS = '1';
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

test('a key narrowed to webhooks:* makes its webhook deliver nothing it can no longer read; widening never adds more than it was made for', async () => {
  const ws = newWorkspace('narrowed');
  const { key: makerKey, record } = await createApiKey({ workspaceId: ws, name: 'creator', scopes: ['clients:read', 'tags:read', ...HOOK_ONLY], ...HIGH_LIMITS });
  const writer = await makeKey(ws, HIGH_LIMITS);
  const r = await receiver();
  const hook = await api.post('/v1/webhooks', { url: r.url, events: ['*'] }, { key: makerKey });
  expect(hook.status).toBe(201);
  r.secrets.push(hook.body.secret);
  rig.start();
  const first = await api.post('/v1/clients', { name: 'before narrowing' }, { key: writer });
  await until(() => r.events().length === 1);
  expect(r.events()[0]!.event.resourceId).toBe(first.body.id);
  // narrowed to webhooks:* (the console's PATCH): within the authorizer cache time (1 s here) it receives no client event
  await updateApiKey(record.id, { scopes: HOOK_ONLY });
  await new Promise((res) => setTimeout(res, 1100));
  const client = await api.post('/v1/clients', { name: 'after narrowing' }, { key: writer });
  const tag = await api.post('/v1/tags', { name: 'after narrowing' }, { key: writer });
  await api.post('/v1/webhooks/' + hook.body.id + '/test', undefined, { key: writer });
  await until(() => r.events().some((e) => e.event.type === 'webhook.ping'));
  await settled();
  expect(r.events().map((e) => e.event.resourceId)).not.toContain(client.body.id);
  expect(r.events().map((e) => e.event.resourceId)).not.toContain(tag.body.id);
  expect(r.events().filter((e) => e.event.type !== 'webhook.ping')).toHaveLength(1);
  // given tags:read back (and projects:read, which it never had when it made the webhook): tags only
  await updateApiKey(record.id, { scopes: ['tags:read', 'projects:read', ...HOOK_ONLY] });
  await new Promise((res) => setTimeout(res, 1100));
  const tag2 = await api.post('/v1/tags', { name: 'readable again' }, { key: writer });
  await api.post('/v1/projects', { name: 'never readable' }, { key: writer });
  await api.post('/v1/clients', { name: 'still not' }, { key: writer });
  await until(() => r.events().some((e) => e.event.resourceId === tag2.body.id));
  await settled();
  expect(
    r
      .events()
      .filter((e) => e.event.type !== 'webhook.ping')
      .map((e) => e.event.type)
      .sort(),
  ).toEqual(['client.created', 'tag.created']);
  expect(r.unverified).toEqual([]);
});

test('a webhook whose key is revoked or expired stops delivering and says why (disabledReason); re-enabled by a key that may read it, it follows that key', async () => {
  const ws = newWorkspace('revoked');
  const { key: creator, record } = await createApiKey({ workspaceId: ws, name: 'creator', scopes: ['clients:read', 'tags:read', ...HOOK_ONLY], ...HIGH_LIMITS });
  const writer = await makeKey(ws, HIGH_LIMITS);
  const narrower = await makeKey(ws, { ...HIGH_LIMITS, scopes: ['tags:read', ...HOOK_ONLY] });
  const r = await receiver();
  const hook = await api.post('/v1/webhooks', { url: r.url, events: ['*'] }, { key: creator });
  expect(hook.status).toBe(201);
  r.secrets.push(hook.body.secret);
  await revokeApiKey(record.id);
  await new Promise((res) => setTimeout(res, 1100));
  expect(missing(await api.put(`/v1/webhooks/${hook.body.id}`, { url: r.url }, { key: narrower }))).toEqual(
    expect.objectContaining({ status: 403, details: [{ reason: 'MISSING_SCOPE', scope: 'clients:read' }] }),
  );
  rig.start();
  await api.post('/v1/clients', { name: 'c' }, { key: writer });
  await api.post('/v1/tags', { name: 't' }, { key: writer });
  await until(async () => (await api.get(`/v1/webhooks/${hook.body.id}`, { key: writer })).body.enabled === false);
  await settled();
  expect(r.requests).toEqual([]);
  const shown = await api.get(`/v1/webhooks/${hook.body.id}`, { key: writer });
  expect(shown.body.disabledReason).toMatch(new RegExp(`^Disabled on .*: the API key that made it \\(${record.prefix}, "creator"\\) is revoked`));
  // the writer holds every read scope: re-enabling makes it the webhook's key, and events flow from then on
  expect((await api.put(`/v1/webhooks/${hook.body.id}`, { enabled: true }, { key: writer })).status).toBe(200);
  const after = await api.post('/v1/clients', { name: 'after' }, { key: writer });
  await until(() => r.events().length === 1);
  await settled();
  expect(r.events().map((e) => e.event.resourceId)).toEqual([after.body.id]);
  // an expired key stops its webhook the same way
  const shortLived = await createApiKey({
    workspaceId: ws,
    name: 'short',
    scopes: ['clients:read', ...HOOK_ONLY],
    ...HIGH_LIMITS,
    expiresAt: new Date(Date.now() + 1500).toISOString(),
  });
  const r2 = await receiver();
  const hook2 = await api.post('/v1/webhooks', { url: r2.url, events: ['client.*'] }, { key: shortLived.key });
  expect(hook2.status).toBe(201);
  await new Promise((res) => setTimeout(res, 2000));
  await api.post('/v1/clients', { name: 'late' }, { key: writer });
  await until(async () => (await api.get(`/v1/webhooks/${hook2.body.id}`, { key: writer })).body.enabled === false);
  expect((await api.get(`/v1/webhooks/${hook2.body.id}`, { key: writer })).body.disabledReason).toContain('is expired');
  await settled();
  expect(r2.requests).toEqual([]);
  // deleting it sends nothing: webhooks:write is enough
  expect((await api.del(`/v1/webhooks/${hook.body.id}`, { key: narrower })).status).toBe(200);
});

test('a roll does not stop a webhook: past the old key\u2019s grace it follows the successor', async () => {
  const ws = newWorkspace('rolled');
  const { key, record } = await createApiKey({ workspaceId: ws, name: 'rolled', scopes: ['clients:read', ...HOOK_ONLY], ...HIGH_LIMITS });
  const writer = await makeKey(ws, HIGH_LIMITS);
  const r = await receiver();
  const hook = await api.post('/v1/webhooks', { url: r.url, events: ['client.*'] }, { key });
  r.secrets.push(hook.body.secret);
  await rollApiKey(record.id, 0, 'test'); // the old key's grace ends at once
  rig.start();
  const client = await api.post('/v1/clients', { name: 'after the roll' }, { key: writer });
  await until(() => r.events().length === 1);
  await settled();
  expect(r.events().map((e) => e.event.resourceId)).toEqual([client.body.id]);
  expect((await api.get(`/v1/webhooks/${hook.body.id}`, { key: writer })).body.enabled).toBe(true);
});
