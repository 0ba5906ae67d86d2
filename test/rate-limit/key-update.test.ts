import { run, UsageError } from '../../admin/cli';
import { createGateway } from '../../local/gateway';
import { createApiKey, findById } from '../../shared/data/apikey-store';
import { setRateLimitClock } from '../../shared/data/rate-counter';
import { SCOPES, type Scope } from '../../shared/api/routes';
import { apiClient, newWorkspace, useTestTable } from '../support/harness';
import { at, fakeClock } from './support';

/**
 * Limits come from the key record through the authorizer's (cached) context: `keys update` changes
 * them, and the change applies once the authorizer cache entry expires (5 minutes on AWS).
 */
useTestTable();
afterEach(() => setRateLimitClock());

const newKey = (perMinute: number, perHour: number) => createApiKey({ workspaceId: newWorkspace(), name: 'rl', scopes: [...SCOPES] as Scope[], perMinute, perHour });
const cli = async (...argv: string[]) => {
  const out: string[] = [];
  const code = await run(argv, (s) => out.push(s));
  return { code, out: out.join('\n') };
};

test('keys update --per-minute/--per-hour: the new limits apply once the authorizer cache expires', async () => {
  // One clock for the limiter and for the gateway's authorizer cache (300 s, as deployed).
  const clock = fakeClock(at('2031-05-06T10:00:05Z'));
  const api = apiClient(createGateway({ authCacheTtlSeconds: 300, now: clock.now }));
  const { key, record } = await newKey(5, 1000);
  for (let i = 0; i < 2; i++) expect((await api.get('/v1/clients', { key })).status).toBe(200);

  const { code, out } = await cli('keys', 'update', record.id, '--per-minute', '3', '--per-hour', '50');
  expect(code).toBe(0);
  expect(out).toContain('3/min, 50/hour');
  expect(await findById(record.id)).toMatchObject({ perMinute: 3, perHour: 50 });

  // Still cached: the old limit (5) holds, so requests 3..5 of this minute pass.
  clock.set(at('2031-05-06T10:00:30Z'));
  const cached = await api.get('/v1/clients', { key });
  expect(cached.status).toBe(200);
  expect(cached.headers['RateLimit-Policy']).toBe('"minute";q=5;w=60, "hour";q=1000;w=3600');

  // The cache entry expires (5 minutes after it was made): the new limits are in force.
  clock.set(at('2031-05-06T10:05:06Z'));
  const statuses: number[] = [];
  let last;
  for (let i = 0; i < 4; i++) {
    last = await api.get('/v1/clients', { key });
    statuses.push(last.status);
  }
  expect(statuses).toEqual([200, 200, 200, 403]);
  expect(last!.body.error.message).toBe('Rate limit exceeded: 3 requests per minute');
  expect(last!.headers['RateLimit-Policy']).toBe('"minute";q=3;w=60, "hour";q=50;w=3600');
});

test('keys update raises a limit: a key refused at its old limit passes again (cache cleared)', async () => {
  fakeClock(at('2031-05-06T10:00:05Z'));
  const api = apiClient(createGateway({ authCacheTtlSeconds: 1 }));
  const { key, record } = await newKey(2, 1000);
  expect((await api.get('/v1/clients', { key })).status).toBe(200);
  expect((await api.get('/v1/clients', { key })).status).toBe(200);
  expect((await api.get('/v1/clients', { key })).status).toBe(403);
  expect((await cli('keys', 'update', record.id, '--per-minute', '4')).code).toBe(0);
  api.gateway.clearAuthCache();
  const again = await api.get('/v1/clients', { key });
  expect(again.status).toBe(200);
  expect(again.headers.RateLimit).toMatch(/^"minute";r=1;/);
  expect(await findById(record.id)).toMatchObject({ perMinute: 4, perHour: 1000 });
});

test('keys update rejects bad arguments and unknown keys', async () => {
  const { record } = await newKey(5, 1000);
  await expect(cli('keys', 'update', record.id)).rejects.toThrow(UsageError);
  await expect(cli('keys', 'update', record.id, '--per-minute', '0')).rejects.toThrow(/positive integer/);
  await expect(cli('keys', 'update', record.id, '--per-hour', 'ten')).rejects.toThrow(/positive integer/);
  await expect(cli('keys', 'update', 'key_doesnotexist', '--per-minute', '3')).rejects.toThrow(/No key with id/);
  expect(await findById(record.id)).toMatchObject({ perMinute: 5, perHour: 1000 });
  const json = await cli('keys', 'update', record.id, '--per-hour', '20', '--json');
  expect(JSON.parse(json.out)).toMatchObject({ id: record.id, perMinute: 5, perHour: 20 });
});
