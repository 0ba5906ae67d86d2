// @run-alone: npm start with 2-3 s header and request timeouts, and answers timed against them (run after the parallel files)
import { mkdtempSync, rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { MIN_COMPRESSION_BYTES } from '../../shared/api/gateway-edge';
import { freePort } from '../../local/dynamodb';
import { raw, startApi, type RawAnswer, type RunningApi } from './npm-start';

/**
 * A running `npm start` against requests an attacker (or a broken client) sends: query parameters named
 * like object built-ins, an invalid absolute URL in the request line, what Node's HTTP parser refuses
 * (a 100 KB header, an unknown method, a header name with a space, a URL over the header limit), a
 * client that goes away halfway through its body, clients too slow to send their headers or body. Each
 * is answered in the API's error body (or the socket closed when the client is gone), and after each the
 * server still answers a normal request. Then compression: a large list with Accept-Encoding: gzip comes
 * back gzip-compressed and decodes to the same JSON; a small one is not compressed.
 */
jest.setTimeout(90_000);

let api: RunningApi;
let port: number;
let base: string;
let key: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tt-hostile-'));
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  api = startApi({ PORT: String(port), DYNAMODB_PORT: String(await freePort()), DATA_DIR: dataDir, HEADERS_TIMEOUT_SECONDS: '2', REQUEST_TIMEOUT_SECONDS: '3' });
  await api.ready;
  key = api.output().match(/svc_live_[0-9A-Za-z]{40}/)![0];
});

afterAll(async () => {
  if (api?.child.exitCode === null) {
    api.child.kill('SIGINT');
    await api.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * The API's error body: the gateway's own answers carry requestId = X-Request-Id; a handler's 400 carries
 * the details instead (requestId only on 5xx).
 */
function expectError(
  res: { status?: number; headers: Record<string, string>; body: string },
  status: number,
  code: string,
  message?: RegExp,
  from: 'gateway' | 'handler' = 'gateway',
) {
  expect([res.status, res.body]).toEqual([status, expect.any(String)]);
  const body = JSON.parse(res.body) as { error: { code: string; message: string; requestId?: string } };
  expect(Object.keys(body)).toEqual(['error']);
  if (from === 'gateway') {
    expect(body.error).toEqual({ code, message: expect.any(String), requestId: res.headers['x-request-id'] });
    expect(body.error.requestId).toMatch(/^[0-9a-f-]{36}$/);
  } else {
    expect(body.error).toEqual({ code, message: expect.any(String), details: expect.any(Array) });
  }
  if (message) expect(body.error.message).toMatch(message);
}

/** The server is alive and serving: the public document, and a keyed list. */
async function stillServes() {
  expect(api.child.exitCode).toBeNull();
  expect((await fetch(`${base}/v1/openapi.json`)).status).toBe(200);
  expect((await fetch(`${base}/v1/clients`, { headers: { 'X-API-Key': key } })).status).toBe(200);
}

const fetched = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${base}${path}`, init);
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
};

test('query parameters named like object built-ins are parameters like any other (400 naming them), not a crash', async () => {
  for (const qs of ['constructor=1', '__proto__=1', 'toString=x', 'hasOwnProperty=1&hasOwnProperty=2', 'valueOf=1&__proto__=2']) {
    const name = qs.split('=')[0]!;
    const res = await fetched(`/v1/openapi.json?${qs}`);
    expectError(res, 400, 'VALIDATION_ERROR', new RegExp(`Unknown query parameter.*${name}`), 'handler');
    const keyed = await fetched(`/v1/clients?${qs}`, { headers: { 'X-API-Key': key } });
    expect([qs, keyed.status]).toEqual([qs, 400]);
    expectError(keyed, 400, 'VALIDATION_ERROR', new RegExp(name), 'handler');
  }
  await stillServes();
});

test('an invalid absolute URL in the request line: 400 in the error body', async () => {
  const res = await raw(port, 'GET http://[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  expectError(res, 400, 'VALIDATION_ERROR', /invalid URL/);
  await stillServes();
});

test("what Node's HTTP parser refuses is answered in the error body: 431, 400, 400, 414", async () => {
  const cases: Array<[string, string, number, string, RegExp]> = [
    ['a 100 KB header', `GET /v1/clients HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100 * 1024)}\r\n\r\n`, 431, 'VALIDATION_ERROR', /header fields too large/],
    ['an unknown method', 'FOO /v1/clients HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'VALIDATION_ERROR', /unknown method/],
    ['a header name with a space', 'GET /v1/clients HTTP/1.1\r\nHost: x\r\nBad Name: x\r\n\r\n', 400, 'VALIDATION_ERROR', /invalid header/],
    ["a URL over Node's header limit", `GET /v1/clients?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 414, 'URI_TOO_LONG', /too long/],
  ];
  for (const [what, request, status, code, message] of cases) {
    const res: RawAnswer = await raw(port, request);
    expect([what, res.status, res.ended]).toEqual([what, status, 'close']);
    expect(res.headers.connection).toBe('close');
    expectError(res, status, code, message);
    await stillServes();
  }
});

test('a client that closes the connection halfway through its body: nothing thrown, the server goes on', async () => {
  const before = api.output().length;
  const res = await raw(port, 'POST /v1/clients HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"name":"half', { destroyAfterMs: 200 });
  expect([res.status, res.ended]).toEqual([undefined, 'client-closed']);
  await stillServes();
  const log = api.output().slice(before);
  expect(log).toContain('closed the connection before sending its whole body');
  expect(log).not.toMatch(/unhandled|uncaught|request [0-9a-f-]+ failed/i);
});

test('slow clients cannot hold the server: 408 once the headers (2 s) or the whole request (3 s) are late', async () => {
  const started = Date.now();
  const timed = async (p: Promise<RawAnswer>) => ({ res: await p, ms: Date.now() - started });
  const [headers, body] = await Promise.all([
    timed(raw(port, 'GET /v1/clients HTTP/1.1\r\nHost: x\r\nX-Slow: ')),
    timed(raw(port, 'POST /v1/clients HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na')),
    stillServes(), // the server serves others meanwhile
  ]);
  expectError(headers.res, 408, 'VALIDATION_ERROR', /not received in time/);
  expectError(body.res, 408, 'VALIDATION_ERROR', /not received in time/);
  // Node checks these timeouts every second
  expect(headers.ms).toBeGreaterThanOrEqual(2000);
  expect(headers.ms).toBeLessThan(4500);
  expect(body.ms).toBeGreaterThanOrEqual(3000);
  expect(body.ms).toBeLessThan(5500);
  await stillServes();
});

/** GET over node:http (no automatic decoding): status, headers and the raw bytes. */
function getRaw(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

test(`gzip: a list of at least ${MIN_COMPRESSION_BYTES} bytes is compressed when the client accepts gzip, a small one is not`, async () => {
  for (let i = 0; i < 12; i++) {
    const res = await fetch(`${base}/v1/clients`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `Compressible client ${i}`, notes: 'x'.repeat(100) }),
    });
    expect(res.status).toBe(201);
  }
  const plain = await getRaw('/v1/clients', { 'X-API-Key': key });
  expect(plain.status).toBe(200);
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.bytes.length).toBeGreaterThanOrEqual(MIN_COMPRESSION_BYTES);

  const gz = await getRaw('/v1/clients', { 'X-API-Key': key, 'Accept-Encoding': 'gzip, deflate, br' });
  expect(gz.status).toBe(200);
  expect(gz.headers['content-encoding']).toBe('gzip');
  expect(Number(gz.headers['content-length'])).toBe(gz.bytes.length);
  const decoded = gunzipSync(gz.bytes);
  expect(JSON.parse(decoded.toString('utf8'))).toEqual(JSON.parse(plain.bytes.toString('utf8')));
  expect(gz.bytes.length).toBeLessThan(plain.bytes.length / 2);
  console.log(`gzip: GET /v1/clients ${plain.bytes.length} bytes plain, ${gz.bytes.length} gzip`);

  // gzip refused (q=0): not compressed
  expect((await getRaw('/v1/clients', { 'X-API-Key': key, 'Accept-Encoding': 'gzip;q=0, identity' })).headers['content-encoding']).toBeUndefined();
  // under the threshold: not compressed, though gzip is accepted (a small list, a gateway error)
  const small = await getRaw('/v1/tags', { 'X-API-Key': key, 'Accept-Encoding': 'gzip' });
  expect(small.status).toBe(200);
  expect(small.bytes.length).toBeLessThan(MIN_COMPRESSION_BYTES);
  expect(small.headers['content-encoding']).toBeUndefined();
  expect(JSON.parse(small.bytes.toString('utf8'))).toHaveProperty('items');
  const missing = await getRaw('/v1/nope', { 'Accept-Encoding': 'gzip' });
  expect([missing.status, missing.headers['content-encoding']]).toEqual([404, undefined]);
});

test('after all of it, the same process still runs and logged no crash', async () => {
  await stillServes();
  expect(api.output()).not.toMatch(/unhandled|uncaught|request [0-9a-f-]+ failed/i);
});
