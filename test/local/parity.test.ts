import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { API_KEY_HEADER } from '../../shared/api/gateway-edge';
import { createLocalServer } from '../../local/server';
import { makeKey, newWorkspace, useTestTable } from '../support/harness';

/**
 * Where the local gateway behaves as API Gateway REST does (issue 28, item 9; docs/architecture.md lists
 * what it cannot match): path parameters reach the handler as sent (not percent-decoded), a gzip request
 * body is decompressed before the handler sees it (and bounded after decompression), and a handler past
 * its time limit is a 502 (test/local/crash.test.ts).
 */
useTestTable();
let server: Server;
let port: number;
let key: string;
beforeAll(async () => {
  key = await makeKey(newWorkspace('parity'));
  server = createLocalServer({ authCacheTtlSeconds: 300 });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((done) => server.close(done));
});

function send(method: string, path: string, body?: Buffer, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { [API_KEY_HEADER]: key, ...headers, ...(body ? { 'Content-Length': String(body.length) } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode!, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test('path parameters are passed as sent, not percent-decoded (API Gateway REST does not decode them)', async () => {
  const seen: Array<APIGatewayProxyEvent['pathParameters']> = [];
  jest.resetModules();
  jest.doMock('../../functions/clients/index', () => ({
    handler: async (event: APIGatewayProxyEvent) => {
      seen.push(event.pathParameters);
      return { statusCode: 404, headers: {}, body: '{"error":{"code":"NOT_FOUND","message":"Client not found"}}' };
    },
  }));
  try {
    const gw = (require('../../local/gateway') as typeof import('../../local/gateway')).createGateway({ authCacheTtlSeconds: 0 });
    await gw.handle({ method: 'GET', path: '/v1/clients/a%20b%2Fc', headers: { [API_KEY_HEADER]: key } });
  } finally {
    jest.dontMock('../../functions/clients/index');
    jest.resetModules();
  }
  expect(seen).toEqual([{ id: 'a%20b%2Fc' }]);
});

test('a gzip request body is decompressed before the handler (Content-Encoding: gzip), as API Gateway does', async () => {
  const created = await send('POST', '/v1/clients', gzipSync(Buffer.from(JSON.stringify({ name: 'Zipped Ltd' }))), {
    'Content-Type': 'application/json',
    'Content-Encoding': 'gzip',
  });
  expect(created.status).toBe(201);
  expect(created.body.name).toBe('Zipped Ltd');
  const plain = await send('POST', '/v1/clients', Buffer.from(JSON.stringify({ name: 'Plain Ltd' })), { 'Content-Type': 'application/json' });
  expect(plain.status).toBe(201);
});

test('a body that is not gzip though it says so: 400 in the error shape; one that inflates past the edge bound: 413', async () => {
  const bad = await send('POST', '/v1/clients', Buffer.from('{"name":"not zipped"}'), { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
  expect(bad.status).toBe(400);
  expect(bad.body.error.code).toBe('VALIDATION_ERROR');
  const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20));
  expect(bomb.length).toBeLessThan(64 * 1024);
  const big = await send('POST', '/v1/clients', bomb, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
  expect(big.status).toBe(413);
  expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');
});
