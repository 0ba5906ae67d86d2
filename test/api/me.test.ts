import { createApiKey, revokeApiKey } from '../../shared/data/apikey-store';
import { setRateLimitClock, windowAt } from '../../shared/data/rate-counter';
import { decodeAuthContext } from '../../shared/api/auth';
import { apiClient, makeKey, newWorkspace, useTestTable } from '../support/harness';
import { at, fakeClock, parseRateLimit } from '../rate-limit/support';

/**
 * GET /v1/me: the calling key as the API enforces it, and its quota in both windows. Any valid key may
 * call it (no scope), it is counted and limited like every route, and it never shows the key itself.
 */
useTestTable();
const api = apiClient();
afterEach(() => setRateLimitClock());

test("the calling key's id, name, workspace, scopes, limits, expiry and quota in both windows", async () => {
  const clock = fakeClock(at('2031-05-06T10:07:15Z'));
  const ws = newWorkspace('me');
  const { key, record } = await createApiKey({
    workspaceId: ws,
    name: 'Reporting script',
    scopes: ['clients:read', 'time-entries:read'],
    perMinute: 20,
    perHour: 300,
    expiresAt: '2032-01-01T00:00:00.000Z',
  });
  expect((await api.get('/v1/clients', { key })).status).toBe(200); // one request already counted
  const res = await api.get('/v1/me', { key });
  expect(res.status).toBe(200);
  const w = windowAt(clock.now());
  expect(res.body).toEqual({
    id: record.id,
    name: 'Reporting script',
    workspaceId: ws,
    scopes: ['clients:read', 'time-entries:read'],
    limits: { perMinute: 20, perHour: 300 },
    expiresAt: '2032-01-01T00:00:00.000Z',
    quota: {
      minute: { limit: 20, remaining: 18, resetSeconds: w.minuteResetSeconds },
      hour: { limit: 300, remaining: 298, resetSeconds: w.hourResetSeconds },
    },
  });
  expect(w.minuteResetSeconds).toBe(45);
  expect(w.hourResetSeconds).toBe(53 * 60 - 15);
  // The same numbers as the quota headers of the answer.
  expect(parseRateLimit(res.headers.RateLimit)).toEqual({ minute: { r: 18, t: 45 }, hour: { r: 298, t: 3165 } });
  expect(res.text).not.toContain(key);
});

test('a key without expiry says expiresAt null; a key holding no scope at all may still call it', async () => {
  const ws = newWorkspace('me');
  const { key, record } = await createApiKey({ workspaceId: ws, name: 'no scopes', scopes: [] });
  const res = await api.get('/v1/me', { key });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ id: record.id, name: 'no scopes', scopes: [], expiresAt: null, limits: { perMinute: 60, perHour: 1000 } });
});

test('it is rate-limited like every route: over the minute limit it is 403 RATE_LIMITED', async () => {
  fakeClock(at('2031-05-06T10:00:23Z'));
  const { key } = await createApiKey({ workspaceId: newWorkspace('me'), name: 'tight', scopes: [], perMinute: 2 });
  expect((await api.get('/v1/me', { key })).body.quota.minute.remaining).toBe(1);
  expect((await api.get('/v1/me', { key })).body.quota.minute.remaining).toBe(0);
  const third = await api.get('/v1/me', { key });
  expect(third.status).toBe(403);
  expect(third.body.error.details).toEqual([{ reason: 'RATE_LIMITED', window: 'minute', limit: 2, retryAfter: 37 }]);
  expect(third.headers['Retry-After']).toBe('37');
});

test('without a key, with a malformed or a revoked key: 401 (the gateway answers before the function)', async () => {
  expect((await api.get('/v1/me')).status).toBe(401);
  expect((await api.get('/v1/me', { key: 'svc_live_nope' })).status).toBe(401);
  const ws = newWorkspace('me');
  const { key, record } = await createApiKey({ workspaceId: ws, name: 'gone', scopes: [] });
  await revokeApiKey(record.id);
  const fresh = apiClient(); // no cached authorizer answer
  expect((await fresh.get('/v1/me', { key })).status).toBe(401);
});

test('unknown query parameters are a 400 like on every route', async () => {
  const key = await makeKey(newWorkspace('me'));
  const res = await api.get('/v1/me', { key, query: { verbose: '1' } });
  expect(res.status).toBe(400);
  expect(res.body.error.details).toEqual([{ field: 'verbose', message: 'unknown query parameter' }]);
});

test("an authorizer answer cached before the key's name travelled in it: the name is read from the key record", async () => {
  const ws = newWorkspace('me');
  const { key, record } = await createApiKey({ workspaceId: ws, name: 'Older context', scopes: [] });
  const { handler } = await import('../../functions/me/index');
  const { keyName: _dropped, ...context } = decodeAuthContext({ workspaceId: ws, keyId: record.id, keyName: 'x', scopes: '', perMinute: 60, perHour: 1000 });
  void _dropped;
  const res = await handler(
    {
      resource: '/v1/me',
      path: '/v1/me',
      httpMethod: 'GET',
      headers: { 'X-API-Key': key },
      multiValueHeaders: {},
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters: null,
      stageVariables: null,
      body: null,
      isBase64Encoded: false,
      requestContext: { requestId: 'req-me-1', path: '/v1/me', authorizer: { ...context, scopes: '' } } as never,
    },
    { awsRequestId: 'req-me-1', functionName: 'me', getRemainingTimeInMillis: () => 5000 } as never,
  );
  expect(res.statusCode).toBe(200);
  expect(JSON.parse(res.body)).toMatchObject({ id: record.id, name: 'Older context', workspaceId: ws });
});
