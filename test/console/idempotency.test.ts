import '../hygiene/debug-logs';
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { activeKeyCount, listApiKeys } from '../../shared/data/apikey-store';
import { db, tableName } from '../../shared/data/db';
import { listMembers } from '../../shared/data/members';
import { newWorkspace, useTestTable } from '../support/harness';
import { consoleClient, person, startOidc, writeConsoleDocument, type Oidc } from './support';
import { billableClient, draftOf, MARCH, sentOf } from './invoice-fixtures';

/**
 * Issue 36 item 2: Idempotency-Key on every console POST, with the /v1 semantics, against DynamoDB Local and a
 * real sign-in: a repeat gets the first answer with Idempotent-Replayed: true and changes nothing; the same
 * key with another body is 422; 20 concurrent creates with one key make one key; a new API key is never
 * kept (a replay answers key: null) and never stored.
 */
useTestTable();
jest.setTimeout(120_000);
let oidc: Oidc;
// GET /console/api/openapi.json serves the document built with the function's assets
writeConsoleDocument();
const api = consoleClient();
const WS = newWorkspace('idem');
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

const post = (path: string, key: string | undefined, body?: unknown, token = owner.token) =>
  api.call('POST', path, { token, ...(body === undefined ? {} : { body }), headers: key ? { 'Idempotency-Key': key } : {} });

test('key create: a repeat replays the first answer (without the secret) and makes nothing; another body is 422', async () => {
  const key = randomUUID();
  const body = { name: 'once', scopes: ['clients:read'] };
  const first = await post(`${base}/api-keys`, key, body);
  expect(first.status).toBe(201);
  expect(first.headers['Idempotent-Replayed']).toBeUndefined();
  expect(first.body.key).toMatch(/^svc_live_/);
  const again = await post(`${base}/api-keys`, key, { scopes: ['clients:read'], name: 'once' }); // key order does not matter
  expect(again.status).toBe(201);
  expect(again.headers['Idempotent-Replayed']).toBe('true');
  expect(again.body).toEqual({ ...first.body, key: null });
  expect((await listApiKeys(WS)).filter((k) => k.name === 'once')).toHaveLength(1);
  const other = await post(`${base}/api-keys`, key, { name: 'twice', scopes: ['clients:read'] });
  expect([other.status, other.body.error.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
  const elsewhere = await api.call('POST', `${base}/members`, { token: owner.token, body: { email: 'x@example.com', role: 'viewer' }, headers: { 'Idempotency-Key': key } });
  expect(elsewhere.status).toBe(422);
  expect((await listApiKeys(WS)).filter((k) => k.name === 'twice')).toHaveLength(0);
  expect((await listMembers(WS)).map((m) => m.email)).not.toContain('x@example.com');
  // the key is the person's: another person with the same key makes their own
  const theirs = await post(`${base}/api-keys`, key, body, admin.token);
  expect([theirs.status, theirs.headers['Idempotent-Replayed'], typeof theirs.body.key]).toEqual([201, undefined, 'string']);
  expect(theirs.body.apiKey.id).not.toBe(first.body.apiKey.id);
  // no secret in the table: not in the kept answer, not anywhere
  const stored = JSON.stringify((await db().send(new ScanCommand({ TableName: tableName() }))).Items ?? []);
  expect(stored).toContain('IDEMPOTENCY');
  expect(stored).not.toContain(first.body.key);
  expect(stored).not.toContain(theirs.body.key);
});

test('a malformed Idempotency-Key is a 400 naming the header, and changes nothing', async () => {
  const before = await activeKeyCount(WS);
  const r = await post(`${base}/api-keys`, 'x'.repeat(256), { name: 'bad', scopes: ['clients:read'] });
  expect([r.status, r.body.error.details[0].field]).toEqual([400, 'Idempotency-Key']);
  expect(await activeKeyCount(WS)).toBe(before);
});

test('20 concurrent key creates with one Idempotency-Key make exactly one key', async () => {
  const key = randomUUID();
  const before = await activeKeyCount(WS);
  const results = await Promise.all(Array.from({ length: 20 }, () => post(`${base}/api-keys`, key, { name: 'double click', scopes: ['clients:read'] })));
  const made = results.filter((r) => r.status === 201);
  expect(made.length).toBeGreaterThanOrEqual(1);
  // the others were still running (409, retry later) or replays of the same key
  for (const r of results) expect([201, 409]).toContain(r.status);
  expect(new Set(made.map((r) => r.body.apiKey.id)).size).toBe(1);
  expect(made.filter((r) => typeof r.body.key === 'string')).toHaveLength(1);
  expect(await activeKeyCount(WS)).toBe(before + 1);
  expect((await listApiKeys(WS)).filter((k) => k.name === 'double click')).toHaveLength(1);
  // a retry now gets the answer
  const retry = await post(`${base}/api-keys`, key, { name: 'double click', scopes: ['clients:read'] });
  expect([retry.status, retry.headers['Idempotent-Replayed'], retry.body.apiKey.id]).toEqual([201, 'true', made[0]!.body.apiKey.id]);
});

test('roll and member add: replayed, not repeated', async () => {
  const created = await post(`${base}/api-keys`, undefined, { name: 'to roll', scopes: ['clients:read'] });
  const key = randomUUID();
  const roll = await post(`${base}/api-keys/${created.body.apiKey.id}/roll`, key, { expireOldInSeconds: 60 });
  expect(roll.status).toBe(201);
  const again = await post(`${base}/api-keys/${created.body.apiKey.id}/roll`, key, { expireOldInSeconds: 60 });
  expect([again.status, again.headers['Idempotent-Replayed']]).toEqual([201, 'true']);
  expect(again.body).toEqual({ ...roll.body, key: null });
  expect((await listApiKeys(WS)).filter((k) => k.replaces === created.body.apiKey.id)).toHaveLength(1);

  const mk = randomUUID();
  const email = `new-${randomUUID().slice(0, 8)}@example.com`;
  const add = await post(`${base}/members`, mk, { email, role: 'viewer' });
  expect(add.status).toBe(201);
  const addAgain = await post(`${base}/members`, mk, { email, role: 'viewer' });
  expect([addAgain.status, addAgain.headers['Idempotent-Replayed'], addAgain.body.email]).toEqual([201, 'true', email]);
  // without the key, the repeat is the 409 it always was
  expect((await post(`${base}/members`, undefined, { email, role: 'viewer' })).status).toBe(409);
  // a kept refusal replays as it was: a roll of an unknown key is 404 twice
  const nk = randomUUID();
  const missing = await post(`${base}/api-keys/key_nope/roll`, nk, {});
  expect([missing.status, missing.headers['Idempotent-Replayed']]).toEqual([404, undefined]);
  const missingAgain = await post(`${base}/api-keys/key_nope/roll`, nk, {});
  expect([missingAgain.status, missingAgain.headers['Idempotent-Replayed'], missingAgain.body]).toEqual([404, 'true', missing.body]);
});

test('invoice create, send, pay and void: a repeat replays the first answer', async () => {
  const { clientId } = await billableClient(WS);
  const ck = randomUUID();
  const made = await post(`${base}/invoices`, ck, { clientId, ...MARCH });
  expect(made.status).toBe(201);
  const madeAgain = await post(`${base}/invoices`, ck, { clientId, ...MARCH });
  expect([madeAgain.status, madeAgain.headers['Idempotent-Replayed'], madeAgain.body]).toEqual([201, 'true', made.body]);
  const list = await api.call('GET', `${base}/invoices`, { token: owner.token, query: { clientId } });
  expect(list.body.items).toHaveLength(1);

  const sent = (await sentOf(WS)).invoice;
  // a payment of the whole amount due (issue 32: { paidAt, amount, reference? })
  const payment = { paidAt: new Date().toISOString().slice(0, 10), amount: sent.total };
  for (const [action, invoiceId] of [
    ['send', (await draftOf(WS)).invoice.id],
    ['pay', sent.id],
    ['void', (await draftOf(WS)).invoice.id],
  ] as const) {
    const k = randomUUID();
    const body = action === 'pay' ? payment : undefined;
    const first = await post(`${base}/invoices/${invoiceId}/${action}`, k, body);
    expect([action, first.status]).toEqual([action, 200]);
    const again = await post(`${base}/invoices/${invoiceId}/${action}`, k, body);
    expect([action, again.status, again.headers['Idempotent-Replayed']]).toEqual([action, 200, 'true']);
    expect(again.body).toEqual(first.body);
    // without the key the repeat is refused by the invoice's status
    const plain = await post(`${base}/invoices/${invoiceId}/${action}`, undefined, body);
    expect([action, plain.status]).toEqual([action, 409]);
  }
});

test('the console document lists Idempotency-Key, Idempotent-Replayed and the 422 on every console POST', async () => {
  const doc = (await api.call('GET', '/console/api/openapi.json')).body as { paths: Record<string, Record<string, any>> };
  const posts = Object.values(doc.paths).flatMap((p) => (p.post ? [p.post] : []));
  expect(posts.length).toBeGreaterThanOrEqual(9);
  for (const op of posts) {
    expect([op.operationId, op.parameters.some((p: { name: string; in: string }) => p.name === 'Idempotency-Key' && p.in === 'header')]).toEqual([op.operationId, true]);
    expect([op.operationId, Object.keys(op.responses)]).toEqual([op.operationId, expect.arrayContaining(['422'])]);
  }
});
