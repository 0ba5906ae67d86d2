import '../hygiene/debug-logs';
import { activeKeyCount, createApiKey, findById } from '../../shared/data/apikey-store';
import { newWorkspace, useTestTable } from '../support/harness';
import { consoleClient, person, startOidc, type Oidc } from './support';

/**
 * Issue 36 items 1 and 3, the console API's key rules against DynamoDB Local, signed in for real: PATCH
 * changes only what it is sent; a rolled pair says so (`replaces` / `replacedBy`); a roll during the grace
 * gives the successor the expiry from before the first roll; concurrent rolls make one successor; PATCH
 * cannot bring an expired key back outside the active-key bound.
 */
useTestTable();
jest.setTimeout(120_000);
let oidc: Oidc;
const api = consoleClient();
let owner: { token: string; email: string };
const WS = newWorkspace('keys');
const base = `/console/api/workspaces/${WS}/api-keys`;

beforeAll(async () => {
  oidc = await startOidc();
  owner = await person(oidc.issuer, WS, 'owner', 'owner');
});
afterAll(async () => {
  await oidc.stop();
});

const create = async (body: Record<string, unknown>) => {
  const r = await api.call('POST', base, { token: owner.token, body });
  expect(r.status).toBe(201);
  return r.body as { key: string; apiKey: Record<string, unknown> & { id: string } };
};
const get = async (id: string) => (await api.call('GET', `${base}/${id}`, { token: owner.token })).body;
const roll = (id: string, expireOldInSeconds: number) => api.call('POST', `${base}/${id}/roll`, { token: owner.token, body: { expireOldInSeconds } });

test('PATCH of one field keeps every other field, the expiry to the second', async () => {
  const expiresAt = new Date(Date.now() + 90 * 86_400_000).toISOString();
  const { apiKey } = await create({ name: 'ninety days', scopes: ['clients:read', 'tags:write'], perMinute: 7, perHour: 70, expiresAt });
  expect(apiKey.expiresAt).toBe(expiresAt);
  const renamed = await api.call('PATCH', `${base}/${apiKey.id}`, { token: owner.token, body: { name: 'renamed' } });
  expect(renamed.status).toBe(200);
  expect(renamed.body).toEqual({ ...apiKey, name: 'renamed' });
  expect(await get(apiKey.id)).toEqual({ ...apiKey, name: 'renamed' });
  const limited = await api.call('PATCH', `${base}/${apiKey.id}`, { token: owner.token, body: { perMinute: 5 } });
  expect(limited.body).toEqual({ ...apiKey, name: 'renamed', perMinute: 5 });
  const scoped = await api.call('PATCH', `${base}/${apiKey.id}`, { token: owner.token, body: { scopes: ['clients:read'] } });
  expect(scoped.body).toEqual({ ...apiKey, name: 'renamed', perMinute: 5, scopes: ['clients:read'] });
  expect((await get(apiKey.id)).expiresAt).toBe(expiresAt);
  // only an explicit null clears the expiry
  expect((await api.call('PATCH', `${base}/${apiKey.id}`, { token: owner.token, body: { expiresAt: null } })).body.expiresAt).toBeNull();
});

test('a roll links the pair: the new key replaces the old, the old is replacedBy the new', async () => {
  const { apiKey } = await create({ name: 'pair', scopes: ['clients:read'] });
  expect(apiKey).toMatchObject({ replaces: null, replacedBy: null });
  const r = await roll(apiKey.id, 3600);
  expect(r.status).toBe(201);
  expect(r.body.apiKey).toMatchObject({ replaces: apiKey.id, replacedBy: null, name: 'pair' });
  expect(r.body.previous).toMatchObject({ id: apiKey.id, replacedBy: r.body.apiKey.id, replaces: null });
  expect(await get(apiKey.id)).toMatchObject({ replacedBy: r.body.apiKey.id, status: 'active' });
  expect(await get(r.body.apiKey.id)).toMatchObject({ replaces: apiKey.id });
  const list = (await api.call('GET', base, { token: owner.token })).body.items as Array<{ id: string; replaces: string | null; replacedBy: string | null }>;
  expect(list.find((k) => k.id === apiKey.id)?.replacedBy).toBe(r.body.apiKey.id);
  expect(list.find((k) => k.id === r.body.apiKey.id)?.replaces).toBe(apiKey.id);
});

test('a key rolled again during its grace gives a successor the expiry it had before its first roll', async () => {
  const expiresAt = new Date(Date.now() + 90 * 86_400_000).toISOString();
  const { apiKey } = await create({ name: 'rolled twice', scopes: ['clients:read'], expiresAt });
  const first = await roll(apiKey.id, 3600);
  expect(first.body.apiKey.expiresAt).toBe(expiresAt);
  const graceEnd = Date.parse(first.body.previous.expiresAt);
  expect(graceEnd).toBeLessThan(Date.now() + 3601_000);
  // while its successor is active, the old key cannot be rolled again (roll the successor instead)
  const refused = await roll(apiKey.id, 7200);
  expect([refused.status, refused.body.error.message]).toEqual([409, expect.stringContaining(first.body.apiKey.prefix)]);
  // the successor's secret was lost: revoke it and roll the old key again, still in its grace
  expect((await api.call('DELETE', `${base}/${first.body.apiKey.id}`, { token: owner.token })).status).toBe(200);
  const second = await roll(apiKey.id, 7200);
  expect(second.status).toBe(201);
  expect(second.body.apiKey.expiresAt).toBe(expiresAt); // not the grace's end
  expect(second.body.apiKey.replaces).toBe(apiKey.id);
  expect(Date.parse(second.body.previous.expiresAt)).toBe(graceEnd); // the grace is never extended
  expect(second.body.previous.replacedBy).toBe(second.body.apiKey.id);
  // a key without expiry: its successors never expire, however often it is rolled in its grace
  const never = await create({ name: 'never', scopes: ['clients:read'] });
  const lost = await roll(never.apiKey.id, 3600);
  await api.call('DELETE', `${base}/${lost.body.apiKey.id}`, { token: owner.token });
  const again = await roll(never.apiKey.id, 60);
  expect(again.body.apiKey.expiresAt).toBeNull();
});

test('10 concurrent rolls of one key make one successor; the others are 409 and change nothing', async () => {
  const { apiKey } = await create({ name: 'raced', scopes: ['clients:read'] });
  const before = await activeKeyCount(WS);
  const results = await Promise.all(Array.from({ length: 10 }, () => roll(apiKey.id, 600)));
  const made = results.filter((r) => r.status === 201);
  expect(made).toHaveLength(1);
  expect(results.filter((r) => r.status === 409)).toHaveLength(9);
  for (const r of results) if (r.status === 409) expect(r.body.error.code).toBe('CONFLICT');
  expect(await activeKeyCount(WS)).toBe(before + 1);
  const successors = ((await api.call('GET', base, { token: owner.token })).body.items as Array<{ replaces: string | null }>).filter((k) => k.replaces === apiKey.id);
  expect(successors).toHaveLength(1);
  expect((await get(apiKey.id)).replacedBy).toBe(made[0]!.body.apiKey.id);
});

test('PATCH cannot bring an expired key back outside the active-key bound: 409 at the bound, a slot taken below it', async () => {
  process.env.MAX_ACTIVE_KEYS = '6';
  try {
    const ws = newWorkspace('bound');
    const o = await person(oidc.issuer, ws, 'owner', 'bound');
    const path = `/console/api/workspaces/${ws}/api-keys`;
    const soon = new Date(Date.now() + 1500).toISOString();
    const expired = await Promise.all(Array.from({ length: 6 }, () => createApiKey({ workspaceId: ws, name: 'short', scopes: ['clients:read'], expiresAt: soon })));
    await new Promise((r) => setTimeout(r, 2000));
    // an expired key that still holds its slot may come back: the bound is unchanged
    const held = await api.call('PATCH', `${path}/${expired[0]!.record.id}`, { token: o.token, body: { expiresAt: null } });
    expect([held.status, held.body.status]).toEqual([200, 'active']);
    expect(await activeKeyCount(ws)).toBe(6);
    // creates at the bound release the expired keys' slots, then fill the bound
    const fresh = [];
    for (let i = 0; i < 5; i++) fresh.push(await api.call('POST', path, { token: o.token, body: { name: `fresh ${i}`, scopes: ['clients:read'] } }));
    expect(fresh.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(await activeKeyCount(ws)).toBe(6);
    const target = expired[1]!.record.id;
    const refused = await api.call('PATCH', `${path}/${target}`, { token: o.token, body: { expiresAt: null } });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'CONFLICT']);
    expect(refused.body.error.message).toContain('at most 6 active API keys');
    expect((await findById(target))?.expiresAt).toBe(soon);
    const later = new Date(Date.now() + 86_400_000).toISOString();
    expect((await api.call('PATCH', `${path}/${target}`, { token: o.token, body: { expiresAt: later } })).status).toBe(409);
    // a name change of an expired key is fine: it stays expired and takes no slot
    expect((await api.call('PATCH', `${path}/${target}`, { token: o.token, body: { name: 'still expired' } })).body.status).toBe('expired');
    const listed = (await api.call('GET', path, { token: o.token })).body.items as Array<{ status: string }>;
    expect(listed.filter((k) => k.status === 'active')).toHaveLength(6);
    // a revoke frees a slot: the expired key may then come back, and takes that slot
    expect((await api.call('DELETE', `${path}/${fresh[0]!.body.apiKey.id}`, { token: o.token })).status).toBe(200);
    const back = await api.call('PATCH', `${path}/${target}`, { token: o.token, body: { expiresAt: null } });
    expect([back.status, back.body.status]).toEqual([200, 'active']);
    expect(await activeKeyCount(ws)).toBe(6);
    // a key whose roll grace ended counts the same way
    const graceEnded = await api.call('POST', `${path}/${fresh[1]!.body.apiKey.id}/roll`, { token: o.token, body: { expireOldInSeconds: 0 } });
    expect(graceEnded.status).toBe(409); // the successor needs a slot: none free
    expect((await api.call('DELETE', `${path}/${fresh[2]!.body.apiKey.id}`, { token: o.token })).status).toBe(200);
    const rolled = await api.call('POST', `${path}/${fresh[1]!.body.apiKey.id}/roll`, { token: o.token, body: { expireOldInSeconds: 0 } });
    expect(rolled.status).toBe(201);
    const afterRoll = (await api.call('GET', path, { token: o.token })).body.items as Array<{ status: string }>;
    expect(afterRoll.filter((k) => k.status === 'active')).toHaveLength(5); // the old key's grace ended at once; it keeps its slot
    // until a create at the bound releases it
    expect((await api.call('POST', path, { token: o.token, body: { name: 'takes the slot', scopes: ['clients:read'] } })).status).toBe(201);
    const revive = await api.call('PATCH', `${path}/${fresh[1]!.body.apiKey.id}`, { token: o.token, body: { expiresAt: null } });
    expect(revive.status).toBe(409);
    const final = (await api.call('GET', path, { token: o.token })).body.items as Array<{ status: string }>;
    expect(final.filter((k) => k.status === 'active')).toHaveLength(6);
  } finally {
    delete process.env.MAX_ACTIVE_KEYS;
  }
});
