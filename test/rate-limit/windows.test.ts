import { createApiKey } from '../../shared/data/apikey-store';
import { consume, rateLimitNow, setRateLimitClock, windowAt } from '../../shared/data/rate-counter';
import { SCOPES, type Scope } from '../../shared/api/routes';
import { apiClient, newWorkspace, useTestTable } from '../support/harness';
import { at, counterItem, fakeClock, parseRateLimit } from './support';

useTestTable();
const api = apiClient();
afterEach(() => setRateLimitClock());

const newKey = (perMinute: number, perHour: number) => createApiKey({ workspaceId: newWorkspace(), name: 'rl', scopes: [...SCOPES] as Scope[], perMinute, perHour });
const statusesOf = async (key: string, n: number) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await api.get('/v1/clients', { key })).status);
  return out;
};

test('windows: clock minute and hour, Retry-After counts down to the window end', () => {
  expect(windowAt(at('2031-05-06T10:00:00Z'))).toEqual({ hourStart: at('2031-05-06T10:00:00Z'), minuteOfHour: 0, minuteResetSeconds: 60, hourResetSeconds: 3600 });
  expect(windowAt(at('2031-05-06T10:07:59.001Z'))).toMatchObject({ minuteOfHour: 7, minuteResetSeconds: 1, hourResetSeconds: 3121 });
  expect(windowAt(at('2031-05-06T10:59:59.999Z'))).toMatchObject({ minuteOfHour: 59, minuteResetSeconds: 1, hourResetSeconds: 1 });
});

test('the clock is injectable and restorable', () => {
  setRateLimitClock(() => 42);
  expect(rateLimitNow()).toBe(42);
  setRateLimitClock();
  expect(Math.abs(rateLimitNow() - Date.now())).toBeLessThan(1000);
});

test('minute rollover: the count starts again at the next minute, the hour keeps adding up', async () => {
  const clock = fakeClock(at('2031-05-06T10:00:50Z'));
  const { key, record } = await newKey(5, 1000);
  expect(await statusesOf(key, 6)).toEqual([200, 200, 200, 200, 200, 403]);
  const sixth = await api.get('/v1/clients', { key });
  expect(sixth.headers['Retry-After']).toBe('10');

  clock.set(at('2031-05-06T10:00:59.999Z'));
  const last = await api.get('/v1/clients', { key });
  expect(last.status).toBe(403);
  expect(last.headers['Retry-After']).toBe('1');

  clock.set(at('2031-05-06T10:01:00Z'));
  const fresh = await api.get('/v1/clients', { key });
  expect(fresh.status).toBe(200);
  expect(parseRateLimit(fresh.headers.RateLimit)).toEqual({ minute: { r: 4, t: 60 }, hour: { r: 994, t: 3540 } });
  expect(await statusesOf(key, 5)).toEqual([200, 200, 200, 200, 403]);

  const item = await counterItem(record.id, at('2031-05-06T10:00:00Z'));
  expect(item).toMatchObject({ h: 10, m00: 5, m01: 5 });
});

test('hour rollover: a new hour is a new counter item; the old one is left for TTL and ignored', async () => {
  const clock = fakeClock(at('2031-05-06T10:59:30Z'));
  const { key, record } = await newKey(100, 7);
  expect(await statusesOf(key, 8)).toEqual([200, 200, 200, 200, 200, 200, 200, 403]);
  const over = await api.get('/v1/clients', { key });
  expect(over.body.error.message).toBe('Rate limit exceeded: 7 requests per hour');
  expect(over.headers['Retry-After']).toBe('30');

  clock.set(at('2031-05-06T11:00:00Z'));
  const next = await api.get('/v1/clients', { key });
  expect(next.status).toBe(200);
  expect(parseRateLimit(next.headers.RateLimit).hour).toEqual({ r: 6, t: 3600 });

  const old = await counterItem(record.id, at('2031-05-06T10:00:00Z'));
  const current = await counterItem(record.id, at('2031-05-06T11:00:00Z'));
  expect(old).toMatchObject({ h: 7, m59: 7, ttl: at('2031-05-14T11:00:00Z') / 1000, _type: 'RATECOUNTER' });
  expect(current).toMatchObject({ h: 1, m00: 1, ttl: at('2031-05-14T12:00:00Z') / 1000 });
});

test('rollover without TTL deletion: expired counters still in the table change nothing', async () => {
  const clock = fakeClock(at('2031-05-06T10:05:10Z'));
  const { key, record } = await newKey(3, 3);
  expect(await statusesOf(key, 4)).toEqual([200, 200, 200, 403]);

  // The same minute of the next hour: minute 05 again, but a different item, so a fresh count.
  clock.set(at('2031-05-06T11:05:10Z'));
  expect(await statusesOf(key, 4)).toEqual([200, 200, 200, 403]);

  // Days later: both earlier items are past their ttl (8 days after their hour), and still there
  // (DynamoDB Local, or AWS before its TTL sweep, keeps them); the limiter never reads them.
  clock.set(at('2031-05-15T10:05:10Z'));
  for (const hour of ['2031-05-06T10:00:00Z', '2031-05-06T11:00:00Z']) {
    const item = await counterItem(record.id, at(hour));
    expect(item).toMatchObject({ h: 3, m05: 3 });
    expect(Number(item!.ttl) * 1000).toBeLessThan(clock.now());
  }
  expect(await statusesOf(key, 4)).toEqual([200, 200, 200, 403]);
});

test('consume(): exact counts and the decision of each call, without the HTTP layer', async () => {
  const keyId = `key_direct_${Date.now()}`;
  const t = at('2031-05-06T10:30:15Z');
  const decisions = [];
  for (let i = 0; i < 4; i++) decisions.push(await consume(keyId, { perMinute: 3, perHour: 10 }, t));
  expect(decisions.map((d) => [d.allowed, d.minuteCount, d.hourCount])).toEqual([
    [true, 1, 1],
    [true, 2, 2],
    [true, 3, 3],
    [false, 3, 3],
  ]);
  expect(decisions[3]).toMatchObject({ allowed: false, exceeded: 'minute' });
  // A limit lowered below the current count (keys update) refuses at once, and names the hour when the hour is spent.
  expect(await consume(keyId, { perMinute: 100, perHour: 2 }, t + 60_000)).toMatchObject({ allowed: false, exceeded: 'hour', hourCount: 3, minuteCount: 0 });
});
