import { buildOpenApi } from '../../shared/api/openapi';
import { ContractValidator, ContractViolation, toJsonSchema } from '../support/contract';

/**
 * The response validator the harness runs on every response of every suite must itself catch a broken
 * response: each case below is a deliberately wrong response the API must never produce.
 */
const v = new ContractValidator(buildOpenApi() as Record<string, unknown>);
const JSON_CT = { 'Content-Type': 'application/json; charset=utf-8' };
const client = { id: 'c1', name: 'Acme', archived: false, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', etag: '"1"' };
const entry = {
  id: 'e1',
  userId: 'u1',
  startTime: '2026-01-01T09:00:00.000Z',
  billable: false,
  sortKey: '2026-01-01T09:00:00.000Z#e1',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  etag: '"1"',
};
const check = (method: string, path: string, status: number, body: unknown, headers: Record<string, string> = JSON_CT) =>
  v.check({ method, path, status, headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

test('valid responses pass: success bodies, error bodies through $ref responses, the public document', () => {
  expect(check('GET', '/v1/clients/c1', 200, client)).toEqual([]);
  expect(check('POST', '/v1/clients', 201, { ...client, email: 'a@b.example', currency: 'USD' })).toEqual([]);
  expect(check('GET', '/v1/clients', 200, { items: [client] })).toEqual([]);
  expect(check('GET', '/v1/time-entries', 200, { items: [entry], hasMore: true, nextCursor: 'abc' })).toEqual([]);
  expect(check('GET', '/v1/clients/c1', 404, { error: { code: 'NOT_FOUND', message: 'Client not found' } })).toEqual([]);
  expect(check('PUT', '/v1/invoices/i1', 501, { error: { code: 'NOT_IMPLEMENTED', message: 'no' } })).toEqual([]);
  expect(check('DELETE', '/v1/tags/t1', 200, { deleted: true, id: 't1' })).toEqual([]);
  expect(check('GET', '/v1/openapi.json', 200, { openapi: '3.0.3', info: {}, paths: {} })).toEqual([]);
  expect(check('GET', '/v1/docs', 200, '<!DOCTYPE html>', { 'Content-Type': 'text/html; charset=utf-8' })).toEqual([]);
  expect(check('GET', '/v1/docs', 200, '<!DOCTYPE html>', JSON_CT)).toEqual([expect.stringContaining('the document declares text/html')]);
});

test('a status the operation does not declare is a violation', () => {
  expect(check('GET', '/v1/clients/c1', 201, client)).toEqual([expect.stringContaining('status 201 is not declared for getClient')]);
  // an error status not listed falls under `default` ("any other error"): declared, and its body must be the error body
  expect(check('GET', '/v1/clients/c1', 409, { error: { code: 'CONFLICT', message: 'x' } })).toEqual([]);
  expect(check('GET', '/v1/clients/c1', 409, client)).toEqual(expect.arrayContaining(["body must have required property 'error'"]));
  expect(check('POST', '/v1/invoices', 201, {})).toEqual([expect.stringContaining('status 201 is not declared for createInvoice')]);
  expect(check('GET', '/v1/tags', 418, {})).toEqual(["body must have required property 'error'"]);
});

test('bodies the schema refuses are violations: extra (storage) attributes, missing or mistyped fields, bad formats, nested items', () => {
  expect(check('GET', '/v1/clients/c1', 200, { ...client, PK: 'WS#x' })).toEqual([expect.stringMatching(/must NOT have additional properties \(PK\)/)]);
  const { name: _n, ...noName } = client;
  void _n;
  expect(check('GET', '/v1/clients/c1', 200, noName)).toEqual([expect.stringContaining("must have required property 'name'")]);
  expect(check('GET', '/v1/clients/c1', 200, { ...client, archived: 'no' })).toEqual([expect.stringMatching(/archived must be boolean/)]);
  expect(check('GET', '/v1/clients/c1', 200, { ...client, createdAt: 'yesterday' })).toEqual([expect.stringMatching(/createdAt must match format "date-time"/)]);
  expect(check('GET', '/v1/clients/c1', 200, { ...client, email: null })).toEqual([expect.stringMatching(/email must be string/)]);
  // through the list wrapper and the TimeEntry $ref
  expect(check('GET', '/v1/time-entries', 200, { items: [{ ...entry, _type: 'TIMEENTRY' }], hasMore: false })).toEqual([
    expect.stringMatching(/items\/0 must NOT have additional properties \(_type\)/),
  ]);
  expect(check('GET', '/v1/time-entries', 200, { items: [entry] })).toEqual([expect.stringContaining("must have required property 'hasMore'")]);
  expect(check('DELETE', '/v1/tags/t1', 200, { deleted: false, id: 't1' })).toEqual([expect.stringMatching(/deleted must be equal to one of the allowed values/)]);
});

test('error bodies are checked against the Error schema (code enum, required message, no extra fields)', () => {
  expect(check('GET', '/v1/clients/c1', 404, { error: { code: 'MISSING', message: 'x' } })).toEqual([expect.stringMatching(/code must be equal to one of the allowed values/)]);
  expect(check('GET', '/v1/clients/c1', 404, { error: { code: 'NOT_FOUND' } })).toEqual([expect.stringContaining("must have required property 'message'")]);
  expect(check('GET', '/v1/clients/c1', 500, { error: { code: 'INTERNAL_ERROR', message: 'x', stack: 'at foo' } })).toEqual([
    expect.stringMatching(/additional properties \(stack\)/),
  ]);
  expect(check('GET', '/v1/clients/c1', 404, { message: 'Not Found' })).toEqual(expect.arrayContaining([expect.stringContaining("must have required property 'error'")]));
});

test('a body that is not JSON, or not declared as JSON, is a violation', () => {
  expect(check('GET', '/v1/clients/c1', 200, '<html>')).toEqual([expect.stringContaining('body is not JSON')]);
  expect(check('GET', '/v1/clients/c1', 200, client, { 'Content-Type': 'text/plain' })).toEqual([expect.stringContaining('Content-Type is text/plain')]);
});

test('paths and methods the document does not declare are counted, not validated', () => {
  const before = { ...v.stats };
  expect(check('GET', '/v1/nope', 404, { error: { code: 'NOT_FOUND', message: 'Route not found' } })).toEqual([]);
  expect(check('PATCH', '/v1/clients/c1', 501, { error: { code: 'NOT_IMPLEMENTED', message: 'x' } })).toEqual([]);
  expect(v.stats.unmatched).toBe(before.unmatched + 2);
  expect(v.stats.validated).toBe(before.validated);
});

test('assert() throws a ContractViolation naming the request, operation and each problem', () => {
  const bad = { method: 'GET', path: '/v1/clients/c1', status: 200, headers: JSON_CT, body: JSON.stringify({ ...client, SK: 'CLIENT#c1' }) };
  expect(() => v.assert(bad)).toThrow(ContractViolation);
  expect(() => v.assert(bad)).toThrow(/GET \/v1\/clients\/c1 \(getClient\) -> 200[\s\S]*additional properties \(SK\)/);
  expect(() => v.assert({ ...bad, body: JSON.stringify(client) })).not.toThrow();
});

describe('OpenAPI 3.0 -> JSON Schema', () => {
  const doc = (schema: unknown) =>
    new ContractValidator({
      openapi: '3.0.3',
      paths: { '/x': { get: { operationId: 'x', responses: { '200': { description: 'OK', content: { 'application/json': { schema } } } } } } },
      components: {
        schemas: { Thing: { type: 'object', properties: { a: { type: 'integer', nullable: true } }, required: ['a'], additionalProperties: false, example: { a: 1 } } },
      },
    });
  const run = (schema: unknown, body: unknown) => doc(schema).check({ method: 'GET', path: '/x', status: 200, body: JSON.stringify(body) });

  test('nullable allows null, and only null beside the type', () => {
    expect(run({ $ref: '#/components/schemas/Thing' }, { a: null })).toEqual([]);
    expect(run({ $ref: '#/components/schemas/Thing' }, { a: 1 })).toEqual([]);
    expect(run({ $ref: '#/components/schemas/Thing' }, { a: 'x' })).not.toEqual([]);
    expect(run({ type: 'string', enum: ['a', 'b'], nullable: true }, null)).toEqual([]);
    expect(run({ type: 'string', enum: ['a', 'b'], nullable: true }, 'c')).not.toEqual([]);
    expect(run({ allOf: [{ $ref: '#/components/schemas/Thing' }], nullable: true }, null)).toEqual([]);
    expect(run({ type: 'string' }, null)).not.toEqual([]);
  });

  test('boolean exclusive bounds become numeric ones; example and x- keywords are dropped', () => {
    expect(toJsonSchema({ type: 'number', minimum: 0, exclusiveMinimum: true, 'x-foo': 1, example: 3 })).toEqual({ type: 'number', exclusiveMinimum: 0 });
    expect(run({ type: 'number', minimum: 0, exclusiveMinimum: true }, 0)).not.toEqual([]);
    expect(run({ type: 'number', maximum: 5, exclusiveMaximum: true }, 4.5)).toEqual([]);
    expect(run({ type: 'number', maximum: 5, exclusiveMaximum: true }, 5)).not.toEqual([]);
    // a property that happens to be called "example" is data, not a keyword
    expect(toJsonSchema({ type: 'object', properties: { example: { type: 'string' } } })).toEqual({ type: 'object', properties: { example: { type: 'string' } } });
  });
});
