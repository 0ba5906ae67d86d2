import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/data/db';
import { entityKey } from '../../shared/data/keys';
import { reencryptSecrets, sealedKeyId } from '../../shared/webhooks/store';
import { localQueueDepth } from '../../local/queue';
import { webhooks } from '../../shared/domain/entities/webhooks';
import { workspaceWithKey } from '../resources/support';
import { apiClient, useTestTable } from '../support/harness';
import { type Receiver, until, useDeliveryRig } from './support';

/**
 * Rotating each secret of the deployment (docs/operations.md, "Rotating secrets") with live webhooks,
 * against DynamoDB Local and a real receiver on 127.0.0.1 that verifies every request with
 * `standardwebhooks`:
 * - the webhook key ring (WEBHOOK_SECRET_KEYS here; the WebhookKeys secret in AWS): a new current key seals
 *   new secrets, old ciphertexts still open (each names its key id), `reencryptSecrets` seals them all under
 *   the new key, after which the old key can leave the ring and every delivery still verifies;
 * - the cursor secret: deliveries are untouched (webhook secrets no longer derive from it); outstanding
 *   cursors of pages and of the change feed fail as documented (400 on `cursor`), and starting again
 *   reaches every record.
 */
process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
process.env.WEBHOOK_RETRY_SCHEDULE = '0.05,0.1,0.1,0.2,0.2';
process.env.WEBHOOK_TIMEOUT_MS = '1000';

useTestTable();
const api = apiClient();
const rig = useDeliveryRig();
const KEY = (id: string) => `${id}-webhook-key-material-of-at-least-32-characters`;
const ring = (current: string, ...ids: string[]) => JSON.stringify({ current, ...Object.fromEntries(ids.map((id) => [id, KEY(id)])) });
const savedRing = process.env.WEBHOOK_SECRET_KEYS;
const savedCursorSecret = process.env.CURSOR_SECRET;

afterEach(() => {
  process.env.WEBHOOK_SECRET_KEYS = savedRing;
  process.env.CURSOR_SECRET = savedCursorSecret;
});

const receiver = () => rig.receiver();
const start = () => rig.start();
const settled = () => until(async () => (await localQueueDepth()) === 0);
async function sealed(ws: string, id: string): Promise<{ secret: string; prev?: string }> {
  const item = (await db().send(new GetCommand({ TableName: tableName(), Key: entityKey(webhooks, ws, { id }), ConsistentRead: true }))).Item!;
  return { secret: String(item._secret), ...(item._prevSecret ? { prev: String(item._prevSecret) } : {}) };
}
/** Writes a client and waits until `r` verified its event (and no request failed verification). */
async function deliversTo(key: string, rs: Receiver[], name: string): Promise<void> {
  const res = await api.post('/v1/clients', { name }, { key });
  expect(res.status).toBe(201);
  for (const r of rs) await until(() => r.events().some((e) => e.event.resourceId === res.body.id));
  for (const r of rs) expect(r.unverified).toEqual([]);
}

test('rotating the webhook key ring: old ciphertexts keep signing, re-encryption moves them all, then the old key can go', async () => {
  process.env.WEBHOOK_SECRET_KEYS = ring('k1', 'k1');
  const { ws, key } = await workspaceWithKey('rot');
  const a = await receiver();
  const created = await api.post('/v1/webhooks', { url: a.url, events: ['client.*'] }, { key });
  expect(created.status).toBe(201);
  a.secrets = [created.body.secret];
  expect(sealedKeyId((await sealed(ws, created.body.id)).secret)).toBe('k1');
  start();
  await deliversTo(key, [a], 'before rotation');

  // Rotation step 1: a new key becomes current; k1 stays in the ring.
  process.env.WEBHOOK_SECRET_KEYS = ring('k2', 'k1', 'k2');
  await deliversTo(key, [a], 'k1 ciphertext, k2 current');
  const b = await receiver();
  const second = await api.post('/v1/webhooks', { url: b.url, events: ['client.*'] }, { key });
  b.secrets = [second.body.secret];
  expect(sealedKeyId((await sealed(ws, second.body.id)).secret)).toBe('k2');
  // A webhook's own rotation meanwhile: the new secret sealed under k2, the previous one (under k1) kept 24 h.
  const rotated = await api.post(`/v1/webhooks/${created.body.id}/rotate-secret`, undefined, { key });
  expect(rotated.status).toBe(200);
  const both = await sealed(ws, created.body.id);
  expect([sealedKeyId(both.secret), sealedKeyId(both.prev!)]).toEqual(['k2', 'k1']);
  // A receiver still on the old whsec_ verifies (signed with both), one on the new one too.
  const aNew = await receiver();
  aNew.secrets = [rotated.body.secret];
  await api.put(`/v1/webhooks/${created.body.id}`, { url: aNew.url }, { key });
  a.secrets = [created.body.secret];
  await deliversTo(key, [aNew, b], 'both keys in use');
  aNew.secrets = [created.body.secret];
  await deliversTo(key, [aNew], 'old whsec_ during its 24 hours');
  aNew.secrets = [rotated.body.secret];

  // Step 2: re-encrypt; every ciphertext (previous secrets included) is then under k2.
  const report = await reencryptSecrets();
  expect(report).toEqual(expect.objectContaining({ current: 'k2', reencrypted: 1, inUse: { k2: 3 } }));
  const after = await sealed(ws, created.body.id);
  expect([sealedKeyId(after.secret), sealedKeyId(after.prev!)]).toEqual(['k2', 'k2']);
  expect(after.secret).toBe(both.secret); // already under k2
  expect(after.prev).not.toBe(both.prev); // sealed again, the same whsec_ inside (the old receiver still verifies below)
  expect((await reencryptSecrets()).reencrypted).toBe(0);
  // The record itself did not change for the API (same representation, same ETag), and an update still works.
  expect((await api.put(`/v1/webhooks/${created.body.id}`, { description: 'after re-encryption' }, { key })).status).toBe(200);

  // Step 3: k1 leaves the ring; every delivery still verifies, with the new and the previous whsec_.
  process.env.WEBHOOK_SECRET_KEYS = ring('k2', 'k2');
  await deliversTo(key, [aNew, b], 'k1 removed');
  aNew.secrets = [created.body.secret];
  const ping = await api.post(`/v1/webhooks/${created.body.id}/test`, undefined, { key });
  expect(ping.status).toBe(200);
  await until(() => aNew.events().some((e) => e.id === ping.body.id));
  expect(aNew.unverified).toEqual([]);
  await settled();
});

test('removing a key that still seals a secret fails deliveries loudly (the documented reason to re-encrypt first)', async () => {
  process.env.WEBHOOK_SECRET_KEYS = ring('k1', 'k1');
  const { key } = await workspaceWithKey('rot');
  const r = await receiver();
  const created = await api.post('/v1/webhooks', { url: r.url, events: ['client.*'] }, { key });
  r.secrets = [created.body.secret];
  process.env.WEBHOOK_SECRET_KEYS = ring('k2', 'k2');
  const errors: string[] = [];
  rig.start((err) => void errors.push(String(err)));
  expect((await api.post('/v1/clients', { name: 'unreadable' }, { key })).status).toBe(201);
  await until(() => errors.some((e) => /key k1 is not in the webhook key ring/.test(e)));
  expect(r.requests).toHaveLength(0);
  // Putting k1 back (the runbook's undo) delivers the event.
  process.env.WEBHOOK_SECRET_KEYS = ring('k2', 'k1', 'k2');
  await until(() => r.events().length === 1, 50);
  expect(r.unverified).toEqual([]);
});

test('rotating the cursor secret: deliveries go on; page and feed cursors fail as documented and starting again reaches every record', async () => {
  const { key } = await workspaceWithKey('rot');
  const r = await receiver();
  const created = await api.post('/v1/webhooks', { url: r.url, events: ['time-entry.*'] }, { key });
  r.secrets = [created.body.secret];
  start();
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await api.post('/v1/time-entries', { userId: 'u1', startTime: `2026-03-0${i + 1}T09:00:00Z`, endTime: `2026-03-0${i + 1}T10:00:00Z` }, { key });
    expect(res.status).toBe(201);
    ids.push(res.body.id);
  }
  await until(() => r.events().length === 5);
  const page = await api.get('/v1/time-entries', { key, query: { limit: '2' } });
  const feed = await api.get('/v1/changes', { key, query: { limit: '2' } });
  expect([page.body.hasMore, feed.body.hasMore]).toEqual([true, true]);

  process.env.CURSOR_SECRET = 'a-rotated-cursor-secret';
  // Webhooks: new events are delivered and verify with the unchanged whsec_.
  const more = await api.post('/v1/time-entries', { userId: 'u1', startTime: '2026-03-09T09:00:00Z', endTime: '2026-03-09T10:00:00Z' }, { key });
  ids.push(more.body.id);
  await until(() => r.events().length === 6);
  expect(r.unverified).toEqual([]);
  // Cursors issued before: 400 on `cursor`, as docs/operations.md says.
  for (const [path, cursor] of [
    ['/v1/time-entries', page.body.nextCursor],
    ['/v1/changes', feed.body.nextCursor],
  ] as const) {
    const res = await api.get(path, { key, query: { cursor } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'cursor' })]);
  }
  // Starting again from the first page reaches every entry once; the feed restarted with `since` too.
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const res = await api.get('/v1/time-entries', { key, query: { limit: '2', ...(cursor ? { cursor } : {}) } });
    expect(res.status).toBe(200);
    seen.push(...res.body.items.map((e: { id: string }) => e.id));
    cursor = res.body.nextCursor;
  } while (cursor);
  expect(seen.sort()).toEqual([...ids].sort());
  const since = await api.get('/v1/changes', { key, query: { since: new Date(Date.now() - 3_600_000).toISOString(), limit: '200', types: 'time-entry.*' } });
  expect(since.status).toBe(200);
  expect(since.body.items.map((e: { resourceId: string }) => e.resourceId).sort()).toEqual([...ids].sort());
  await settled();
});
