import SwaggerParser from '@apidevtools/swagger-parser';
import { ANY_KEY, RESOURCES, routeList, SCOPES } from '../../shared/api/routes';
import { apiClient, useTestTable } from '../support/harness';

useTestTable();
const api = apiClient();

describe('GET /v1/openapi.json', () => {
  let doc: any;
  beforeAll(async () => {
    const res = await api.get('/v1/openapi.json', { headers: { Host: 'api.example.test', 'X-Forwarded-Proto': 'https' } });
    expect(res.status).toBe(200);
    doc = res.body;
  });

  test('may be cached 5 minutes by browsers and proxies (public route: its own small throttle in AWS)', async () => {
    const res = await api.get('/v1/openapi.json');
    expect(res.headers['Cache-Control'] ?? res.headers['cache-control']).toBe('public, max-age=300');
  });

  test('is public and a valid OpenAPI 3.0 document', async () => {
    expect(doc.openapi).toMatch(/^3\.0\.\d$/);
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
  });

  test('lists every route of the table with its scope, success and error statuses', () => {
    for (const r of routeList) {
      const op = doc.paths[r.path]?.[r.method.toLowerCase()];
      expect(op).toBeDefined();
      expect(op.operationId).toBe(r.id);
      const statuses = Object.keys(op.responses);
      if (r.notImplemented) expect(statuses).toContain('501');
      else expect(statuses).toContain(String(r.successStatus));
      if (r.scope === ANY_KEY) {
        // any valid key: no scope to name, but still 401 without one and 403 over the rate limit
        expect(op.security).toEqual([{ ApiKeyAuth: [] }]);
        expect(op['x-required-scope']).toBeUndefined();
        expect(op.description).toContain('Any valid API key may call it');
        expect(statuses).toEqual(expect.arrayContaining(['401', '403']));
      } else if (r.scope) {
        expect(op.security).toEqual([{ ApiKeyAuth: [] }]);
        expect(op['x-required-scope']).toBe(r.scope);
        expect(statuses).toEqual(expect.arrayContaining(['401', '403']));
      } else {
        expect(op.security).toEqual([]);
      }
      if (r.params && !r.notImplemented) expect(statuses).toContain('404');
      if (r.body) expect(op.requestBody.content['application/json'].schema).toBeDefined();
    }
    const resources = new Set(routeList.map((r) => r.resource));
    expect([...resources].sort()).toEqual([...RESOURCES, 'changes', 'me', 'openapi', 'reports'].sort());
  });

  test("declares the API key scheme, the error schema with examples, and the caller's server URL", () => {
    expect(doc.components.securitySchemes.ApiKeyAuth).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }));
    expect(doc.components.schemas.ErrorResponse.properties.error.required).toEqual(['code', 'message']);
    expect(doc.components.responses.NotFound.content['application/json'].example).toEqual({ error: { code: 'NOT_FOUND', message: 'Client not found' } });
    expect(doc.servers).toEqual([{ url: 'https://api.example.test', 'x-internal': false }]);
    expect(doc.info.description).toContain(SCOPES[0]);
  });

  test('required query parameters are marked (sortKey, favorites userId) and limit is documented', () => {
    const param = (path: string, method: string, name: string) => doc.paths[path][method].parameters.find((p: { name: string }) => p.name === name);
    expect(param('/v1/time-entries/{id}', 'get', 'sortKey').required).toBe(true);
    expect(param('/v1/favorites/{id}', 'delete', 'userId').required).toBe(true);
    expect(param('/v1/time-entries', 'get', 'limit').required).toBe(false);
    expect(param('/v1/time-entries', 'get', 'limit').description).toMatch(/1-200/);
  });
});
