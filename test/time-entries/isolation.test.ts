import { createHmac } from 'node:crypto';
import { apiClient, newWorkspace, useTestTable } from '../support/harness';
import { created, makeCatalog, pageAll, snapshot, testKey, type Entry } from './helpers';

useTestTable();
const api = apiClient();

/** Two workspaces with the same shape of data: A is the caller, B the victim. */
let keyA: string;
let keyB: string;
let wsB: string;
let catA: Awaited<ReturnType<typeof makeCatalog>>;
let catB: Awaited<ReturnType<typeof makeCatalog>>;
let entriesA: Entry[];
let entriesB: Entry[];

async function fill(key: string, cat: Awaited<ReturnType<typeof makeCatalog>>): Promise<Entry[]> {
  const out: Entry[] = [];
  for (let i = 0; i < 12; i++) {
    const body = {
      userId: `user-${i % 2}`,
      startTime: new Date(Date.UTC(2026, 2, 1 + i, 9)).toISOString(),
      endTime: new Date(Date.UTC(2026, 2, 1 + i, 10)).toISOString(),
      projectId: i % 3 === 0 ? cat.p1.id : cat.p2.id,
      tagIds: [cat.tag1.id],
    };
    out.push(await created<Entry>(api.post('/v1/time-entries', body, { key })));
  }
  return out;
}

beforeAll(async () => {
  const wsA = newWorkspace('iso-a');
  wsB = newWorkspace('iso-b');
  keyA = await testKey(wsA);
  keyB = await testKey(wsB);
  catA = await makeCatalog(api, keyA);
  catB = await makeCatalog(api, keyB);
  entriesA = await fill(keyA, catA);
  entriesB = await fill(keyB, catB);
}, 120_000);

const page1 = async (key: string, query: Record<string, string> = {}) => {
  const res = await api.get('/v1/time-entries', { key, query: { limit: '5', ...query } });
  expect(res.status).toBe(200);
  expect(res.body.nextCursor).toBeDefined();
  return res.body as { items: Entry[]; nextCursor: string };
};

const expectCursorRejected = (res: { status: number; body: any }) => {
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(res.body.error.details).toEqual([{ field: 'cursor', message: expect.any(String) }]);
  expect(res.body.items).toBeUndefined();
};

describe('cursors', () => {
  test('a valid cursor continues the listing', async () => {
    const p = await page1(keyA);
    const next = await api.get('/v1/time-entries', { key: keyA, query: { limit: '5', cursor: p.nextCursor } });
    expect(next.status).toBe(200);
    expect(next.body.items.map((i: Entry) => i.id)).toEqual(
      entriesA
        .slice()
        .reverse()
        .slice(5, 10)
        .map((e) => e.id),
    );
  });

  test('tampered cursors (payload or signature changed, truncated, re-encoded position): 400 on cursor, no data', async () => {
    const { nextCursor } = await page1(keyA);
    const [payload, sig] = nextCursor.split('.') as [string, string];
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    // another position (the payload of another page's cursor), keeping this cursor's signature
    const other = await api.get('/v1/time-entries', { key: keyA, query: { limit: '5', cursor: nextCursor } });
    const moved = (other.body.nextCursor as string).split('.')[0]!;
    const tampered = [flip(payload, 5), `${payload}.${flip(sig, 3)}`, nextCursor.slice(0, -2), `${moved}.${sig}`, `${payload}.`, `.${sig}`, `${payload}.${sig}.${sig}`];
    for (const cursor of tampered) expectCursorRejected(await api.get('/v1/time-entries', { key: keyA, query: { cursor } }));
  });

  test('junk cursors: 400 on cursor, no data', async () => {
    const junk = ['abc', 'a.b', '!!!.???', Buffer.from('{"k":{"PK":"x","SK":"y"}}').toString('base64url'), 'eyJ2IjoxfQ.eyJ2IjoxfQ', 'x'.repeat(2048)];
    for (const cursor of junk) expectCursorRejected(await api.get('/v1/time-entries', { key: keyA, query: { cursor } }));
    // longer than the parameter allows
    const tooLong = await api.get('/v1/time-entries', { key: keyA, query: { cursor: 'x'.repeat(2049) } });
    expect(tooLong.status).toBe(400);
  });

  test('a cursor signed with another secret (e.g. forged with the dev secret) is refused', async () => {
    const { nextCursor } = await page1(keyA);
    const [payload] = nextCursor.split('.') as [string];
    const forged = `${payload}.${createHmac('sha256', 'local-development-cursor-secret-not-for-production').update(`cursor.v1.${payload}`).digest('base64url')}`;
    expectCursorRejected(await api.get('/v1/time-entries', { key: keyA, query: { cursor: forged } }));
  });

  test("another workspace's valid cursor: 400, and nothing of B is returned", async () => {
    const b = await page1(keyB);
    const res = await api.get('/v1/time-entries', { key: keyA, query: { limit: '5', cursor: b.nextCursor } });
    expectCursorRejected(res);
    expect(res.body.error.message).toContain('workspace');
    // same for a filtered one
    const bf = await page1(keyB, { userId: 'user-0', limit: '2' });
    expectCursorRejected(await api.get('/v1/time-entries', { key: keyA, query: { userId: 'user-0', limit: '2', cursor: bf.nextCursor } }));
  });

  test('a cursor reused with other filters: 400', async () => {
    const plain = await page1(keyA);
    const byUser = await page1(keyA, { userId: 'user-0', limit: '2' });
    const ranged = await page1(keyA, { startDate: '2026-03-02', limit: '2' });
    const reuse: Array<[string, Record<string, string>]> = [
      [plain.nextCursor, { userId: 'user-0' }],
      [plain.nextCursor, { projectId: catA.p2.id }],
      [plain.nextCursor, { clientId: catA.c2.id }],
      [plain.nextCursor, { startDate: '2026-03-01' }],
      [plain.nextCursor, { endDate: '2026-03-30' }],
      [byUser.nextCursor, {}],
      [byUser.nextCursor, { userId: 'user-1' }],
      [byUser.nextCursor, { userId: 'user-0', projectId: catA.p2.id }],
      [ranged.nextCursor, { startDate: '2026-03-03' }],
      [ranged.nextCursor, {}],
    ];
    for (const [cursor, q] of reuse) {
      const res = await api.get('/v1/time-entries', { key: keyA, query: { ...q, cursor } });
      expectCursorRejected(res);
    }
    // the same filters written another way are the same filters
    const same = await api.get('/v1/time-entries', { key: keyA, query: { startDate: '2026-03-02T01:00:00+01:00', limit: '2', cursor: ranged.nextCursor } });
    expect(same.status).toBe(200);
    expect(same.body.items).toHaveLength(2);
  });
});

describe('cross-workspace isolation', () => {
  test("A's key with B's valid ids and sortKeys: 404 on get, put and delete; nothing changes", async () => {
    const before = await snapshot();
    for (const e of entriesB.slice(0, 4)) {
      const path = `/v1/time-entries/${e.id}`;
      for (const res of [
        await api.get(path, { key: keyA, query: { sortKey: e.sortKey } }),
        await api.put(path, { notes: 'pwned', startTime: '2026-01-01T00:00:00Z' }, { key: keyA, query: { sortKey: e.sortKey } }),
        await api.del(path, { key: keyA, query: { sortKey: e.sortKey } }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.error).toEqual({ code: 'NOT_FOUND', message: 'Time entry not found' });
      }
    }
    expect(await snapshot()).toEqual(before);
    // B's own key still sees them untouched
    const got = await api.get(`/v1/time-entries/${entriesB[0]!.id}`, { key: keyB, query: { sortKey: entriesB[0]!.sortKey } });
    expect(got.body).toEqual(entriesB[0]);
  });

  test("A cannot reference B's project, client, task or tag (400 naming the field); nothing changes", async () => {
    const before = await snapshot();
    const base = { userId: 'user-0', startTime: '2026-03-20T09:00:00Z' };
    for (const [field, body] of [
      ['projectId', { ...base, projectId: catB.p1.id }],
      ['clientId', { ...base, clientId: catB.c1.id }],
      ['taskId', { ...base, taskId: catB.t1.id }],
      ['tagIds', { ...base, tagIds: [catB.tag1.id] }],
    ] as const) {
      const res = await api.post('/v1/time-entries', body, { key: keyA });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].field).toBe(field);
      const upd = await api.put(
        `/v1/time-entries/${entriesA[0]!.id}`,
        { [field]: (body as Record<string, unknown>)[field] },
        { key: keyA, query: { sortKey: entriesA[0]!.sortKey } },
      );
      expect(upd.status).toBe(400);
    }
    expect(await snapshot()).toEqual(before);
  });

  test("A's list with B's user, project and client ids returns only A's entries", async () => {
    expect((await pageAll(api, keyA, { projectId: catB.p1.id })).items).toEqual([]);
    expect((await pageAll(api, keyA, { clientId: catB.c2.id })).items).toEqual([]);
    const mine = await pageAll(api, keyA, { userId: 'user-0', limit: '3' });
    expect(mine.items.map((i) => i.id).sort()).toEqual(
      entriesA
        .filter((e) => e.userId === 'user-0')
        .map((e) => e.id)
        .sort(),
    );
    const everything = await pageAll(api, keyA, { limit: '200' });
    expect(everything.items.map((i) => i.id).sort()).toEqual(entriesA.map((e) => e.id).sort());
  });

  test("B's records stay deletable-protected by B's entries only; A's references do not leak into B's counters", async () => {
    // A references its own tag; B's tag is used by B's entries only: B deleting its tag is a 409 (its own entries)
    const res = await api.del(`/v1/tags/${catB.tag1.id}`, { key: keyB });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain('12 time entr');
    expect(wsB).toBeDefined();
  });
});
