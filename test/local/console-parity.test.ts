import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_KEY_HEADER, GATEWAY_ANSWERS, REQUEST_ID_HEADER } from '../../shared/api/gateway-edge';
import { consolePathTemplates } from '../../shared/console/routes';
import { createLocalServer } from '../../local/server';
import { makeKey, newWorkspace, useTestTable } from '../support/harness';
import { person, startOidc, type Oidc } from '../console/support';

/**
 * Console paths answer what they do not route as /v1's paths do, locally as deployed (lib/console.ts adds
 * /v1's OPTIONS and ANY methods to every console resource; test/cdk/console.test.ts checks the template):
 * OPTIONS is the CORS preflight (204, no credentials); a method the path does not offer needs the person's
 * token first (401 without it), then answers 501 NOT_IMPLEMENTED in the error body, the same body as /v1's;
 * on the page's own paths (outside /console/api) a person's token is not for them: 403, as the console
 * authorizer's policy (the console API only) makes it in AWS.
 */
useTestTable();
jest.setTimeout(120_000);
let server: Server;
let base: string;
let oidc: Oidc;
let key: string;
let token: string;

beforeAll(async () => {
  oidc = await startOidc();
  token = (await person(oidc.issuer, undefined, undefined, 'parity')).token;
  key = await makeKey(newWorkspace('console-parity'));
  server = createLocalServer({ authCacheTtlSeconds: 300 });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((done) => server.close(done));
  await oidc.stop();
});

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Each console path template with its parameters filled in, and the methods it does not offer. */
const PATHS = [...consolePathTemplates()].map(([template, routes]) => ({
  template,
  path: template.replace(/\{([^}]+)\}/g, (_m, name: string) => `some-${name}`),
  notOffered: METHODS.filter((m) => !routes.some((r) => r.method === m)),
}));

async function call(method: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, { method, headers });
  const text = await res.text();
  const { [REQUEST_ID_HEADER.toLowerCase()]: requestId, date: _date, connection: _c, 'keep-alive': _k, ...rest } = Object.fromEntries(res.headers);
  return { status: res.status, headers: rest, requestId, body: text ? (JSON.parse(text) as { error: { code: string; message: string; requestId: string } }) : undefined };
}

test('the table has console paths of both kinds (page and API) and each has methods it does not offer', () => {
  expect(PATHS.some((p) => p.template.startsWith('/console/api/'))).toBe(true);
  expect(PATHS.some((p) => !p.template.startsWith('/console/api/'))).toBe(true);
  for (const p of PATHS) expect([p.template, p.notOffered.length > 0]).toEqual([p.template, true]);
});

test("OPTIONS on every console path: the CORS preflight (204, no credentials), the very answer /v1's paths give", async () => {
  const origin = { Origin: 'https://app.example.com' };
  const v1 = await call('OPTIONS', '/v1/clients', origin);
  expect(v1.status).toBe(204);
  expect(v1.headers['access-control-allow-methods']).toBe('GET,POST,PUT,DELETE,OPTIONS');
  for (const p of PATHS) {
    const r = await call('OPTIONS', p.path, origin);
    expect([p.path, r.status, r.headers, r.body]).toEqual([p.path, 204, v1.headers, undefined]);
    expect(r.requestId).toBeTruthy();
  }
});

test('a method a console path does not offer: 401 without a token; with one, 501 NOT_IMPLEMENTED (the body /v1 gives) on the API, 403 on the page paths', async () => {
  const v1 = await call('PATCH', '/v1/clients', { [API_KEY_HEADER]: key });
  expect(v1.status).toBe(501);
  expect(v1.body!.error).toEqual({ code: 'NOT_IMPLEMENTED', message: GATEWAY_ANSWERS.METHOD_NOT_OFFERED.message, requestId: v1.requestId });
  let answered501 = 0;
  for (const p of PATHS) {
    for (const method of p.notOffered) {
      const anonymous = await call(method, p.path);
      expect([method, p.path, anonymous.status, anonymous.body!.error.code]).toEqual([method, p.path, 401, 'UNAUTHORIZED']);
      const signedIn = await call(method, p.path, { Authorization: `Bearer ${token}` });
      if (p.template.startsWith('/console/api/')) {
        expect([method, p.path, signedIn.status]).toEqual([method, p.path, 501]);
        expect(signedIn.body!.error).toEqual({ ...v1.body!.error, requestId: signedIn.requestId });
        expect(signedIn.headers).toEqual(v1.headers);
        answered501++;
      } else {
        expect([method, p.path, signedIn.status, signedIn.body!.error.code]).toEqual([method, p.path, 403, 'FORBIDDEN']);
      }
    }
  }
  expect(answered501).toBeGreaterThan(0);
});

test('a path under /console that no route declares: 404 NOT_FOUND, for every method, OPTIONS included', async () => {
  for (const method of [...METHODS, 'OPTIONS']) {
    const r = await call(method, '/console/api/nothing-here', { Authorization: `Bearer ${token}` });
    expect([method, r.status, r.body!.error.code]).toEqual([method, 404, 'NOT_FOUND']);
  }
});
