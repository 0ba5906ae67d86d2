import { db, setDb } from '../../shared/data/db';
import { apiClient, makeKey, newWorkspace, useTestTable } from '../support/harness';

useTestTable();
const api = apiClient();

/**
 * Fault injection only (DynamoDB Local cannot fail on demand): the data calls of the route fail, while
 * the rate-limit counter (RATE# items, its own fault policy is tested with the limiter) goes through.
 */
function failingDb(err: Error) {
  const real = db();
  return {
    send: async (cmd: { input?: { Key?: { PK?: string } } }) => {
      if (String(cmd.input?.Key?.PK ?? '').startsWith('RATE#')) return real.send(cmd as never);
      throw err;
    },
  } as never;
}

describe('unexpected failures', () => {
  let key: string;
  beforeAll(async () => {
    key = await makeKey(newWorkspace());
    // warm the authorizer cache so the fault hits the resource Lambda, not the authorizer
    expect((await api.get('/v1/clients', { key })).status).toBe(200);
  });
  afterEach(() => setDb(undefined));

  test('an unexpected error is a 500 with a request id and no internals', async () => {
    const err = new Error('ECONNRESET at internal-host.secret:8000 table timetrack-prod');
    err.name = 'SomeInternalError';
    setDb(failingDb(err));
    const res = await api.get('/v1/clients', { key });
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('INTERNAL_ERROR');
    expect(res.body.error.message).toBe('An unexpected error occurred');
    expect(res.body.error.requestId).toBe(res.headers['X-Request-Id']);
    expect(res.text).not.toMatch(/ECONNRESET|internal-host|timetrack-prod|SomeInternalError|at .*\.ts/);
  });

  test.each(['ProvisionedThroughputExceededException', 'ThrottlingException', 'TimeoutError'])('%s is a retryable 503 SERVICE_UNAVAILABLE', async (name) => {
    const err = new Error('Rate of requests exceeds the allowed throughput');
    err.name = name;
    setDb(failingDb(err));
    const res = await api.post('/v1/clients', { name: 'x' }, { key });
    expect(res.status).toBe(503);
    expect(res.headers['Retry-After']).toBe('1');
    expect(res.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(res.text).not.toContain('throughput');
  });

  test('every response carries X-Request-Id and a JSON content type', async () => {
    const ok = await api.get('/v1/clients', { key });
    expect(ok.headers['X-Request-Id']).toMatch(/[0-9a-f-]{36}/);
    expect(ok.headers['Content-Type']).toMatch(/^application\/json/);
  });
});

describe('request size', () => {
  test('a body over 128 KB is a 413 PAYLOAD_TOO_LARGE in the error body, and nothing is written', async () => {
    const key = await makeKey(newWorkspace());
    const res = await api.call('POST', '/v1/clients', { key, rawBody: JSON.stringify({ name: 'A', notes: 'x'.repeat(130 * 1024) }) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body too large (at most 128 KB)' } });
    expect((await api.get('/v1/clients', { key })).body.items).toEqual([]);
  });
});
