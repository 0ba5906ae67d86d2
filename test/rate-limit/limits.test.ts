import { createApiKey } from '../../shared/data/apikey-store';
import { setRateLimitClock, windowAt } from '../../shared/data/rate-counter';
import { SCOPES, type Scope } from '../../shared/api/routes';
import { apiClient, makeKey, newWorkspace, tableSnapshot, useTestTable } from '../support/harness';
import { at, awayFromMinuteEnd, counterItem, fakeClock, parseRateLimit, recordDynamoCalls } from './support';

useTestTable();
const api = apiClient();
afterEach(() => setRateLimitClock());

const ALL = [...SCOPES] as Scope[];
const newKey = async (ws: string, perMinute: number, perHour = 1000, scopes: Scope[] = ALL) => createApiKey({ workspaceId: ws, name: 'rl', scopes, perMinute, perHour });

test('a key limited to 5 a minute: 5 pass, the 6th is 403 with Retry-After 1..60; another key of the workspace is unaffected', async () => {
  const ws = newWorkspace();
  const limited = await makeKey(ws, { perMinute: 5 });
  const other = await makeKey(ws, { perMinute: 5 });
  await awayFromMinuteEnd(10); // real clock: keep the 6 requests inside one minute
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push((await api.get('/v1/clients', { key: limited })).status);
  expect(statuses).toEqual([200, 200, 200, 200, 200]);

  const sixth = await api.get('/v1/clients', { key: limited });
  expect(sixth.status).toBe(403);
  expect(sixth.body.error.code).toBe('FORBIDDEN');
  expect(sixth.body.error.message).toBe('Rate limit exceeded: 5 requests per minute');
  const retryAfter = Number(sixth.headers['Retry-After']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(parseRateLimit(sixth.headers.RateLimit).minute).toEqual({ r: 0, t: retryAfter });
  // The reason for machines: a rate limit (retry after retryAfter seconds), not a missing scope.
  expect(sixth.body.error.details).toEqual([{ reason: 'RATE_LIMITED', window: 'minute', limit: 5, retryAfter }]);

  // Same workspace, another key: its own quota, untouched.
  for (let i = 0; i < 5; i++) expect((await api.get('/v1/clients', { key: other })).status).toBe(200);
  expect((await api.get('/v1/clients', { key: other })).status).toBe(403);
  // And the first key stays refused for the rest of the minute.
  expect((await api.get('/v1/clients', { key: limited })).status).toBe(403);
});

test('25 concurrent requests against a limit of 10: exactly 10 pass and 15 get 403', async () => {
  const clock = fakeClock(at('2031-05-06T10:00:23Z'));
  const ws = newWorkspace();
  const { key, record } = await newKey(ws, 10);
  const results = await Promise.all(Array.from({ length: 25 }, () => api.get('/v1/clients', { key })));
  const statuses = results.map((r) => r.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(10);
  expect(statuses.filter((s) => s === 403)).toHaveLength(15);
  for (const r of results.filter((x) => x.status === 403)) {
    expect(r.body.error.message).toBe('Rate limit exceeded: 10 requests per minute');
    expect(r.headers['Retry-After']).toBe('37');
  }
  // The remaining counts handed out are exactly 9..0, once each: every accepted request was counted once.
  const remaining = results
    .filter((x) => x.status === 200)
    .map((r) => parseRateLimit(r.headers.RateLimit).minute!.r)
    .sort((a, b) => a! - b!);
  expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  // Rejected requests are not counted.
  const item = await counterItem(record.id, windowAt(clock.now()).hourStart);
  expect(item).toMatchObject({ h: 10, m00: 10 });
});

test('a key limited to 7 an hour (100 a minute): the 8th request gets 403 naming the hour limit', async () => {
  const clock = fakeClock(at('2031-05-06T10:00:23Z'));
  const ws = newWorkspace();
  const { key } = await newKey(ws, 100, 7);
  // Spread over several minutes: the hour count adds them all up.
  for (let i = 0; i < 7; i++) {
    clock.set(at('2031-05-06T10:00:23Z') + i * 5 * 60_000);
    expect((await api.get('/v1/clients', { key })).status).toBe(200);
  }
  clock.set(at('2031-05-06T10:40:00Z'));
  const eighth = await api.get('/v1/clients', { key });
  expect(eighth.status).toBe(403);
  expect(eighth.body.error.message).toBe('Rate limit exceeded: 7 requests per hour');
  expect(eighth.headers['Retry-After']).toBe(String(20 * 60));
  expect(eighth.body.error.details).toEqual([{ reason: 'RATE_LIMITED', window: 'hour', limit: 7, retryAfter: 1200 }]);
  expect(parseRateLimit(eighth.headers.RateLimit)).toEqual({ minute: { r: 100, t: 60 }, hour: { r: 0, t: 1200 } });
});

test('both limits exhausted: the hour limit is reported (waiting for the next minute would not help)', async () => {
  fakeClock(at('2031-05-06T10:59:10Z'));
  const { key } = await newKey(newWorkspace(), 3, 3);
  for (let i = 0; i < 3; i++) expect((await api.get('/v1/clients', { key })).status).toBe(200);
  const r = await api.get('/v1/clients', { key });
  expect(r.status).toBe(403);
  expect(r.body.error.message).toBe('Rate limit exceeded: 3 requests per hour');
  expect(r.headers['Retry-After']).toBe('50');
  expect(r.body.error.details).toEqual([{ reason: 'RATE_LIMITED', window: 'hour', limit: 3, retryAfter: 50 }]);
});

test('keys do not share counters (same workspace or not)', async () => {
  const clock = fakeClock(at('2031-05-06T10:00:23Z'));
  const ws1 = newWorkspace();
  const ws2 = newWorkspace();
  const a = await newKey(ws1, 2);
  const b = await newKey(ws1, 2);
  const c = await newKey(ws2, 2);
  for (let i = 0; i < 2; i++) expect((await api.get('/v1/clients', { key: a.key })).status).toBe(200);
  expect((await api.get('/v1/clients', { key: a.key })).status).toBe(403);
  for (const k of [b, c]) {
    const first = await api.get('/v1/clients', { key: k.key });
    expect(first.status).toBe(200);
    expect(parseRateLimit(first.headers.RateLimit).minute!.r).toBe(1);
  }
  const hour = windowAt(clock.now()).hourStart;
  expect(await counterItem(a.record.id, hour)).toMatchObject({ h: 2 });
  expect(await counterItem(b.record.id, hour)).toMatchObject({ h: 1 });
  expect(await counterItem(c.record.id, hour)).toMatchObject({ h: 1 });
});

test('successful responses carry RateLimit-Policy and RateLimit, counting down', async () => {
  fakeClock(at('2031-05-06T10:00:23Z'));
  const { key } = await newKey(newWorkspace(), 5, 1000);
  const created = await api.post('/v1/clients', { name: 'Acme' }, { key });
  expect(created.status).toBe(201);
  expect(created.headers['RateLimit-Policy']).toBe('"minute";q=5;w=60, "hour";q=1000;w=3600');
  expect(created.headers.RateLimit).toBe('"minute";r=4;t=37, "hour";r=999;t=3577');
  const list = await api.get('/v1/clients', { key });
  expect(list.status).toBe(200);
  expect(list.headers.RateLimit).toBe('"minute";r=3;t=37, "hour";r=998;t=3577');
  expect(list.headers['X-Request-Id']).toBeDefined();
  expect(list.headers['Retry-After']).toBeUndefined();
});

test('every other response of an authenticated request carries the quota too (404, 400, scope 403)', async () => {
  fakeClock(at('2031-05-06T10:00:23Z'));
  const ws = newWorkspace();
  const { key } = await newKey(ws, 50);
  const readOnly = await newKey(ws, 50, 1000, ['clients:read']);
  const notFound = await api.get('/v1/clients/nope', { key });
  const invalid = await api.post('/v1/clients', { name: '' }, { key });
  const noScope = await api.post('/v1/clients', { name: 'X' }, { key: readOnly.key });
  for (const [res, status] of [
    [notFound, 404],
    [invalid, 400],
    [noScope, 403],
  ] as const) {
    expect(res.status).toBe(status);
    expect(res.headers['RateLimit-Policy']).toBe('"minute";q=50;w=60, "hour";q=1000;w=3600');
    expect(res.headers.RateLimit).toMatch(/^"minute";r=\d+;t=37, "hour";r=\d+;t=3577$/);
  }
  expect(noScope.body.error.message).toContain('lacks the required scope');
});

test('a request over the limit does no other work: the counter call, then one ADD to the hour item (the rate-limited count of the console usage chart), nothing else written, no handler', async () => {
  fakeClock(at('2031-05-06T10:00:23Z'));
  const { key } = await newKey(newWorkspace(), 1);
  expect((await api.post('/v1/clients', { name: 'First' }, { key })).status).toBe(201);
  const before = await tableSnapshot({ rateCounters: true });
  const rec = recordDynamoCalls();
  try {
    const r = await api.post('/v1/clients', { name: 'Second' }, { key });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toBe('Rate limit exceeded: 1 requests per minute');
  } finally {
    rec.stop();
  }
  expect(rec.calls).toEqual([
    { command: 'UpdateItemCommand', pk: expect.stringMatching(/^RATE#key_/) },
    { command: 'UpdateItemCommand', pk: expect.stringMatching(/^RATE#key_/) },
  ]);
  // The counts of accepted requests unchanged (the condition failed), no client created; only the hour
  // item's rate-limited count `r` went up by one (docs/decisions.md, "The console").
  const parse = (items: string[]) => items.map((i) => JSON.parse(i) as Record<string, unknown>);
  const withoutR = (items: string[]) => parse(items).map(({ r: _r, ...rest }) => JSON.stringify(rest));
  const after = await tableSnapshot({ rateCounters: true });
  expect(withoutR(after)).toEqual(withoutR(before));
  const refused = (items: string[]) => parse(items).reduce((n, i) => n + Number(i.r ?? 0), 0);
  expect(refused(after)).toBe(refused(before) + 1);
});

test('an accepted request adds exactly one DynamoDB call: one UpdateItem on the counter', async () => {
  fakeClock(at('2031-05-06T10:00:23Z'));
  const { key } = await newKey(newWorkspace(), 100);
  await api.get('/v1/clients', { key }); // warm the authorizer cache
  const rec = recordDynamoCalls();
  try {
    for (let i = 0; i < 10; i++) expect((await api.get('/v1/clients', { key })).status).toBe(200);
  } finally {
    rec.stop();
  }
  const rate = rec.calls.filter((c) => c.pk?.startsWith('RATE#'));
  expect(rate).toHaveLength(10);
  expect(new Set(rate.map((c) => c.command))).toEqual(new Set(['UpdateItemCommand']));
});

test('the public OpenAPI route is not limited, counts nothing and carries no quota headers', async () => {
  fakeClock(at('2031-05-06T10:00:23Z'));
  const rec = recordDynamoCalls();
  try {
    const results = await Promise.all(Array.from({ length: 80 }, () => api.get('/v1/openapi.json')));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results[0]!.headers['RateLimit-Policy']).toBeUndefined();
    expect(results[0]!.headers.RateLimit).toBeUndefined();
  } finally {
    rec.stop();
  }
  expect(rec.calls).toEqual([]);
});

test('the OpenAPI document declares the quota headers and the rate-limit 403 with Retry-After', async () => {
  const doc = (await api.get('/v1/openapi.json')).body;
  const ok = doc.paths['/v1/clients'].get.responses['200'];
  expect(Object.keys(ok.headers)).toEqual(['RateLimit-Policy', 'RateLimit', 'Access-Control-Allow-Origin', 'Access-Control-Expose-Headers']);
  expect(doc.paths['/v1/clients'].get.responses['403']).toEqual({ $ref: '#/components/responses/Forbidden' });
  const forbidden = doc.components.responses.Forbidden;
  expect(Object.keys(forbidden.headers)).toEqual(['Retry-After', 'RateLimit-Policy', 'RateLimit', 'Access-Control-Allow-Origin', 'Access-Control-Expose-Headers']);
  expect(forbidden.description).toMatch(/rate limit/i);
  // the 403 says which it was, for machines: RATE_LIMITED (retry) or MISSING_SCOPE (do not)
  expect(JSON.stringify(doc.components.schemas.ErrorResponse)).toContain('RateLimitedDetail');
  expect(doc.components.schemas.RateLimitedDetail.required).toEqual(['reason', 'window', 'limit', 'retryAfter']);
  expect(doc.components.schemas.MissingScopeDetail.required).toEqual(['reason', 'scope']);
  // the public document is not counted per key: no quota headers
  expect(Object.keys(doc.paths['/v1/openapi.json'].get.responses['200'].headers)).toEqual(['Access-Control-Allow-Origin', 'Access-Control-Expose-Headers']);
});
