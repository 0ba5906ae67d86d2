import { apiClient, makeKey, newWorkspace, useTestTable } from '../support/harness';

/**
 * Missing and mistyped parameters are answered in plain words, field by field: "sortKey is required",
 * "estimateMinutes must be an integer", never the validator's own text ("Invalid input: expected
 * string, received undefined"). A schema's own message (e.g. limit's) is kept.
 */
useTestTable();
const api = apiClient();
let key: string;
beforeAll(async () => {
  key = await makeKey(newWorkspace('msg'));
});
const ID = '01ABSENT000000000000000000';
const RAW = /Invalid input|expected \w+, received|Too (small|big)|Invalid option|Unrecognized key/;

test.each([
  ['a missing sortKey', () => api.get(`/v1/time-entries/${ID}`, { key }), 'Invalid query parameter: sortKey is required', [{ field: 'sortKey', message: 'is required' }]],
  ['a missing userId', () => api.get(`/v1/favorites/${ID}`, { key }), 'Invalid query parameter: userId is required', [{ field: 'userId', message: 'is required' }]],
  [
    'a missing required body field',
    () => api.post('/v1/time-entries', { userId: 'ann' }, { key }),
    'Invalid request body: startTime is required',
    [{ field: 'startTime', message: 'is required' }],
  ],
  [
    'a string for a number',
    () => api.post('/v1/tasks', { projectId: 'p', name: 'x', estimateMinutes: 'ten' }, { key }),
    'Invalid request body: estimateMinutes must be a number',
    [{ field: 'estimateMinutes', message: 'must be a number' }],
  ],
  [
    'a fraction for an integer',
    () => api.post('/v1/tasks', { projectId: 'p', name: 'x', estimateMinutes: 1.5 }, { key }),
    'Invalid request body: estimateMinutes must be an integer',
    [{ field: 'estimateMinutes', message: 'must be an integer' }],
  ],
  ['a number for a string', () => api.post('/v1/clients', { name: 5 }, { key }), 'Invalid request body: name must be a string', [{ field: 'name', message: 'must be a string' }]],
  [
    'a string for a boolean',
    () => api.post('/v1/clients', { name: 'x', archived: 'yes' }, { key }),
    'Invalid request body: archived must be true or false',
    [{ field: 'archived', message: 'must be true or false' }],
  ],
  [
    'a value outside an enum',
    () => api.post('/v1/tasks', { projectId: 'p', name: 'x', status: 'open' }, { key }),
    'Invalid request body: status must be one of: active, done',
    [{ field: 'status', message: 'must be one of: active, done' }],
  ],
  [
    'a string over its length',
    () => api.post('/v1/clients', { name: 'x'.repeat(256) }, { key }),
    'Invalid request body: name must be at most 255 characters long',
    [{ field: 'name', message: 'must be at most 255 characters long' }],
  ],
  [
    'a number over its bound',
    () => api.post('/v1/tasks', { projectId: 'p', name: 'x', estimateMinutes: -1 }, { key }),
    'Invalid request body: estimateMinutes must be at least 0',
    [{ field: 'estimateMinutes', message: 'must be at least 0' }],
  ],
  [
    'a bad date-time',
    () => api.post('/v1/time-entries', { userId: 'ann', startTime: 'monday' }, { key }),
    'Invalid request body: startTime must be an ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z',
    [{ field: 'startTime', message: 'must be an ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z' }],
  ],
  [
    'a schema message of its own (kept)',
    () => api.get('/v1/invoices', { key, query: { limit: 'ten' } }),
    'Invalid query parameter: limit must be an integer from 1 to 200',
    [{ field: 'limit', message: 'must be an integer from 1 to 200' }],
  ],
] as const)('%s: a plain message naming the field', async (_label, call, message, details) => {
  const res = await call();
  expect(res.status).toBe(400);
  expect(res.body.error).toEqual({ code: 'VALIDATION_ERROR', message, details });
  expect(res.text).not.toMatch(RAW);
});

test('several problems at once: each field in its sentence, all in the details', async () => {
  const res = await api.post('/v1/time-entries', { startTime: 5, billable: 'no' }, { key });
  expect(res.status).toBe(400);
  expect(res.body.error.details).toEqual([
    { field: 'userId', message: 'is required' },
    { field: 'startTime', message: 'must be an ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z' },
    { field: 'billable', message: 'must be true or false' },
  ]);
  expect(res.body.error.message).toBe(
    'Invalid request body: userId is required; startTime must be an ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z; billable must be true or false',
  );
});
