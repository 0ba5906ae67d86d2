import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { FUNCTION_TIMEOUT_SECONDS } from '../../shared/api/gateway-edge';
import { lambdaContext } from '../../local/gateway';
import { createLocalServer, INTEGRATION_TIMEOUT_MS } from '../../local/server';
import { err, fields, workspaceWithKey } from '../resources/support';
import { apiClient, useTestTable } from '../support/harness';

/**
 * Issue 22 item 10: the local run behaves as deployed. Repeated headers reach the handler as API Gateway
 * builds them (`headers` the last value, `multiValueHeaders` all); a handler gets the functions' own time
 * limit; If-Match compares strongly; control characters are refused in single-line strings (notes keep tab
 * and line breaks).
 */
useTestTable();
const api = apiClient();
let server: Server;
let port: number;
beforeAll(async () => {
  server = createLocalServer({ authCacheTtlSeconds: 300 });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

/** One HTTP request to the local server; a header given as a list is sent as that many header lines. */
function send(method: string, path: string, headers: Record<string, string | string[]>, body?: unknown): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request({ host: '127.0.0.1', port, method, path, headers: { ...headers, ...(text ? { 'Content-Type': 'application/json' } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: raw ? JSON.parse(raw) : undefined });
      });
    });
    req.on('error', reject);
    req.end(text);
  });
}

test('a repeated If-Match counts by its last value, as deployed: "1" then "9" is 412 on a record at revision 1', async () => {
  const { key } = await workspaceWithKey('parity');
  const client = await send('POST', '/v1/clients', { 'X-API-Key': key }, { name: 'Acme' });
  expect([client.status, client.body.etag]).toEqual([201, '"1"']);
  const twice = await send('PUT', `/v1/clients/${client.body.id}`, { 'X-API-Key': key, 'If-Match': ['"1"', '"9"'] }, { notes: 'x' });
  expect([twice.status, twice.body.error?.code]).toEqual([412, 'PRECONDITION_FAILED']);
  const lastMatches = await send('PUT', `/v1/clients/${client.body.id}`, { 'X-API-Key': key, 'If-Match': ['"9"', '"1"'] }, { notes: 'y' });
  expect(lastMatches.status).toBe(200);
});

test('two Idempotency-Key headers are the last one, not "aa,bb"', async () => {
  const { key } = await workspaceWithKey('parity');
  const first = await send('POST', '/v1/tags', { 'X-API-Key': key, 'Idempotency-Key': ['aa', 'bb'] }, { name: 'once' });
  expect(first.status).toBe(201);
  const again = await send('POST', '/v1/tags', { 'X-API-Key': key, 'Idempotency-Key': 'bb' }, { name: 'once' });
  expect([again.status, again.headers['idempotent-replayed'], again.body.id]).toEqual([201, 'true', first.body.id]);
});

test('a handler has the functions\u2019 own time limit (the CDK timeout), not the 29 s integration timeout', () => {
  expect(FUNCTION_TIMEOUT_SECONDS).toBe(10);
  expect(INTEGRATION_TIMEOUT_MS).toBe(FUNCTION_TIMEOUT_SECONDS * 1000);
  const left = lambdaContext('local-clients', 'r').getRemainingTimeInMillis();
  expect(left).toBeLessThanOrEqual(FUNCTION_TIMEOUT_SECONDS * 1000);
  expect(left).toBeGreaterThan(FUNCTION_TIMEOUT_SECONDS * 1000 - 1000);
});

test('If-Match compares strongly: "00003" does not match ETag "3", nor does W/"3"', async () => {
  const { key } = await workspaceWithKey('strong');
  const c = (await api.post('/v1/clients', { name: 'A' }, { key })).body;
  for (const notes of ['2', '3']) expect((await api.put(`/v1/clients/${c.id}`, { notes }, { key })).status).toBe(200);
  for (const tag of ['"00003"', '"03"', 'W/"3"', '"3.0"', '"+3"']) {
    const res = await api.put(`/v1/clients/${c.id}`, { notes: 'x' }, { key, headers: { 'If-Match': tag } });
    expect({ tag, status: res.status }).toEqual({ tag, status: 412 });
  }
  expect((await api.put(`/v1/clients/${c.id}`, { notes: 'x' }, { key, headers: { 'If-Match': '"3"' } })).status).toBe(200);
});

test('control characters: refused (400 naming the field) in names, ids and other single-line strings; notes keep tab and line breaks', async () => {
  const { key } = await workspaceWithKey('control');
  for (const [path, body, field] of [
    ['/v1/clients', { name: 'Ac\u0000me' }, 'name'],
    ['/v1/clients', { name: 'Ac\u001bme' }, 'name'],
    ['/v1/clients', { name: 'two\nlines' }, 'name'],
    ['/v1/clients', { name: 'tab\there' }, 'name'],
    ['/v1/clients', { name: 'del\u007f' }, 'name'],
    ['/v1/clients', { name: 'ok', notes: 'nul\u0000' }, 'notes'],
    ['/v1/tags', { name: 'bell\u0007' }, 'name'],
    ['/v1/time-entries', { userId: 'u\u0000', startTime: '2026-01-01T00:00:00Z' }, 'userId'],
    ['/v1/time-entries', { userId: 'u', name: 'x\u0001', startTime: '2026-01-01T00:00:00Z' }, 'name'],
  ] as const) {
    const res = await api.post(path, body, { key });
    expect({ body, status: res.status, fields: fields(res) }).toEqual({ body, status: 400, fields: [field] });
    expect(err(res).message).toMatch(/control characters/);
  }
  const ok = await api.post('/v1/clients', { name: 'Fine', notes: 'line one\r\nline two\n\tindented', address: '1 Main St\nTown' }, { key });
  expect([ok.status, ok.body.notes, ok.body.address]).toEqual([201, 'line one\r\nline two\n\tindented', '1 Main St\nTown']);
});
