import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setWebhookResolver } from '../../shared/webhooks/delivery';
import { localQueueDepth } from '../../local/queue';
import { refusedAddress } from '../../shared/domain/webhooks';
import { err, fields, workspaceWithKey } from '../resources/support';
import { apiClient, tableSnapshot, useTestTable } from '../support/harness';
import { until, useDeliveryRig } from './support';

/**
 * Where webhooks may point (docs/webhooks.md, "Security"): https only and no loopback in AWS; private,
 * link-local, unique-local and metadata addresses refused everywhere, at create and again at each
 * delivery after DNS; no redirect followed; the answer read only up to a cap. Plus every refusal of the
 * webhook routes (a client mistake is a 4xx, never a 500).
 */
process.env.WEBHOOK_RETRY_SCHEDULE = '0.05,0.05';
process.env.WEBHOOK_TIMEOUT_MS = '2000';
useTestTable();
const api = apiClient();
const rig = useDeliveryRig();
afterEach(() => {
  process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
  setWebhookResolver();
});
const start = () => rig.start();
const settled = () => until(async () => (await localQueueDepth()) === 0);
const receiver = () => rig.receiver();
const create = (key: string, url: string, events: unknown = ['*']) => api.post('/v1/webhooks', { url, events }, { key });

describe('refused at create', () => {
  test.each([
    ['http://169.254.169.254/latest/meta-data/', /private, link-local, metadata/],
    ['http://10.0.0.1/', /private/],
    ['http://192.168.1.20:8080/hook', /private/],
    ['http://172.16.0.1/', /private/],
    ['http://[fd00:ec2::254]/', /private/],
    ['http://[fe80::1]/', /link-local/],
    ['http://[::ffff:10.0.0.1]/', /private/],
    ['http://0.0.0.0/', /reserved/],
  ])('everywhere (a local run too): %s', async (url, why) => {
    const { key } = await workspaceWithKey('sec');
    const before = await tableSnapshot();
    const res = await create(key, url);
    expect(err(res)).toEqual({ status: 400, code: 'VALIDATION_ERROR', message: expect.stringMatching(why) });
    expect(fields(res)).toEqual(['url']);
    expect(await tableSnapshot()).toEqual(before);
  });

  test.each([
    ['http://[::1]/', /https/],
    ['https://[::1]/', /loopback/],
    ['https://127.0.0.1/', /loopback/],
    ['https://localhost/', /loopback/],
    ['http://example.com/', /https/],
  ])('in AWS stages (WEBHOOK_ALLOW_LOOPBACK off): %s', async (url, why) => {
    process.env.WEBHOOK_ALLOW_LOOPBACK = 'false';
    const { key } = await workspaceWithKey('sec');
    const res = await create(key, url);
    expect(err(res)).toEqual({ status: 400, code: 'VALIDATION_ERROR', message: expect.stringMatching(why) });
  });

  test('never loopback inside Lambda, whatever WEBHOOK_ALLOW_LOOPBACK says', async () => {
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'Fn-webhooks';
    try {
      const { key } = await workspaceWithKey('sec');
      expect(err(await create(key, 'https://127.0.0.1/'))).toEqual({ status: 400, code: 'VALIDATION_ERROR', message: expect.stringMatching(/loopback/) });
    } finally {
      delete process.env.AWS_LAMBDA_FUNCTION_NAME;
    }
  });

  test('a hostname that resolves to a private address', async () => {
    process.env.WEBHOOK_ALLOW_LOOPBACK = 'false';
    setWebhookResolver(async (host) => (host === 'inside.example.com' ? [{ address: '10.1.2.3', family: 4 }] : [{ address: '93.184.215.14', family: 4 }]));
    const { key } = await workspaceWithKey('sec');
    expect(err(await create(key, 'https://inside.example.com/hook'))).toEqual({ status: 400, code: 'VALIDATION_ERROR', message: expect.stringMatching(/10\.1\.2\.3/) });
    // one private address among public ones is enough to refuse
    setWebhookResolver(async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '169.254.169.254', family: 4 },
    ]);
    expect((await create(key, 'https://mixed.example.com/hook')).status).toBe(400);
    expect((await create(key, 'https://unknown.invalid/hook')).status).toBe(400);
  });

  test('an unresolvable host, a bad URL, credentials in it, unknown event types, bad bodies: 400 naming the field', async () => {
    setWebhookResolver(async () => {
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    });
    const { key } = await workspaceWithKey('sec');
    expect(err(await create(key, 'https://nowhere.example/hook')).message).toMatch(/does not resolve/);
    for (const [body, field] of [
      [{ url: 'not a url', events: ['*'] }, 'url'],
      [{ url: 'ftp://127.0.0.1/x', events: ['*'] }, 'url'],
      [{ url: 'http://user:pw@127.0.0.1/x', events: ['*'] }, 'url'],
      [{ url: 'http://127.0.0.1/x', events: ['client.exploded'] }, 'events'],
      [{ url: 'http://127.0.0.1/x', events: ['webhook.*'] }, 'events'],
      [{ url: 'http://127.0.0.1/x', events: [] }, 'events'],
      [{ url: 'http://127.0.0.1/x' }, 'events'],
      [{ url: 'http://127.0.0.1/x', events: ['*'], secret: 'whsec_mine' }, 'secret'],
    ] as const) {
      const res = await api.post('/v1/webhooks', body, { key });
      expect({ body, status: res.status, fields: fields(res) }).toEqual({ body, status: 400, fields: [field] });
    }
  });
});

describe('at delivery', () => {
  test('a DNS change after create that points inside is refused at delivery (no connection), and the attempt says why', async () => {
    process.env.WEBHOOK_ALLOW_LOOPBACK = 'false';
    let target = '93.184.215.14';
    setWebhookResolver(async () => [{ address: target, family: 4 }]);
    const { key } = await workspaceWithKey('sec');
    const hook = await create(key, 'https://rebinding.example.com/hook');
    expect(hook.status).toBe(201);
    target = '169.254.169.254';
    start();
    expect((await api.post('/v1/clients', { name: 'c' }, { key })).status).toBe(201);
    await until(async () => (await api.get(`/v1/webhooks/${hook.body.id}/deliveries`, { key })).body.items.length === 3);
    await settled();
    const log = (await api.get(`/v1/webhooks/${hook.body.id}/deliveries`, { key })).body.items as Array<{ error?: string; statusCode?: number }>;
    expect(log.every((a) => a.statusCode === undefined && /^refused: .*169\.254\.169\.254/.test(a.error ?? ''))).toBe(true);
  });

  test('a DNS lookup that never answers is bounded by the same timeout as the POST: the attempt ends with "timeout ... (DNS lookup)" in about WEBHOOK_TIMEOUT_MS', async () => {
    process.env.WEBHOOK_ALLOW_LOOPBACK = 'false';
    let hang = false;
    setWebhookResolver(async () => (hang ? new Promise<never>(() => undefined) : [{ address: '93.184.215.14', family: 4 }]));
    const { key } = await workspaceWithKey('sec');
    const hook = await create(key, 'https://slow-resolver.example.com/hook');
    expect(hook.status).toBe(201);
    hang = true;
    start();
    expect((await api.post('/v1/clients', { name: 'c' }, { key })).status).toBe(201);
    await until(async () => (await api.get(`/v1/webhooks/${hook.body.id}/deliveries`, { key })).body.items.length === 3);
    await settled();
    const log = (await api.get(`/v1/webhooks/${hook.body.id}/deliveries`, { key })).body.items as Array<{ error?: string; durationMs: number }>;
    for (const a of log) {
      expect(a.error).toBe('timeout after 2000 ms (DNS lookup)');
      expect(a.durationMs).toBeGreaterThanOrEqual(1990);
      expect(a.durationMs).toBeLessThan(2000 + 1500);
    }
  });

  test('a redirect is not followed: the 3xx is a failed attempt, the redirect target gets nothing', async () => {
    const target = await receiver();
    const redirecting = createServer((_req, res) => res.writeHead(307, { Location: target.url }).end());
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
    rig.closeAfter(() => new Promise<void>((r) => redirecting.close(() => r())));
    const { key } = await workspaceWithKey('sec');
    const hook = await create(key, `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hook`);
    target.secrets.push(hook.body.secret);
    start();
    expect((await api.post('/v1/clients', { name: 'c' }, { key })).status).toBe(201);
    await until(async () => (await api.get(`/v1/webhooks/${hook.body.id}/deliveries`, { key })).body.items.length === 3);
    await settled();
    const log = (await api.get(`/v1/webhooks/${hook.body.id}/deliveries`, { key })).body.items as Array<{ statusCode?: number }>;
    expect(log.map((a) => a.statusCode)).toEqual([307, 307, 307]);
    expect(target.requests).toEqual([]);
  });

  test('the answer body is read only up to the cap: an endless answer still ends the attempt with its status', async () => {
    const endless = createServer((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 120);
      const pump = () => {
        while (res.write(chunk));
        res.once('drain', pump);
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
    });
    await new Promise<void>((r) => endless.listen(0, '127.0.0.1', r));
    rig.closeAfter(async () => {
      endless.closeAllConnections();
      await new Promise<void>((r) => endless.close(() => r()));
    });
    const { key } = await workspaceWithKey('sec');
    const hook = await create(key, `http://127.0.0.1:${(endless.address() as AddressInfo).port}/hook`);
    start();
    expect((await api.post('/v1/clients', { name: 'c' }, { key })).status).toBe(201);
    await until(async () => (await api.get(`/v1/webhooks/${hook.body.id}/deliveries`, { key })).body.items.length === 1);
    await settled();
    const [attempt] = (await api.get(`/v1/webhooks/${hook.body.id}/deliveries`, { key })).body.items as Array<{ statusCode?: number; error?: string }>;
    expect(attempt).toEqual(expect.objectContaining({ statusCode: 200 }));
    expect(attempt!.error).toBeUndefined();
  });
});

describe('errors of the webhook routes', () => {
  test('unknown ids are 404 on every id route; a bad cursor is 400; missing scopes are 403', async () => {
    const { key } = await workspaceWithKey('sec');
    for (const [method, path] of [
      ['GET', '/v1/webhooks/nope'],
      ['PUT', '/v1/webhooks/nope'],
      ['DELETE', '/v1/webhooks/nope'],
      ['POST', '/v1/webhooks/nope/rotate-secret'],
      ['POST', '/v1/webhooks/nope/test'],
      ['GET', '/v1/webhooks/nope/deliveries'],
    ] as const) {
      const res = await api.call(method, path, { key, ...(method === 'PUT' ? { body: { enabled: true } } : {}) });
      expect({ path, ...err(res) }).toEqual({ path, status: 404, code: 'NOT_FOUND', message: 'Webhook not found' });
    }
    const r = await receiver();
    const hook = await create(key, r.url);
    const bad = await api.get(`/v1/webhooks/${hook.body.id}/deliveries`, { key, query: { cursor: 'garbage' } });
    expect(err(bad).status).toBe(400);
    expect(fields(bad)).toEqual(['cursor']);
    const other = await create(key, r.url);
    // a cursor of one endpoint's log is refused on another's
    for (let i = 0; i < 2; i++) await api.post(`/v1/webhooks/${hook.body.id}/test`, undefined, { key });
    start();
    await until(async () => (await api.get(`/v1/webhooks/${hook.body.id}/deliveries`, { key })).body.items.length === 2);
    const first = await api.get(`/v1/webhooks/${hook.body.id}/deliveries`, { key, query: { limit: '1' } });
    expect(first.body.hasMore).toBe(true);
    const second = await api.get(`/v1/webhooks/${hook.body.id}/deliveries`, { key, query: { limit: '1', cursor: first.body.nextCursor } });
    expect([second.status, second.body.items.length, second.body.hasMore]).toEqual([200, 1, false]);
    expect(second.body.items[0].at <= first.body.items[0].at).toBe(true);
    expect((await api.get(`/v1/webhooks/${other.body.id}/deliveries`, { key, query: { cursor: first.body.nextCursor } })).status).toBe(400);
    await settled();
    const readOnly = (await workspaceWithKey('sec', ['clients:read', 'webhooks:read'])).key;
    expect(err(await create(readOnly, r.url)).status).toBe(403);
    expect(err(await api.get('/v1/webhooks', { key: (await workspaceWithKey('sec', ['clients:read'])).key })).status).toBe(403);
  });

  test('PUT changes the URL only to an allowed one, and refuses unknown event types', async () => {
    const { key } = await workspaceWithKey('sec');
    const r = await receiver();
    const hook = await create(key, r.url, ['client.*']);
    expect(err(await api.put(`/v1/webhooks/${hook.body.id}`, { url: 'http://10.0.0.1/' }, { key })).status).toBe(400);
    expect(fields(await api.put(`/v1/webhooks/${hook.body.id}`, { events: ['nope.created'] }, { key }))).toEqual(['events']);
    const ok = await api.put(`/v1/webhooks/${hook.body.id}`, { events: ['time-entry.created', 'client.*'], description: 'd' }, { key });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual(expect.objectContaining({ url: r.url, events: ['time-entry.created', 'client.*'], description: 'd', enabled: true }));
    expect(ok.body.secret).toBeUndefined();
    expect((await api.del(`/v1/webhooks/${hook.body.id}`, { key })).status).toBe(200);
    expect((await api.get(`/v1/webhooks/${hook.body.id}`, { key })).status).toBe(404);
  });
});

test('address rules, one by one', () => {
  expect(refusedAddress('127.0.0.1', true)).toBeUndefined();
  expect(refusedAddress('::1', true)).toBeUndefined();
  expect(refusedAddress('127.0.0.1', false)).toMatch(/loopback/);
  expect(refusedAddress('::ffff:127.0.0.1', false)).toMatch(/loopback/);
  expect(refusedAddress('93.184.215.14', false)).toBeUndefined();
  expect(refusedAddress('2606:2800:21f:cb07:6820:80da:af6b:8b2c', false)).toBeUndefined();
  for (const a of ['10.0.0.1', '169.254.169.254', '100.64.0.1', 'fd00:ec2::254', 'fe80::1', '::', '224.0.0.1'])
    expect([a, refusedAddress(a, true)]).toEqual([a, expect.any(String)]);
});
