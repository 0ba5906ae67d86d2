import { DynamoDBClient, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { freePort } from '../../local/dynamodb';
import { createApiKey } from '../../shared/data/apikey-store';
import { db, dynamoConfig, setDb } from '../../shared/data/db';
import { setRateLimitClock } from '../../shared/data/rate-counter';
import { SCOPES, type Scope } from '../../shared/api/routes';
import { apiClient, newWorkspace, tableSnapshot, useTestTable } from '../support/harness';
import { addClientMiddleware, at, fakeClock, parseRateLimit, recordDynamoCalls } from './support';

/**
 * Counter failure policy: FAIL CLOSED (docs/rate-limits.md). When the counter write fails the request
 * is answered 503 SERVICE_UNAVAILABLE + Retry-After: 1, and nothing else runs.
 */
useTestTable();
const api = apiClient();
beforeEach(() => fakeClock(at('2031-05-06T10:00:23Z')));
afterEach(() => {
  setRateLimitClock();
  setDb(undefined);
});

const newKey = (perMinute = 5) => createApiKey({ workspaceId: newWorkspace(), name: 'rl', scopes: [...SCOPES] as Scope[], perMinute, perHour: 1000 });

/** Makes every call on a RATE# counter item fail as DynamoDB throttling does (after the SDK's retries). */
function throttleCounters() {
  let injected = 0;
  const remove = addClientMiddleware((input) => {
    const pk = input.Key?.PK;
    if (typeof pk === 'string' && pk.startsWith('RATE#')) {
      injected++;
      throw new ProvisionedThroughputExceededException({ message: 'Injected: throughput exceeded for the counter item', $metadata: { httpStatusCode: 400 } });
    }
  });
  return { remove, injected: () => injected };
}

test('throttled counter: 503 SERVICE_UNAVAILABLE with Retry-After 1, no handler, nothing written', async () => {
  const { key } = await newKey();
  expect((await api.get('/v1/clients', { key })).status).toBe(200); // authorizer cache warm
  const before = await tableSnapshot({ rateCounters: true });
  const fault = throttleCounters();
  const rec = recordDynamoCalls();
  let res;
  try {
    res = await api.post('/v1/clients', { name: 'Acme' }, { key });
  } finally {
    rec.stop();
    fault.remove();
  }
  expect(res.status).toBe(503);
  expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
  expect(res.body.error.message).toBe('The service is busy; retry after a short wait');
  expect(res.body.error.requestId).toBeDefined();
  expect(res.text).not.toMatch(/Injected|Throughput|RATE#/);
  expect(res.headers['Retry-After']).toBe('1');
  // The policy is known (it comes from the authorizer); the remaining quota is not.
  expect(res.headers['RateLimit-Policy']).toBe('"minute";q=5;w=60, "hour";q=1000;w=3600');
  expect(res.headers.RateLimit).toBeUndefined();
  expect(fault.injected()).toBe(1);
  expect(rec.calls.filter((c) => !c.pk?.startsWith('RATE#'))).toEqual([]); // the handler never ran
  expect(await tableSnapshot({ rateCounters: true })).toEqual(before);

  // The fault cleared: requests flow again, and the refused one was not counted.
  const after = await api.post('/v1/clients', { name: 'Acme' }, { key });
  expect(after.status).toBe(201);
  expect(parseRateLimit(after.headers.RateLimit).minute!.r).toBe(3);
});

test('unreachable DynamoDB: 503 as well (fail closed), never a pass-through', async () => {
  const { key } = await newKey();
  expect((await api.get('/v1/clients', { key })).status).toBe(200);
  const port = await freePort(); // nothing listens there
  setDb(DynamoDBDocumentClient.from(new DynamoDBClient({ ...dynamoConfig(), endpoint: `http://127.0.0.1:${port}`, maxAttempts: 1 })));
  const res = await api.get('/v1/clients', { key });
  expect(res.status).toBe(503);
  expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
  expect(res.headers['Retry-After']).toBe('1');
  setDb(undefined);
  expect((await api.get('/v1/clients', { key })).status).toBe(200);
});

test('a fault on the counter does not touch the public route', async () => {
  const fault = throttleCounters();
  try {
    expect((await api.get('/v1/openapi.json')).status).toBe(200);
  } finally {
    fault.remove();
  }
  expect(fault.injected()).toBe(0);
  expect(db()).toBeDefined();
});
