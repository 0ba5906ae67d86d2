import type { AddressInfo } from 'node:net';
import { request as httpRequest } from 'node:http';
import type { Server } from 'node:http';
import { ERROR_STATUS } from '../../shared/api/errors';
import {
  API_KEY_HEADER,
  GATEWAY_ANSWERS,
  MAX_EDGE_BODY_BYTES,
  MAX_GATEWAY_BODY_BYTES,
  MAX_METHOD_ARN_BYTES,
  MAX_URL_CHARS,
  REQUEST_ID_HEADER,
  deployedMethodArnBytes,
  gatewayAnswerBody,
  gatewayAnswerCorsHeaders,
  gatewayAnswerList,
  gatewayAnswerResponse,
  gatewayAnswerTemplate,
  type GatewayAnswerId,
} from '../../shared/api/gateway-edge';
import { buildOpenApi } from '../../shared/api/openapi';
import { routeList } from '../../shared/api/routes';

/** The CORS headers every gateway answer carries under the default CORS_ORIGINS (*), without an Origin. */
const CORS_DEFAULT = gatewayAnswerCorsHeaders(['*'], undefined);
import { createGateway, type Gateway, type GatewayResponse } from '../../local/gateway';
import { createLocalServer } from '../../local/server';
import { apiClient, makeKey, newWorkspace, useTestTable } from '../support/harness';

/**
 * The gateway's edge (shared/api/gateway-edge.ts): one table of every answer the gateway gives itself,
 * from which the deployed Gateway Responses, the local gateway and the OpenAPI document are derived.
 * test/cdk/gateway-edge.test.ts compares the synthesized template with the local answers.
 */
useTestTable();

const REQUEST_ID = '6f1c2d3e-4b5a-4978-8a1b-2c3d4e5f6a7b';
/** What API Gateway does with a template: $context.requestId and $context.error.messageString substituted. */
const substitute = (template: string, requestId: string, messageString: string) =>
  template.replace(/\$context\.requestId/g, requestId).replace(/\$context\.error\.messageString/g, JSON.stringify(messageString));

describe('the table', () => {
  test('every entry renders, locally and as the deployed template, the same {"error":{"code","message","requestId"}}', () => {
    for (const a of gatewayAnswerList) {
      const gatewayMessage = `API Gateway says "no" to ${a.id}`;
      const deployed = JSON.parse(substitute(gatewayAnswerTemplate(a), REQUEST_ID, gatewayMessage));
      const local = JSON.parse(gatewayAnswerBody(a, REQUEST_ID, gatewayMessage));
      expect([a.id, Object.keys(deployed)]).toEqual([a.id, ['error']]);
      expect([a.id, Object.keys(deployed.error)]).toEqual([a.id, ['code', 'message', 'requestId']]);
      expect([a.id, local]).toEqual([a.id, deployed]);
      expect(deployed.error).toEqual({ code: a.code, message: a.messageFromGateway ? gatewayMessage : a.message, requestId: REQUEST_ID });
      // byte for byte, too: the local body is what API Gateway makes of the template
      expect(gatewayAnswerBody(a, REQUEST_ID, gatewayMessage)).toBe(substitute(gatewayAnswerTemplate(a), REQUEST_ID, gatewayMessage));
    }
  });

  test("status, code and headers: the code's status unless the gateway sets its own; JSON always; Retry-After where retrying helps", () => {
    const rows = Object.fromEntries(gatewayAnswerList.map((a) => [a.id, [a.status, a.code, a.message, a.headers]]));
    const json = { 'Content-Type': 'application/json' };
    const retry = { ...json, 'Retry-After': '1' };
    expect(rows).toEqual({
      UNAUTHORIZED: [401, 'UNAUTHORIZED', 'Missing or invalid credentials: an API key in X-API-Key, or on the console a sign-in token', json],
      ACCESS_DENIED: [403, 'FORBIDDEN', 'Access denied', json],
      MISSING_AUTHENTICATION_TOKEN: [404, 'NOT_FOUND', 'Route not found', json],
      AUTHORIZER_FAILURE: [500, 'INTERNAL_ERROR', 'Authorization failed unexpectedly', json],
      AUTHORIZER_CONFIGURATION_ERROR: [503, 'SERVICE_UNAVAILABLE', 'Authorization is temporarily unavailable, retry later', retry],
      REQUEST_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE', 'Request body too large', json],
      URI_TOO_LONG: [414, 'URI_TOO_LONG', 'Request URI too long', json],
      THROTTLED: [429, 'THROTTLED', 'Too many requests, retry later', retry],
      INTEGRATION_TIMEOUT: [504, 'INTERNAL_ERROR', 'The request timed out', json],
      METHOD_NOT_OFFERED: [501, 'NOT_IMPLEMENTED', 'This method is not offered on this path', json],
      DEFAULT_4XX: [400, 'VALIDATION_ERROR', 'Bad request', json],
      DEFAULT_5XX: [500, 'INTERNAL_ERROR', 'An unexpected error occurred', json],
    });
    for (const a of gatewayAnswerList) {
      if (a.id !== 'INTEGRATION_TIMEOUT') expect([a.id, a.status]).toEqual([a.id, ERROR_STATUS[a.code]]);
      // a literal message must not be taken for an API Gateway variable
      expect(a.message).not.toMatch(/[$#]/);
    }
  });

  test("the local answer: the table's status and headers, X-Request-Id, and the body with the same request id", () => {
    for (const a of gatewayAnswerList) {
      const res = gatewayAnswerResponse(a.id, REQUEST_ID);
      expect(res.status).toBe(a.status);
      expect(res.headers).toEqual({ ...a.headers, ...CORS_DEFAULT, [REQUEST_ID_HEADER]: REQUEST_ID });
      expect(JSON.parse(res.body).error.requestId).toBe(REQUEST_ID);
    }
  });
});

describe('the OpenAPI document takes the key header and the error responses from the table', () => {
  const doc = buildOpenApi() as any;

  test('security scheme header, and a component response for every error code of ERROR_STATUS', () => {
    expect(doc.components.securitySchemes.ApiKeyAuth.name).toBe(API_KEY_HEADER);
    expect(doc.info.description).toContain(`\`${API_KEY_HEADER}\``);
    const codes = Object.values(doc.components.responses).map((r: any) => r.content['application/json'].example.error.code);
    for (const code of Object.keys(ERROR_STATUS)) expect(codes).toContain(code);
    expect(doc.components.schemas.ErrorResponse.properties.error.properties.code.enum).toEqual(Object.keys(ERROR_STATUS));
  });

  test("the gateway's examples are its answers, request id included; its headers are declared", () => {
    const example = (name: string) => doc.components.responses[name].content['application/json'].example;
    for (const [name, id] of [
      ['Unauthorized', 'UNAUTHORIZED'],
      ['Throttled', 'THROTTLED'],
      ['PayloadTooLarge', 'REQUEST_TOO_LARGE'],
      ['OtherError', 'URI_TOO_LONG'], // 414: described by `default`
      ['InternalError', 'DEFAULT_5XX'],
      ['GatewayIntegrationTimeout', 'INTEGRATION_TIMEOUT'],
    ] as Array<[string, GatewayAnswerId]>) {
      const a = GATEWAY_ANSWERS[id];
      expect([name, example(name)]).toEqual([name, { error: { code: a.code, message: a.message, requestId: expect.any(String) } }]);
    }
    const CORS_NAMES = ['Access-Control-Allow-Origin', 'Access-Control-Expose-Headers'];
    expect(Object.keys(doc.components.responses.Throttled.headers)).toEqual(['Retry-After', ...CORS_NAMES]);
    // The rate-limit counter failed (fail closed): the policy was known, the count not.
    expect(Object.keys(doc.components.responses.ServiceUnavailable.headers)).toEqual(['Retry-After', 'RateLimit-Policy', ...CORS_NAMES]);
  });

  test('every operation declares the gateway answers that can reach it', () => {
    for (const r of routeList) {
      const statuses = Object.keys(doc.paths[r.path][r.method.toLowerCase()].responses);
      // 414 can meet any operation (in `default`); 413 only one that takes a body
      expect([r.id, statuses]).toEqual([r.id, expect.arrayContaining(['429', '500', '504', 'default'])]);
      expect([r.id, statuses.includes('413')]).toEqual([r.id, r.body !== undefined]);
      if (r.scope) expect([r.id, statuses]).toEqual([r.id, expect.arrayContaining(['401', '403', '503'])]);
      else expect([r.id, statuses]).toEqual([r.id, expect.not.arrayContaining(['401'])]);
    }
  });
});

/** The body of a gateway answer has requestId = the X-Request-Id header, and is the table's answer. */
function expectAnswer(res: { status: number; headers: Record<string, string>; body: string }, id: GatewayAnswerId) {
  const a = GATEWAY_ANSWERS[id];
  const requestId = res.headers[REQUEST_ID_HEADER];
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(res.status).toBe(a.status);
  expect(res.headers).toEqual({ ...a.headers, ...CORS_DEFAULT, [REQUEST_ID_HEADER]: requestId });
  expect(JSON.parse(res.body)).toEqual({ error: { code: a.code, message: a.message, requestId } });
  expect(res.body).toBe(gatewayAnswerBody(a, requestId!));
}

describe('the local gateway answers from the table, with the request id in the body and in X-Request-Id', () => {
  let gateway: Gateway;
  let key: string;
  beforeAll(async () => {
    gateway = createGateway({ authCacheTtlSeconds: 300 });
    key = await makeKey(newWorkspace());
  });
  const call = (method: string, path: string, headers: Record<string, string> = {}, query: Record<string, string> = {}): Promise<GatewayResponse> =>
    gateway.handle({ method, path, headers, query });

  test('unknown route: 404 NOT_FOUND, without a key', async () => {
    for (const path of ['/', '/v1/unknown', '/v1/clients/a/b']) expectAnswer(await call('GET', path), 'MISSING_AUTHENTICATION_TOKEN');
  });

  test('missing key: 401 UNAUTHORIZED', async () => {
    expectAnswer(await call('GET', '/v1/clients'), 'UNAUTHORIZED');
  });

  test('bad key (malformed, unknown): 401 UNAUTHORIZED', async () => {
    for (const bad of ['garbage', 'svc_live_' + 'x'.repeat(40)]) expectAnswer(await call('GET', '/v1/clients', { [API_KEY_HEADER]: bad }), 'UNAUTHORIZED');
  });

  test('the key header is found whatever its case', async () => {
    expect((await call('GET', '/v1/clients', { [API_KEY_HEADER.toLowerCase()]: key })).status).toBe(200);
    expect((await call('GET', '/v1/clients', { [API_KEY_HEADER.toUpperCase()]: key })).status).toBe(200);
  });

  test('method not offered on a known path: 501 NOT_IMPLEMENTED, after authentication', async () => {
    expectAnswer(await call('PATCH', '/v1/clients/abc', { [API_KEY_HEADER]: key }), 'METHOD_NOT_OFFERED');
    expectAnswer(await call('PATCH', '/v1/clients/abc'), 'UNAUTHORIZED');
  });

  test('URI too long: a URL over the quota (any route), a method ARN over 1600 bytes (routes behind the authorizer)', async () => {
    const api = apiClient(gateway); // the 414 of a known route is checked against the document
    const overQuota = { q: 'x'.repeat(MAX_URL_CHARS) };
    const res = await api.get('/v1/openapi.json', { query: overQuota });
    expectAnswer({ ...res, body: res.text }, 'URI_TOO_LONG');
    expectAnswer(await call('GET', '/v1/nothing-here', {}, overQuota), 'URI_TOO_LONG');

    // the longest id whose method ARN is within the limit is looked up; one byte more is refused before the key
    const prefix = '/v1/clients/';
    const room = MAX_METHOD_ARN_BYTES - deployedMethodArnBytes('local', 'GET', prefix);
    const within = await api.get(prefix + 'a'.repeat(room), { key });
    expect(within.status).not.toBe(414);
    const over = await api.get(prefix + 'a'.repeat(room + 1), { key });
    expectAnswer({ ...over, body: over.text }, 'URI_TOO_LONG');
    expectAnswer(await call('GET', prefix + 'a'.repeat(room + 1)), 'URI_TOO_LONG');
  });

  test("access denied by the authorizer's policy: 403 FORBIDDEN; an authorizer that throws: AUTHORIZER_CONFIGURATION_ERROR (503, Retry-After: 1, as API Gateway answers it); a handler crash: DEFAULT_5XX", async () => {
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const deny = { principalId: 'k', policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: '*' }] } };
    const boom = async () => {
      throw new Error('boom');
    };
    /** One request through a fresh gateway whose function modules are replaced (loaded lazily, as Lambda would). */
    const withMock = async (mod: string, handler: () => Promise<unknown>) => {
      jest.resetModules();
      jest.doMock(mod, () => ({ handler }));
      try {
        const gw = (require('../../local/gateway') as typeof import('../../local/gateway')).createGateway({ authCacheTtlSeconds: 0 });
        return await gw.handle({ method: 'GET', path: '/v1/clients', headers: { [API_KEY_HEADER]: key } });
      } finally {
        jest.dontMock(mod);
        jest.resetModules();
      }
    };
    try {
      expectAnswer(await withMock('../../functions/authorizer/index', async () => deny), 'ACCESS_DENIED');
      const thrown = await withMock('../../functions/authorizer/index', boom);
      expectAnswer(thrown, 'AUTHORIZER_CONFIGURATION_ERROR');
      expect([thrown.status, thrown.headers['Retry-After']]).toEqual([503, '1']);
      expectAnswer(await withMock('../../functions/clients/index', boom), 'DEFAULT_5XX');
    } finally {
      quiet.mockRestore();
    }
  });
});

describe('the local HTTP server', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createLocalServer({ authCacheTtlSeconds: 300 });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((done) => server.close(done));
  });

  /** One request; the body is sent in 1 MB chunks (the server may answer before it has read it all). */
  function send(method: string, path: string, body?: Buffer): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, method, path, headers: body ? { 'Content-Type': 'application/json', 'Content-Length': String(body.length) } : {} },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const headers: Record<string, string> = {};
            // node lower-cases header names; compare with the table's spelling
            const spelled = new Map([...Object.keys(GATEWAY_ANSWERS.THROTTLED.headers), ...Object.keys(CORS_DEFAULT), REQUEST_ID_HEADER].map((h) => [h.toLowerCase(), h]));
            for (const [k, v] of Object.entries(res.headers)) if (spelled.has(k) && typeof v === 'string') headers[spelled.get(k)!] = v;
            resolve({ status: res.statusCode!, headers, body: Buffer.concat(chunks).toString('utf8') });
          });
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)));
      if (body) for (let i = 0; i < body.length; i += 1024 * 1024) req.write(body.subarray(i, i + 1024 * 1024));
      req.end();
    });
  }

  test("body over API Gateway's 10 MB: 413 PAYLOAD_TOO_LARGE from the table, with the request id", async () => {
    const res = await send('POST', '/v1/clients', Buffer.alloc(MAX_GATEWAY_BODY_BYTES + 1, 0x61));
    expectAnswer(res, 'REQUEST_TOO_LARGE');
  });

  test("bodies between Lambda's 6 MB and API Gateway's 10 MB (and from 1,000,000 bytes up): the same 413, never a 5xx", async () => {
    for (const size of [6.5 * 1024 * 1024, MAX_EDGE_BODY_BYTES + 1]) expectAnswer(await send('POST', '/v1/clients', Buffer.alloc(size, 0x61)), 'REQUEST_TOO_LARGE');
    // One byte less passes the edge (and meets the next check: no key, 401; with a key, the handlers' own 128 KB limit).
    const passes = await send('POST', '/v1/clients', Buffer.alloc(MAX_EDGE_BODY_BYTES, 0x61));
    expect(passes.status).toBe(401);
  });

  test("unknown route over HTTP: the same answer as the gateway's", async () => {
    expectAnswer(await send('GET', '/v1/nope'), 'MISSING_AUTHENTICATION_TOKEN');
  });
});
