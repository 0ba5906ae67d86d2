import { bindingHash, canonicalJson, decodeCursor, encodeCursor } from '../../shared/data/cursor';
import { ApiError } from '../../shared/api/errors';
import { toApiError } from '../../shared/api/response';
import { resetCursorSecretCache } from '../../shared/data/secrets';
import { sortKeyRange } from '../../shared/domain/entities/time-entries';

/** Pure cursor logic (no DynamoDB involved); the API-level cursor cases are in isolation.test.ts. */
const binding = { workspaceId: 'w1', query: { i: 'GSI1', k: { expression: 'x', values: { ':pk': 'a' } } } };
const attrs = ['PK', 'SK', 'GSI1PK', 'GSI1SK'];
const key = { PK: 'WS#w1#TE', SK: '2026-01-01T00:00:00.000Z#A', GSI1PK: 'WS#w1#TE#U#u', GSI1SK: '2026-01-01T00:00:00.000Z#A' };

const rejects = async (p: Promise<unknown>) => {
  // the data layer refuses with a domain error; the API answers it as this ApiError
  const err = await p.then(
    () => undefined,
    (e: unknown) => toApiError(e),
  );
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).status).toBe(400);
  expect((err as ApiError).details?.[0]?.field).toBe('cursor');
};

test('canonical JSON ignores key order and undefined members', () => {
  expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: undefined } })).toBe('{"a":{"d":[1,{"x":1,"y":2}]},"b":1}');
  expect(bindingHash({ a: 1, b: 2 })).toBe(bindingHash({ b: 2, a: 1 }));
  expect(bindingHash({ a: 1 })).not.toBe(bindingHash({ a: '1' }));
});

test('round trip; bound to workspace, query and the exact key attributes', async () => {
  const c = await encodeCursor(binding, key);
  expect(c).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  expect(await decodeCursor(c, binding, attrs)).toEqual(key);
  await rejects(decodeCursor(c, { ...binding, workspaceId: 'w2' }, attrs));
  await rejects(decodeCursor(c, { ...binding, query: { ...binding.query, i: 'GSI2' } }, attrs));
  await rejects(decodeCursor(c, binding, ['PK', 'SK'])); // a table cursor must not carry index keys
  const tableCursor = await encodeCursor(binding, { PK: 'a', SK: 'b' });
  await rejects(decodeCursor(tableCursor, binding, attrs));
});

test('another secret makes every outstanding cursor invalid', async () => {
  const c = await encodeCursor(binding, key);
  const old = process.env.CURSOR_SECRET;
  try {
    process.env.CURSOR_SECRET = 'rotated-secret';
    resetCursorSecretCache();
    await rejects(decodeCursor(c, binding, attrs));
  } finally {
    process.env.CURSOR_SECRET = old;
    resetCursorSecretCache();
  }
  expect(await decodeCursor(c, binding, attrs)).toEqual(key);
});

test('date range bounds: inclusive, whole UTC day for a date, offsets normalized, reversed range refused', () => {
  expect(sortKeyRange('2026-01-31', '2026-01-31')).toEqual({ lo: '2026-01-31T00:00:00.000Z', hi: '2026-01-31T23:59:59.999Z#~' });
  expect(sortKeyRange('2026-01-31T10:00:00+02:00', undefined)).toEqual({ lo: '2026-01-31T08:00:00.000Z', hi: '9999-12-31T23:59:59.999Z#~' });
  expect(sortKeyRange(undefined, undefined)).toEqual({ lo: '0000-01-01T00:00:00.000Z', hi: '9999-12-31T23:59:59.999Z#~' });
  // the hi bound sorts after every sortKey starting at that instant, and before the next millisecond
  const { hi } = sortKeyRange(undefined, '2026-01-31T08:00:00Z');
  expect('2026-01-31T08:00:00.000Z#ZZZZZZZZZZZZZZZZZZZZZZZZZZ' < hi).toBe(true);
  expect('2026-01-31T08:00:00.001Z#0' > hi).toBe(true);
  expect(() => {
    try {
      sortKeyRange('2026-02-01', '2026-01-31');
    } catch (e) {
      throw toApiError(e);
    }
  }).toThrow(ApiError);
});
