import '../hygiene/debug-logs';
import { randomBytes } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { issueInvitation } from '../../shared/data/accounts';
import { addMember } from '../../shared/data/members';
import { db, tableName } from '../../shared/data/db';
import { newWorkspace, useTestTable } from '../support/harness';
import { consoleClient, person, signIn, startOidc, type Oidc } from './support';

/**
 * Issue 36 item 4: a member added in the console can sign in. Locally the answer carries a one-time link to
 * the local provider's set-password page (the real provider, in its child process, over HTTP); following it
 * and setting a password lets the person sign in (authorization code + PKCE through the provider's form) and
 * see the workspace with their role. Links are single use, expire after 7 days and are stored only hashed.
 */
useTestTable();
jest.setTimeout(120_000);
let oidc: Oidc;
const api = consoleClient();
const WS = newWorkspace('invite');
let owner: { token: string; email: string };

beforeAll(async () => {
  oidc = await startOidc();
  owner = await person(oidc.issuer, WS, 'owner', 'owner');
});
afterAll(async () => {
  await oidc.stop();
});

const form = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' });

test('a member added in the console follows the link, sets a password and signs in to the workspace with their role', async () => {
  const email = `new-${randomBytes(4).toString('hex')}@example.com`;
  const added = await api.call('POST', `/console/api/workspaces/${WS}/members`, { token: owner.token, body: { email, role: 'admin' } });
  expect(added.status).toBe(201);
  expect(added.headers['Cache-Control']).toBe('no-store');
  const { url, expiresAt } = added.body.invitation as { url: string; expiresAt: string };
  expect(url.startsWith(`${oidc.issuer}/invitation/`)).toBe(true);
  expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000);
  expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);
  // the token is stored hashed only
  const stored = JSON.stringify((await db().send(new ScanCommand({ TableName: tableName() }))).Items ?? []);
  expect(stored).toContain('INVITATION#');
  expect(stored).not.toContain(url.split('/').pop()!);

  const page = await fetch(url);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain(email);
  expect(html).toContain('Set password');
  // refused input changes nothing: the link still works
  expect((await form(url, { password: 'short', confirm: 'short' })).status).toBe(400);
  expect((await form(url, { password: 'a-long-password-1', confirm: 'a-long-password-2' })).status).toBe(400);
  const password = `Pw-${randomBytes(8).toString('hex')}`;
  const set = await form(url, { password, confirm: password });
  expect(set.status).toBe(200);
  expect(await set.text()).toContain('Your password is set');

  const token = await signIn(oidc.issuer, email, password);
  const me = await api.call('GET', '/console/api/me', { token });
  expect(me.body).toEqual({ email, memberships: [{ workspaceId: WS, role: 'admin' }] });
  expect((await api.call('GET', `/console/api/workspaces/${WS}/api-keys`, { token })).status).toBe(200);

  // single use: the link is spent, and cannot set another password
  const again = await form(url, { password: 'another-password-9', confirm: 'another-password-9' });
  expect([again.status, await again.text()]).toEqual([410, expect.stringContaining('already used')]);
  expect((await fetch(url)).status).toBe(410);
  await expect(signIn(oidc.issuer, email, 'another-password-9')).rejects.toThrow();
  expect(typeof (await signIn(oidc.issuer, email, password))).toBe('string');
});

test('a person who already has an account gets no link; the link of an expired or unknown invitation works no more', async () => {
  const existing = await person(oidc.issuer, undefined, undefined, 'has-account');
  const added = await api.call('POST', `/console/api/workspaces/${WS}/members`, { token: owner.token, body: { email: existing.email, role: 'viewer' } });
  expect([added.status, added.body.invitation]).toEqual([201, null]);
  expect((await api.call('GET', '/console/api/me', { token: existing.token })).body.memberships).toEqual([{ workspaceId: WS, role: 'viewer' }]);

  const late = `late-${randomBytes(4).toString('hex')}@example.com`;
  await addMember(WS, late, 'viewer', 'test');
  const old = await issueInvitation(late, new Date(Date.now() - 7 * 86_400_000 - 1000)); // issued just over 7 days ago
  const url = `${oidc.issuer}/invitation/${old.token}`;
  const res = await fetch(url);
  expect([res.status, await res.text()]).toEqual([410, expect.stringContaining('expired')]);
  expect((await form(url, { password: 'a-long-password-1', confirm: 'a-long-password-1' })).status).toBe(410);
  await expect(signIn(oidc.issuer, late, 'a-long-password-1')).rejects.toThrow();
  // a link issued 7 days less a minute ago still works
  const fresh = await issueInvitation(late, new Date(Date.now() - 7 * 86_400_000 + 60_000));
  expect((await fetch(`${oidc.issuer}/invitation/${fresh.token}`)).status).toBe(200);
  expect((await fetch(`${oidc.issuer}/invitation/${'x'.repeat(43)}`)).status).toBe(404);
  expect((await fetch(`${oidc.issuer}/invitation/not-a-token`)).status).toBe(404);
});

test('two uses of one link at once: one sets the password, the other is refused', async () => {
  const email = `race-${randomBytes(4).toString('hex')}@example.com`;
  await addMember(WS, email, 'viewer', 'test');
  const { token } = await issueInvitation(email);
  const url = `${oidc.issuer}/invitation/${token}`;
  const results = await Promise.all(['first-password-1', 'second-password-2'].map((p) => form(url, { password: p, confirm: p })));
  expect(results.map((r) => r.status).sort()).toEqual([200, 410]);
  const winner = results[0]!.status === 200 ? 'first-password-1' : 'second-password-2';
  expect(typeof (await signIn(oidc.issuer, email, winner))).toBe('string');
});
