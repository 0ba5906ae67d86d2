import type { AddressInfo } from 'node:net';
import { CORS, corsOrigins } from '../../shared/api/gateway-edge';
import { routeList } from '../../shared/api/routes';
import { createLocalServer } from '../../local/server';
import { apiClient, makeKey, newWorkspace, useTestTable } from '../support/harness';

/**
 * CORS (CORS_ORIGINS, shared/api/gateway-edge.ts): a preflight OPTIONS on any route is 204 without a key;
 * every answer, the functions' and the gateway's own, carries Access-Control-Allow-Origin for an allowed
 * origin and the exposed headers. test/cdk/api.test.ts checks the deployed template does the same.
 */
useTestTable();
const api = apiClient();
const ORIGIN = 'https://app.example.com';
const EXPOSED = 'RateLimit, RateLimit-Policy, Retry-After, ETag, Location, Idempotent-Replayed, Next-Cursor, X-Request-Id, x-amzn-RequestId';
const saved = process.env.CORS_ORIGINS;
afterEach(() => {
  if (saved === undefined) delete process.env.CORS_ORIGINS;
  else process.env.CORS_ORIGINS = saved;
});
const preflight = (path: string, origin = ORIGIN) =>
  api.call('OPTIONS', path, { headers: { Origin: origin, 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': 'x-api-key,content-type,if-match' } });

test('a preflight on every path of the route table: 204, no key needed, the allowed methods and headers', async () => {
  const paths = [...new Set(routeList.map((r) => r.path.replace('{id}', '01ABSENT000000000000000000')))];
  for (const path of paths) {
    const res = await preflight(path);
    expect([path, res.status, res.text]).toEqual([path, 204, '']);
    expect(res.headers).toMatchObject({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'GET,POST,PUT,DELETE,OPTIONS',
      'Access-Control-Max-Age': '600',
    });
    expect(res.headers['Access-Control-Allow-Headers']!.split(',')).toEqual(expect.arrayContaining(['X-API-Key', 'Content-Type', 'If-Match', 'If-None-Match', 'Idempotency-Key']));
  }
});

test("the functions' answers carry the origin and the exposed headers, errors included", async () => {
  const key = await makeKey(newWorkspace('cors'));
  const ok = await api.get('/v1/clients', { key, headers: { Origin: ORIGIN } });
  const notFound = await api.get('/v1/clients/01ABSENT000000000000000000', { key, headers: { Origin: ORIGIN } });
  const bad = await api.post('/v1/clients', { nope: 1 }, { key, headers: { Origin: ORIGIN } });
  for (const res of [ok, notFound, bad]) {
    expect(res.headers['Access-Control-Allow-Origin']).toBe('*');
    expect(res.headers['Access-Control-Expose-Headers']).toBe(EXPOSED);
  }
  expect([ok.status, notFound.status, bad.status]).toEqual([200, 404, 400]);
  for (const h of ['RateLimit', 'RateLimit-Policy', 'Retry-After', 'ETag', 'Location']) expect(CORS.exposeHeaders).toContain(h);
});

test("the gateway's own answers carry them too (401 without a key, unknown route 404, 501)", async () => {
  const key = await makeKey(newWorkspace('cors'));
  const unauthorized = await api.get('/v1/clients', { headers: { Origin: ORIGIN } });
  const unknown = await api.get('/v1/nowhere', { headers: { Origin: ORIGIN } });
  const notOffered = await api.call('PATCH', '/v1/clients', { key, headers: { Origin: ORIGIN } });
  expect([unauthorized.status, unknown.status, notOffered.status]).toEqual([401, 404, 501]);
  for (const res of [unauthorized, unknown, notOffered]) {
    expect(res.headers['Access-Control-Allow-Origin']).toBe('*');
    expect(res.headers['Access-Control-Expose-Headers']).toBe(EXPOSED);
  }
});

test('CORS_ORIGINS lists origins: a listed one is echoed (Vary: Origin), another gets no Allow-Origin from the functions', async () => {
  process.env.CORS_ORIGINS = `${ORIGIN}, https://admin.example.com`;
  const key = await makeKey(newWorkspace('cors'));
  const listed = await api.get('/v1/clients', { key, headers: { Origin: 'https://admin.example.com' } });
  expect(listed.headers).toMatchObject({ 'Access-Control-Allow-Origin': 'https://admin.example.com', Vary: 'Origin, Accept-Encoding' });
  const other = await api.get('/v1/clients', { key, headers: { Origin: 'https://evil.example.net' } });
  expect(other.status).toBe(200);
  expect(other.headers['Access-Control-Allow-Origin']).toBeUndefined();
  expect(other.headers.Vary).toBe('Origin, Accept-Encoding');
  const pre = await preflight('/v1/clients', 'https://evil.example.net');
  expect(pre.status).toBe(204);
  expect(pre.headers['Access-Control-Allow-Origin']).toBeUndefined();
  expect((await preflight('/v1/clients')).headers['Access-Control-Allow-Origin']).toBe(ORIGIN);
  // The gateway's own answers echo the Origin when several are configured, as the deployed Gateway Responses do.
  expect((await api.get('/v1/clients', { headers: { Origin: 'https://admin.example.com' } })).headers['Access-Control-Allow-Origin']).toBe('https://admin.example.com');
});

test('one configured origin: that literal everywhere', async () => {
  process.env.CORS_ORIGINS = ORIGIN;
  const key = await makeKey(newWorkspace('cors'));
  expect((await api.get('/v1/me', { key, headers: { Origin: ORIGIN } })).headers['Access-Control-Allow-Origin']).toBe(ORIGIN);
  expect((await api.get('/v1/me', { headers: { Origin: ORIGIN } })).headers['Access-Control-Allow-Origin']).toBe(ORIGIN);
});

test('CORS_ORIGINS is checked: default *, a path or a bare host is refused as a configuration error', () => {
  expect(corsOrigins(undefined)).toEqual(['*']);
  expect(corsOrigins(' ')).toEqual(['*']);
  expect(corsOrigins('https://a.example.com,*')).toEqual(['*']);
  expect(corsOrigins('http://localhost:5173, https://a.example.com')).toEqual(['http://localhost:5173', 'https://a.example.com']);
  expect(() => corsOrigins('https://a.example.com/app')).toThrow(/CORS_ORIGINS: "https:\/\/a.example.com\/app" is not an origin/);
  expect(() => corsOrigins('a.example.com')).toThrow(/not an origin/);
});

test('over HTTP, as curl -i -X OPTIONS sends it: 204 with the headers, no key', async () => {
  const server = createLocalServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/v1/time-entries/01ABSENT000000000000000000?sortKey=x`, {
      method: 'OPTIONS',
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'DELETE', 'Access-Control-Request-Headers': 'x-api-key,idempotency-key' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('DELETE');
    expect(res.headers.get('access-control-allow-headers')).toContain('Idempotency-Key');
    expect(await res.text()).toBe('');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
