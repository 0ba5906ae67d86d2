import '../hygiene/debug-logs';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import SwaggerParser from '@apidevtools/swagger-parser';
import { activeKeyCount, createApiKey, findById } from '../../shared/data/apikey-store';
import { db, tableName } from '../../shared/data/db';
import { getMembership } from '../../shared/data/members';
import { consoleRouteList } from '../../shared/console/routes';
import { apiClient, useTestTable } from '../support/harness';
import { consoleClient, person, startOidc, writeConsoleDocument, type Oidc } from './support';
import { billableClient, draftOf, MARCH, sentOf } from './invoice-fixtures';

/**
 * The console API through the local gateway, signed in for real at the local OpenID Provider: every route
 * x role (owner, admin, viewer, non-member), other workspaces' ids, API keys on console routes and tokens on
 * /v1, the last-owner rule, the 500-key bound under concurrency, validation, the per-person limit,
 * no-store, audit entries for every change and no secret in them or in any log line (logs at DEBUG with
 * event logging on).
 */
useTestTable();
jest.setTimeout(120_000);
let oidc: Oidc;
// GET /console/api/openapi.json serves the document built with the function's assets
writeConsoleDocument();
const api = consoleClient();
const v1 = apiClient();
const logs: string[] = [];
const realWrite = process.stdout.write.bind(process.stdout);

type P = { email: string; token: string; password: string };
const people: Record<'owner' | 'admin' | 'viewer' | 'outsider', P> = {} as never;
const WS = 'ws-console-a';
const OTHER = 'ws-console-b';
let otherOwner: P;

beforeAll(async () => {
  oidc = await startOidc();
  people.owner = await person(oidc.issuer, WS, 'owner', 'owner');
  people.admin = await person(oidc.issuer, WS, 'admin', 'admin');
  people.viewer = await person(oidc.issuer, WS, 'viewer', 'viewer');
  people.outsider = await person(oidc.issuer, undefined, undefined, 'outsider');
  otherOwner = await person(oidc.issuer, OTHER, 'owner', 'other');
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    logs.push(String(chunk));
    return (realWrite as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;
});
afterAll(async () => {
  process.stdout.write = realWrite;
  await oidc.stop();
});

const base = `/console/api/workspaces/${WS}`;
const secrets: string[] = [];
const created = async (token: string, body: Record<string, unknown> = { name: 'k', scopes: ['clients:read'] }) => {
  const r = await api.call('POST', `${base}/api-keys`, { token, body });
  if (r.status === 201) secrets.push(r.body.key);
  return r;
};

test('GET /console/api/me: the verified e-mail and the memberships (one Query)', async () => {
  const r = await api.call('GET', '/console/api/me', { token: people.admin.token });
  expect(r.status).toBe(200);
  expect(r.body).toEqual({ email: people.admin.email, memberships: [{ workspaceId: WS, role: 'admin' }] });
  expect((await api.call('GET', '/console/api/me', { token: people.outsider.token })).body.memberships).toEqual([]);
});

test('every route x role: allowed, 403 ROLE with the least role required, or 404 for a non-member', async () => {
  const { body: seed } = await created(people.owner.token, { name: 'matrix', scopes: ['clients:read'] });
  const keyId = seed.apiKey.id as string;
  const draft = await draftOf(WS);
  const inv = `${base}/invoices/${draft.invoice.id}`;
  const hookKey = (await createApiKey({ workspaceId: WS, name: 'hooks', scopes: ['clients:read', 'webhooks:read', 'webhooks:write'], perMinute: 1000, perHour: 10000 })).key;
  const newHook = async () => (await v1.post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['client.*'] }, { key: hookKey })).body.id as string;
  const hookId = await newHook();
  // Each route with a request that is valid for it; write routes get a fresh target per call.
  const requests: Record<string, () => Promise<{ method: string; path: string; body?: unknown }>> = {
    listConsoleApiKeys: async () => ({ method: 'GET', path: `${base}/api-keys` }),
    createConsoleApiKey: async () => ({ method: 'POST', path: `${base}/api-keys`, body: { name: 'm', scopes: ['clients:read'] } }),
    getConsoleApiKey: async () => ({ method: 'GET', path: `${base}/api-keys/${keyId}` }),
    updateConsoleApiKey: async () => ({ method: 'PATCH', path: `${base}/api-keys/${keyId}`, body: { name: `renamed ${Math.random()}` } }),
    revokeConsoleApiKey: async () => {
      const k = await createApiKey({ workspaceId: WS, name: 'to revoke', scopes: ['clients:read'] });
      return { method: 'DELETE', path: `${base}/api-keys/${k.record.id}` };
    },
    rollConsoleApiKey: async () => {
      const k = await createApiKey({ workspaceId: WS, name: 'to roll', scopes: ['clients:read'] });
      return { method: 'POST', path: `${base}/api-keys/${k.record.id}/roll`, body: { expireOldInSeconds: 60 } };
    },
    getConsoleApiKeyUsage: async () => ({ method: 'GET', path: `${base}/api-keys/${keyId}/usage?hours=24` }),
    listConsoleMembers: async () => ({ method: 'GET', path: `${base}/members` }),
    addConsoleMember: async () => ({ method: 'POST', path: `${base}/members`, body: { email: `new-${Math.random().toString(36).slice(2)}@example.com`, role: 'viewer' } }),
    updateConsoleMember: async () => {
      const email = `promoted-${Math.random().toString(36).slice(2)}@example.com`;
      await api.call('POST', `${base}/members`, { token: people.owner.token, body: { email, role: 'viewer' } });
      return { method: 'PATCH', path: `${base}/members/${encodeURIComponent(email)}`, body: { role: 'admin' } };
    },
    removeConsoleMember: async () => {
      const email = `gone-${Math.random().toString(36).slice(2)}@example.com`;
      await api.call('POST', `${base}/members`, { token: people.owner.token, body: { email, role: 'viewer' } });
      return { method: 'DELETE', path: `${base}/members/${encodeURIComponent(email)}` };
    },
    listConsoleAuditLog: async () => ({ method: 'GET', path: `${base}/audit-log?limit=5` }),
    listConsoleClients: async () => ({ method: 'GET', path: `${base}/clients` }),
    listConsoleInvoices: async () => ({ method: 'GET', path: `${base}/invoices?limit=5` }),
    previewConsoleInvoice: async () => ({ method: 'POST', path: `${base}/invoices/preview`, body: { clientId: (await billableClient(WS)).clientId, ...MARCH } }),
    createConsoleInvoice: async () => ({ method: 'POST', path: `${base}/invoices`, body: { clientId: (await billableClient(WS)).clientId, ...MARCH } }),
    continueConsoleInvoice: async () => ({ method: 'POST', path: `${inv}/continue` }),
    getConsoleInvoice: async () => ({ method: 'GET', path: inv }),
    listConsoleInvoiceEntries: async () => ({ method: 'GET', path: `${inv}/entries?limit=2` }),
    listConsoleUnbilled: async () => ({ method: 'GET', path: `${base}/invoices/unbilled` }),
    getConsoleInvoicePdf: async () => ({ method: 'GET', path: `${inv}/pdf` }),
    updateConsoleInvoice: async () => ({ method: 'PATCH', path: inv, body: { notes: `n ${Math.random()}` } }),
    sendConsoleInvoice: async () => ({ method: 'POST', path: `${base}/invoices/${(await draftOf(WS)).invoice.id}/send` }),
    payConsoleInvoice: async () => ({ method: 'POST', path: `${base}/invoices/${(await sentOf(WS)).invoice.id}/pay`, body: { paidAt: '2026-04-10', amount: 1 } }),
    voidConsoleInvoice: async () => ({ method: 'POST', path: `${base}/invoices/${(await draftOf(WS)).invoice.id}/void` }),
    deleteConsoleInvoice: async () => ({ method: 'DELETE', path: `${base}/invoices/${(await draftOf(WS)).invoice.id}` }),
    listConsoleWebhooks: async () => ({ method: 'GET', path: `${base}/webhooks` }),
    getConsoleWebhook: async () => ({ method: 'GET', path: `${base}/webhooks/${hookId}` }),
    listConsoleWebhookDeliveries: async () => ({ method: 'GET', path: `${base}/webhooks/${hookId}/deliveries` }),
    updateConsoleWebhook: async () => ({ method: 'PATCH', path: `${base}/webhooks/${hookId}`, body: { enabled: Math.random() < 0.5 } }),
    deleteConsoleWebhook: async () => ({ method: 'DELETE', path: `${base}/webhooks/${await newHook()}` }),
    getConsoleBillingProfile: async () => ({ method: 'GET', path: `${base}/billing-profile` }),
    putConsoleBillingProfile: async () => ({ method: 'PUT', path: `${base}/billing-profile`, body: { displayName: `Matrix ${Math.random()}` } }),
  };
  const rank = { viewer: 1, admin: 2, owner: 3 } as const;
  const workspaceRoutes = consoleRouteList.filter((r) => r.access !== null && r.access !== 'person');
  expect(Object.keys(requests).sort()).toEqual(workspaceRoutes.map((r) => r.id).sort()); // every route covered
  const seen: string[] = [];
  for (const route of workspaceRoutes) {
    for (const role of ['owner', 'admin', 'viewer', 'outsider'] as const) {
      const req = await requests[route.id]!();
      const [path, qs] = req.path.split('?');
      const r = await api.call(req.method, path!, { token: people[role].token, body: req.body, query: Object.fromEntries(new URLSearchParams(qs ?? '')) });
      const required = route.access as 'owner' | 'admin' | 'viewer';
      if (role === 'outsider') {
        expect([route.id, role, r.status]).toEqual([route.id, role, 404]);
      } else if (rank[role] >= rank[required]) {
        expect([route.id, role, r.status]).toEqual([route.id, role, route.successStatus]);
      } else {
        expect([route.id, role, r.status, r.body.error.details]).toEqual([route.id, role, 403, [{ reason: 'ROLE', required }]]);
      }
      if (r.status === 201 && typeof r.body?.key === 'string') secrets.push(r.body.key);
      seen.push(`${route.id}:${role}:${r.status}`);
    }
  }
  expect(seen).toHaveLength(workspaceRoutes.length * 4);
});

test("another workspace's ids are 404 and change nothing; a non-member's request too", async () => {
  const theirs = await createApiKey({ workspaceId: OTHER, name: 'theirs', scopes: ['clients:read'] });
  for (const [method, suffix, body] of [
    ['GET', '', undefined],
    ['PATCH', '', { name: 'stolen' }],
    ['DELETE', '', undefined],
    ['POST', '/roll', {}],
    ['GET', '/usage', undefined],
  ] as const) {
    const r = await api.call(method, `${base}/api-keys/${theirs.record.id}${suffix}`, { token: people.owner.token, body });
    expect([method, suffix, r.status]).toEqual([method, suffix, 404]);
  }
  // Their workspace with our owner's token: 404 (not a member), whatever the route.
  expect((await api.call('GET', `/console/api/workspaces/${OTHER}/api-keys`, { token: people.owner.token })).status).toBe(404);
  expect((await api.call('DELETE', `/console/api/workspaces/${OTHER}/members/${encodeURIComponent(otherOwner.email)}`, { token: people.owner.token })).status).toBe(404);
  const after = await findById(theirs.record.id);
  expect(after).toMatchObject({ name: 'theirs' });
  expect(after?.revokedAt).toBeUndefined();
  expect(after?.expiresAt).toBeUndefined();
  expect(await getMembership(OTHER, otherOwner.email)).toBeDefined();
});

test('forged or foreign credentials: 401 (alg none, another key, tampered claims, API key); a token on /v1: 401', async () => {
  const [h, p, s] = people.owner.token.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const { SignJWT, generateKeyPair } = await import('jose');
  const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { kid: string };
  const { privateKey } = await generateKeyPair('RS256');
  const forged = {
    'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${p}.`,
    "another key's signature": await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: header.kid }).sign(privateKey),
    'tampered claims': `${h}.${b64({ ...claims, email: people.viewer.email })}.${s}`,
    'tampered signature': `${h}.${p}.${s.slice(0, -4)}AAAA`,
    'not a JWT': 'hello',
  };
  for (const [what, token] of Object.entries(forged)) {
    const r = await api.call('GET', '/console/api/me', { token });
    expect([what, r.status, r.body.error.code]).toEqual([what, 401, 'UNAUTHORIZED']);
    // the gateway's one 401 (shared with /v1 on AWS) speaks of the console's credential too
    expect([what, r.body.error.message]).toEqual([what, expect.stringContaining('sign-in token')]);
  }
  const { key } = await createApiKey({ workspaceId: WS, name: 'integration', scopes: ['clients:read'] });
  secrets.push(key);
  expect((await api.call('GET', `${base}/api-keys`, { headers: { 'X-API-Key': key } })).status).toBe(401);
  expect((await api.call('GET', `${base}/api-keys`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(401);
  expect((await api.call('GET', `${base}/api-keys`)).status).toBe(401);
  // A person's token on the integration API: 401 in either header.
  expect((await v1.call('GET', '/v1/clients', { headers: { Authorization: `Bearer ${people.owner.token}` } })).status).toBe(401);
  expect((await v1.get('/v1/clients', { key: people.owner.token })).status).toBe(401);
});

test('the last owner cannot be removed or demoted (409); two owners stepping down at once: exactly one does', async () => {
  const ws = 'ws-console-owners';
  const a = await person(oidc.issuer, ws, 'owner', 'oa');
  const path = (e: string) => `/console/api/workspaces/${ws}/members/${encodeURIComponent(e)}`;
  expect((await api.call('DELETE', path(a.email), { token: a.token })).status).toBe(409);
  const demote = await api.call('PATCH', path(a.email), { token: a.token, body: { role: 'admin' } });
  expect([demote.status, demote.body.error.message]).toEqual([409, expect.stringContaining('at least one owner')]);
  const b = await person(oidc.issuer, ws, 'owner', 'ob');
  // Each demotes themself: both see two owners; the owner counter's condition lets exactly one through.
  const results = await Promise.all([
    api.call('PATCH', path(a.email), { token: a.token, body: { role: 'viewer' } }),
    api.call('PATCH', path(b.email), { token: b.token, body: { role: 'viewer' } }),
  ]);
  expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  const roles = [(await getMembership(ws, a.email))!.role, (await getMembership(ws, b.email))!.role].sort();
  expect(roles).toEqual(['owner', 'viewer']);
});

test('the 500-active-key bound: 20 concurrent creates at 495 keys -> exactly 5 made, 15 409; a revoke frees one', async () => {
  const ws = 'ws-console-bound';
  const owner = await person(oidc.issuer, ws, 'owner', 'bound');
  for (let i = 0; i < 495; i += 15)
    await Promise.all(Array.from({ length: Math.min(15, 495 - i) }, () => createApiKey({ workspaceId: ws, name: 'filler', scopes: ['clients:read'] })));
  expect(await activeKeyCount(ws)).toBe(495);
  const results = await Promise.all(
    Array.from({ length: 20 }, () => api.call('POST', `/console/api/workspaces/${ws}/api-keys`, { token: owner.token, body: { name: 'race', scopes: ['clients:read'] } })),
  );
  for (const r of results) if (r.status === 201) secrets.push(r.body.key);
  expect(results.filter((r) => r.status === 201)).toHaveLength(5);
  const refused = results.filter((r) => r.status === 409);
  expect(refused).toHaveLength(15);
  expect(refused[0]!.body.error.message).toContain('at most 500 active API keys');
  expect(await activeKeyCount(ws)).toBe(500);
  const list = await api.call('GET', `/console/api/workspaces/${ws}/api-keys`, { token: owner.token });
  expect(list.body.items.filter((k: { status: string }) => k.status === 'active')).toHaveLength(500);
  const one = list.body.items[0].id as string;
  expect((await api.call('DELETE', `/console/api/workspaces/${ws}/api-keys/${one}`, { token: owner.token })).status).toBe(200);
  expect((await api.call('POST', `/console/api/workspaces/${ws}/api-keys`, { token: owner.token, body: { name: 'after revoke', scopes: ['clients:read'] } })).status).toBe(201);
});

test('bad input is a 400 naming the field, and changes nothing', async () => {
  const cases: Array<[unknown, string]> = [
    [{ name: '', scopes: ['clients:read'] }, 'name'],
    [{ name: 'x'.repeat(101), scopes: ['clients:read'] }, 'name'],
    [{ name: 'ok', scopes: [] }, 'scopes'],
    [{ name: 'ok', scopes: ['clients:delete'] }, 'scopes.0'],
    [{ name: 'ok', scopes: ['clients:read'], perMinute: 0 }, 'perMinute'],
    [{ name: 'ok', scopes: ['clients:read'], perMinute: 100, perHour: 50 }, 'perMinute'],
    [{ name: 'ok', scopes: ['clients:read'], expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt'],
    [{ name: 'ok', scopes: ['clients:read'], color: 'red' }, 'color'],
  ];
  const before = (await api.call('GET', `${base}/api-keys`, { token: people.owner.token })).body.items.length;
  for (const [body, field] of cases) {
    const r = await api.call('POST', `${base}/api-keys`, { token: people.owner.token, body });
    expect([field, r.status, r.body.error.details.map((d: { field: string }) => d.field)]).toEqual([field, 400, expect.arrayContaining([field])]);
  }
  const roll = await api.call('POST', `${base}/api-keys/key_x/roll`, { token: people.owner.token, body: { expireOldInSeconds: 604801 } });
  expect(roll.status).toBe(400);
  expect((await api.call('GET', `${base}/api-keys/key_x/usage`, { token: people.owner.token, query: { hours: '169' } })).status).toBe(400);
  expect((await api.call('POST', `${base}/members`, { token: people.owner.token, body: { email: 'nope', role: 'owner' } })).body.error.details[0].field).toBe('email');
  expect((await api.call('POST', `${base}/members`, { token: people.owner.token, body: { email: 'a@b.co', role: 'boss' } })).body.error.details[0].field).toBe('role');
  expect((await api.call('GET', `${base}/api-keys`, { token: people.owner.token })).body.items.length).toBe(before);
});

test('create and roll answer no-store with the key once; roll keeps every setting and never extends the old expiry', async () => {
  const expiresAt = new Date(Date.now() + 1800_000).toISOString();
  const c = await created(people.admin.token, { name: 'roll me', scopes: ['clients:read', 'tags:write'], perMinute: 7, perHour: 70, expiresAt });
  expect(c.status).toBe(201);
  expect(c.headers['Cache-Control']).toBe('no-store');
  expect(c.body.apiKey).toMatchObject({ name: 'roll me', prefix: c.body.key.slice(0, 13), createdBy: people.admin.email, status: 'active', lastUsedAt: null, revokedAt: null });
  const r = await api.call('POST', `${base}/api-keys/${c.body.apiKey.id}/roll`, { token: people.admin.token, body: { expireOldInSeconds: 7200 } });
  expect(r.status).toBe(201);
  secrets.push(r.body.key);
  expect(r.headers['Cache-Control']).toBe('no-store');
  expect(r.body.apiKey).toMatchObject({ name: 'roll me', scopes: ['clients:read', 'tags:write'], perMinute: 7, perHour: 70, expiresAt: new Date(expiresAt).toISOString() });
  expect(r.body.previous.expiresAt).toBe(new Date(expiresAt).toISOString()); // 2 h asked, its own expiry (30 min) wins
  expect((await v1.get('/v1/clients', { key: r.body.key })).status).toBe(200);
  expect((await v1.get('/v1/clients', { key: c.body.key })).status).toBe(200);
  const got = await api.call('GET', `${base}/api-keys/${c.body.apiKey.id}`, { token: people.viewer.token });
  expect(got.text).not.toContain(c.body.key);
  expect(got.body.lastUsedAt).not.toBeNull();
});

test('usage: requests per hour from the rate counters, refused ones apart', async () => {
  const c = await created(people.owner.token, { name: 'usage', scopes: ['clients:read'], perMinute: 2, perHour: 100 });
  for (let i = 0; i < 4; i++) await v1.get('/v1/clients', { key: c.body.key });
  const u = await api.call('GET', `${base}/api-keys/${c.body.apiKey.id}/usage`, { token: people.viewer.token, query: { hours: '3' } });
  expect(u.status).toBe(200);
  expect(u.body.items).toHaveLength(3);
  expect(u.body.items[2]).toMatchObject({ requests: 2, rateLimited: 2 });
  expect(u.body.items[0]).toMatchObject({ requests: 0, rateLimited: 0 });
});

test('console routes are rate-limited per person', async () => {
  process.env.CONSOLE_RATE_PER_MINUTE = '3';
  try {
    const p = await person(oidc.issuer, WS, 'viewer', 'limited');
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await api.call('GET', '/console/api/me', { token: p.token }));
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 200, 403]);
    expect(statuses[3]!.body.error.details[0]).toMatchObject({ reason: 'RATE_LIMITED', window: 'minute', limit: 3 });
  } finally {
    delete process.env.CONSOLE_RATE_PER_MINUTE;
  }
});

test('the console OpenAPI document is valid and lists every console route; the integration one lists none', async () => {
  const r = await api.call('GET', '/console/api/openapi.json');
  expect(r.status).toBe(200);
  await SwaggerParser.validate(structuredClone(r.body));
  const ops = Object.values(r.body.paths as Record<string, Record<string, { operationId: string }>>).flatMap((p) => Object.values(p).map((o) => o.operationId));
  expect(ops.sort()).toEqual(consoleRouteList.map((x) => x.id).sort());
  const integration = await v1.get('/v1/openapi.json');
  expect(Object.keys(integration.body.paths).filter((p) => p.startsWith('/console'))).toEqual([]);
});

test('audit entries for every change, newest first, paged; no secret in any entry or log line', async () => {
  const all: Array<{ action: string; actor: string; target: { id: string } }> = [];
  let cursor: string | undefined;
  do {
    const page = await api.call('GET', `${base}/audit-log`, { token: people.admin.token, query: { limit: '20', ...(cursor ? { cursor } : {}) } });
    expect(page.status).toBe(200);
    all.push(...page.body.items);
    cursor = page.body.nextCursor ?? undefined;
  } while (cursor);
  const actions = new Set(all.map((e) => e.action));
  for (const a of ['api-key.created', 'api-key.updated', 'api-key.rolled', 'api-key.revoked', 'member.added', 'member.updated', 'member.removed']) expect(actions).toContain(a);
  const times = all.map((e) => (e as unknown as { at: string }).at);
  expect([...times].sort().reverse()).toEqual(times);
  const items = (await db().send(new ScanCommand({ TableName: tableName() }))).Items ?? [];
  const audit = items.filter((i) => i._type === 'AUDIT');
  expect(audit.length).toBeGreaterThan(20);
  for (const i of audit) expect(Number(i.ttl) - Date.parse(String(i.at)) / 1000).toBeCloseTo(400 * 86400, -1);
  expect(secrets.length).toBeGreaterThan(10);
  const stored = JSON.stringify(items);
  const logged = logs.join('');
  expect(logged.length).toBeGreaterThan(1000); // the logs were captured
  for (const secret of secrets) {
    expect(stored).not.toContain(secret);
    expect(logged).not.toContain(secret);
  }
  for (const p of Object.values(people)) {
    expect(logged).not.toContain(p.token);
    expect(logged).not.toContain(p.password);
    expect(stored).not.toContain(p.password);
  }
});
