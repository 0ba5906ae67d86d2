import '../hygiene/debug-logs';
import { createApiKey, updateApiKey } from '../../shared/data/apikey-store';
import { newWorkspace, useTestTable } from '../support/harness';
import { consoleClient, person, startOidc, type Oidc } from './support';
import { billableClient, MARCH } from './invoice-fixtures';

/**
 * Issue 36 item 8: the audit log people can read, against DynamoDB Local and a real sign-in: names beside ids
 * (key name and prefix, member e-mail, invoice number and client name), changes as "field: before -> after",
 * and the filters ?action=&actor=&targetId= (paged with a cursor bound to them). The admin CLI's changes
 * stay in it (actor admin-cli).
 */
useTestTable();
jest.setTimeout(120_000);
let oidc: Oidc;
const api = consoleClient();
const WS = newWorkspace('audit');
const base = `/console/api/workspaces/${WS}`;
let owner: { token: string; email: string };
let admin: { token: string; email: string };

beforeAll(async () => {
  oidc = await startOidc();
  owner = await person(oidc.issuer, WS, 'owner', 'owner');
  admin = await person(oidc.issuer, WS, 'admin', 'admin');
});
afterAll(async () => {
  await oidc.stop();
});

type Entry = { action: string; actor: string; target: { type: string; id: string }; targetName: string | null; summary: string[] };
const audit = async (query: Record<string, string>, token = admin.token) => {
  const r = await api.call('GET', `${base}/audit-log`, { token, query });
  expect(r.status).toBe(200);
  return r.body as { items: Entry[]; nextCursor: string | null; hasMore: boolean };
};

test('entries name their targets and show each change as "field: before -> after"; filters by target, action and actor', async () => {
  const made = await api.call('POST', `${base}/api-keys`, { token: admin.token, body: { name: 'billing', scopes: ['clients:read'] } });
  const id = made.body.apiKey.id as string;
  const prefix = made.body.apiKey.prefix as string;
  await api.call('PATCH', `${base}/api-keys/${id}`, { token: owner.token, body: { name: 'billing export', perMinute: 10 } });
  await api.call('DELETE', `${base}/api-keys/${id}`, { token: admin.token });
  const { items } = await audit({ targetId: id });
  expect(items.map((e) => [e.action, e.actor])).toEqual([
    ['api-key.revoked', admin.email],
    ['api-key.updated', owner.email],
    ['api-key.created', admin.email],
  ]);
  for (const e of items) expect(e.targetName).toBe(`billing export (${prefix}…)`);
  expect(items[1]!.summary).toEqual(['name: billing -> billing export', 'perMinute: 60 -> 10']);
  expect(items[2]!.summary).toEqual(expect.arrayContaining([`prefix: none -> ${prefix}`, 'scopes: none -> clients:read']));
  expect(items[0]!.summary).toEqual([expect.stringMatching(/^revokedAt: none -> \d{4}-/)]);

  const revoked = await audit({ action: 'api-key.revoked' });
  expect(revoked.items.map((e) => e.target.id)).toEqual([id]);
  const byOwner = await audit({ actor: owner.email });
  expect(byOwner.items.map((e) => e.action)).toEqual(['api-key.updated']);
  const both = await audit({ actor: admin.email, action: 'api-key.created' });
  expect(both.items.map((e) => e.target.id)).toEqual([id]);
  expect((await audit({ action: 'member.removed' })).items).toEqual([]);
});

test('members, invoices and the admin CLI: named, filtered, paged with the filter', async () => {
  const email = `named-${Date.now().toString(36)}@example.com`;
  await api.call('POST', `${base}/members`, { token: owner.token, body: { email, role: 'viewer' } });
  await api.call('PATCH', `${base}/members/${encodeURIComponent(email)}`, { token: owner.token, body: { role: 'admin' } });
  const member = await audit({ targetId: email });
  expect(member.items.map((e) => [e.action, e.targetName, e.summary])).toEqual([
    ['member.updated', email, ['role: viewer -> admin']],
    ['member.added', email, expect.arrayContaining(['role: none -> viewer'])],
  ]);

  const { clientId, clientName } = await billableClient(WS);
  const inv = await api.call('POST', `${base}/invoices`, { token: admin.token, body: { clientId, ...MARCH } });
  expect(inv.status).toBe(201);
  const invoiceEntries = await audit({ targetId: inv.body.id });
  expect(invoiceEntries.items[0]!.action).toBe('invoice.created');
  expect(invoiceEntries.items[0]!.targetName).toBe(`${inv.body.number ?? 'draft'} (${clientName})`);

  // the admin CLI's key changes stay in the log, as admin-cli
  const cliKey = await createApiKey({ workspaceId: WS, name: 'from the cli', scopes: ['tags:read'] });
  await updateApiKey(cliKey.record.id, { name: 'renamed by the cli' });
  const cli = await audit({ actor: 'admin-cli' });
  expect(cli.items.map((e) => [e.action, e.targetName])).toEqual([
    ['api-key.updated', `renamed by the cli (${cliKey.record.prefix}…)`],
    ['api-key.created', `renamed by the cli (${cliKey.record.prefix}…)`],
  ]);

  // paging through a filter: one entry a page, the cursor keeps the filter
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await audit({ actor: owner.email, limit: '1', ...(cursor ? { cursor } : {}) });
    expect(page.items.length).toBeLessThanOrEqual(1);
    seen.push(...page.items.map((e) => e.action));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  expect(seen).toEqual(['member.updated', 'member.added', 'api-key.updated']); // the last from the test above
  // a cursor of one filter is refused for another
  const first = await audit({ actor: owner.email, limit: '1' });
  const mixed = await api.call('GET', `${base}/audit-log`, { token: admin.token, query: { actor: admin.email, limit: '1', cursor: first.nextCursor! } });
  expect(mixed.status).toBe(400);
});

test('bad filters are a 400 naming the parameter; viewers cannot read the log', async () => {
  const long = await api.call('GET', `${base}/audit-log`, { token: admin.token, query: { action: 'x'.repeat(65) } });
  expect([long.status, long.body.error.details[0].field]).toEqual([400, 'action']);
  const unknown = await api.call('GET', `${base}/audit-log`, { token: admin.token, query: { who: 'me' } });
  expect(unknown.status).toBe(400);
  const viewer = await person(oidc.issuer, WS, 'viewer', 'viewer');
  expect((await api.call('GET', `${base}/audit-log`, { token: viewer.token })).status).toBe(403);
});
