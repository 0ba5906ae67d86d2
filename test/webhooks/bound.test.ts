import { localQueueDepth } from '../../local/queue';
import { MAX_WEBHOOKS_DEFAULT } from '../../shared/domain/entities/webhooks';
import { apiClient, makeKey, newWorkspace, useTestTable } from '../support/harness';
import { HIGH_LIMITS } from '../resources/support';
import { until, useDeliveryRig } from './support';

/**
 * Issue 22 item 4: the webhook list is bounded like every whole list (MAX_WEBHOOKS, default 20, counted
 * exactly in the create's own transaction), so one change fans out to at most MAX_WEBHOOKS signed POSTs.
 */
process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
process.env.WEBHOOK_RETRY_SCHEDULE = '0.05';
useTestTable();
const api = apiClient();
const rig = useDeliveryRig();
beforeEach(() => {
  // creates of one list serialize on its counter: give the retries room on a loaded machine (no timed assertion)
  process.env.WRITE_CONTENTION_BUDGET_MS = '150000';
});
afterEach(async () => {
  delete process.env.MAX_WEBHOOKS;
  delete process.env.WRITE_CONTENTION_BUDGET_MS;
});
jest.setTimeout(180_000);
const receiver = () => rig.receiver();
const workspaceKey = async () => makeKey(newWorkspace('hook-bound'), HIGH_LIMITS);

test('20 concurrent creates against a bound of 5: exactly 5 created, 15 answered 409 naming MAX_WEBHOOKS; a delete frees a place', async () => {
  process.env.MAX_WEBHOOKS = '5';
  const key = await workspaceKey();
  const r = await receiver();
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => api.post('/v1/webhooks', { url: `${r.url}?n=${i}`, events: ['*'] }, { key })));
  const created = results.filter((res) => res.status === 201);
  const refused = results.filter((res) => res.status !== 201);
  expect([created.length, refused.length]).toEqual([5, 15]);
  for (const res of refused)
    expect([res.status, res.body.error.code, res.body.error.message]).toEqual([409, 'CONFLICT', expect.stringContaining('at most 5 webhooks (MAX_WEBHOOKS)')]);
  expect((await api.get('/v1/webhooks', { key })).body.items).toHaveLength(5);
  expect((await api.del(`/v1/webhooks/${created[0]!.body.id}`, { key })).status).toBe(200);
  expect((await api.post('/v1/webhooks', { url: r.url, events: ['*'] }, { key })).status).toBe(201);
  expect((await api.post('/v1/webhooks', { url: r.url, events: ['*'] }, { key })).status).toBe(409);
});

test(`by default at most ${MAX_WEBHOOKS_DEFAULT} endpoints, so one tag write makes at most ${MAX_WEBHOOKS_DEFAULT} signed POSTs, all verified`, async () => {
  const key = await workspaceKey();
  const r = await receiver();
  for (let i = 0; i < MAX_WEBHOOKS_DEFAULT; i++) {
    const res = await api.post('/v1/webhooks', { url: r.url, events: ['tag.*'] }, { key });
    expect(res.status).toBe(201);
    r.secrets.push(res.body.secret);
  }
  const over = await api.post('/v1/webhooks', { url: r.url, events: ['tag.*'] }, { key });
  expect([over.status, over.body.error.message]).toEqual([409, expect.stringContaining(`at most ${MAX_WEBHOOKS_DEFAULT} webhooks (MAX_WEBHOOKS)`)]);
  rig.start();
  expect((await api.post('/v1/tags', { name: 'one write' }, { key })).status).toBe(201);
  await until(() => r.requests.length >= MAX_WEBHOOKS_DEFAULT);
  await until(async () => (await localQueueDepth()) === 0);
  expect(r.requests).toHaveLength(MAX_WEBHOOKS_DEFAULT);
  expect(r.unverified).toEqual([]);
});
