import { createInvoice } from '../../shared/data/repositories';
import { type ApiError } from '../../shared/api/errors';
import { toApiError } from '../../shared/api/response';
import { apiClient, makeKey, newWorkspace, useTestTable, type CallResult } from '../support/harness';
import { invariantViolations, workspaceItems } from '../faults/invariants';

/**
 * Concurrency, consolidated: races the API must win without a lock service, on DynamoDB conditions alone.
 *   1. parallel creates (and renames) to one unique name, in every casing/spacing: exactly one wins, the
 *      others get 409 CONFLICT, one record and one lock remain (clients, tags, tasks per project, invoice
 *      numbers);
 *   2. parallel merge updates of one record, each sending other fields: every acknowledged field is in
 *      the final record (client; time entry incl. tag changes that move usage counters), and an update
 *      racing a move of the entry is either in the moved entry or refused;
 *   3. paging through time entries while others create and move entries: every entry that existed
 *      throughout and did not move is listed exactly once, the listing is strictly newest-first (so no
 *      entry is listed twice at one position), across page sizes and index-backed filters.
 * After each race the consistency rules hold (usage counters exact, one lock per name:
 * test/faults/invariants.ts).
 */
useTestTable();
const api = apiClient();
const ROUNDS = Number(process.env.CONCURRENCY_ROUNDS ?? 4);
const PARALLEL = 8;

async function workspace(label: string) {
  const ws = newWorkspace(label);
  return { ws, key: await makeKey(ws, { perMinute: 1_000_000, perHour: 1_000_000 }) };
}
async function ok<T = any>(p: Promise<CallResult<T>>, status = 201): Promise<T> {
  const res = await p;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.text}`);
  return res.body;
}
async function consistent(ws: string) {
  expect(invariantViolations(ws, await workspaceItems(ws))).toEqual([]);
}
/** Casing and spacing variants that normalize to one unique value. */
const variants = (name: string) => Array.from({ length: PARALLEL }, (_, i) => [name, name.toUpperCase(), name.toLowerCase(), ` ${name} `][i % 4]!);

describe('parallel creates of one unique name: exactly one wins', () => {
  test.each([
    ['clients', (_c: { projectId: string }, name: string) => ({ name })],
    ['tags', (_c: { projectId: string }, name: string) => ({ name })],
    ['tasks', (c: { projectId: string }, name: string) => ({ projectId: c.projectId, name })],
  ] as const)('%s', async (resource, body) => {
    const { ws, key } = await workspace(`race-${resource}`);
    const project = await ok(api.post('/v1/projects', { name: 'P' }, { key }));
    const other = await ok(api.post('/v1/projects', { name: 'Q' }, { key }));
    for (let round = 0; round < ROUNDS; round++) {
      const name = `Race ${round}`;
      const results = await Promise.all(variants(name).map((n) => api.post(`/v1/${resource}`, body({ projectId: project.id }, n), { key })));
      expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(PARALLEL - 1).fill(409)]);
      for (const r of results.filter((x) => x.status === 409)) expect(r.body.error).toEqual({ code: 'CONFLICT', message: expect.stringMatching(/already exists/) });
      const listed = (await api.get(`/v1/${resource}`, { key })).body.items.filter((x: { name: string }) => x.name.trim().toLowerCase() === name.toLowerCase());
      expect(listed).toHaveLength(1);
    }
    if (resource === 'tasks') {
      // The name is unique per project: the same race in another project has its own winner.
      const results = await Promise.all(variants('Race 0').map((n) => api.post('/v1/tasks', { projectId: other.id, name: n }, { key })));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    }
    await consistent(ws);
  });

  test('invoice numbers (created by the application: the repository path the seed uses)', async () => {
    const { ws, key } = await workspace('race-invoices');
    const client = await ok(api.post('/v1/clients', { name: 'Billed' }, { key }));
    for (let round = 0; round < ROUNDS; round++) {
      const results = await Promise.allSettled(
        variants(`INV-${round}`).map((number) =>
          createInvoice(ws, {
            number,
            clientId: client.id,
            status: 'draft',
            issueDate: '2026-03-01',
            dueDate: '2026-03-31',
            currency: 'USD',
            lineItems: [{ description: 'Work', quantity: 1, unitPrice: 10, amount: 10 }],
            subtotal: 10,
            tax: 0,
            total: 10,
          }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(toApiError(r.reason)).toEqual(expect.objectContaining({ code: 'CONFLICT' }) as ApiError);
    }
    const listed = (await api.get('/v1/invoices', { key, query: { limit: '200' } })).body.items;
    expect(listed).toHaveLength(ROUNDS);
    await consistent(ws);
  });

  test('renames and creates racing to one name: exactly one holds it, the losers keep their old names', async () => {
    const { ws, key } = await workspace('race-rename');
    for (let round = 0; round < ROUNDS; round++) {
      const existing = await Promise.all(Array.from({ length: 4 }, (_, i) => ok(api.post('/v1/tags', { name: `old ${round}-${i}` }, { key }))));
      const target = `Target ${round}`;
      const results = await Promise.all([
        ...existing.map((t) => api.put(`/v1/tags/${t.id}`, { name: target }, { key })),
        ...variants(target)
          .slice(0, 4)
          .map((n) => api.post('/v1/tags', { name: n }, { key })),
      ]);
      expect(results.filter((r) => r.status < 300)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(results.length - 1);
      const tags = (await api.get('/v1/tags', { key })).body.items as Array<{ id: string; name: string }>;
      expect(tags.filter((t) => t.name.trim().toLowerCase() === target.toLowerCase())).toHaveLength(1);
      for (const [i, t] of existing.entries()) if (results[i]!.status === 409) expect(tags.find((x) => x.id === t.id)?.name).toBe(t.name);
    }
    await consistent(ws);
  });
});

describe('parallel merge updates of one record: no acknowledged field is lost', () => {
  test('client: six fields sent by six parallel requests', async () => {
    const { ws, key } = await workspace('merge-client');
    for (let round = 0; round < ROUNDS; round++) {
      const c = await ok(api.post('/v1/clients', { name: `Merge ${round}` }, { key }));
      const patches = [
        { email: `r${round}@example.com` },
        { address: `${round} Main St` },
        { notes: `note ${round}` },
        { currency: 'GBP' },
        { archived: true },
        { name: `Merged ${round}` },
      ];
      const results = await Promise.all(patches.map((p) => api.put(`/v1/clients/${c.id}`, p, { key })));
      expect(results.map((r) => r.status)).toEqual(patches.map(() => 200));
      expect((await api.get(`/v1/clients/${c.id}`, { key })).body).toMatchObject(Object.assign({}, ...patches));
    }
    await consistent(ws);
  });

  test('time entry: six fields incl. tag and project changes (usage counters move) from parallel requests', async () => {
    const { ws, key } = await workspace('merge-entry');
    const client = await ok(api.post('/v1/clients', { name: 'C' }, { key }));
    const p1 = await ok(api.post('/v1/projects', { name: 'P1', clientId: client.id }, { key }));
    const tagList = await Promise.all(['a', 'b', 'c'].map((n) => ok(api.post('/v1/tags', { name: n }, { key }))));
    for (let round = 0; round < ROUNDS; round++) {
      const e = await ok(api.post('/v1/time-entries', { userId: 'u1', startTime: `2026-04-0${round + 1}T09:00:00Z`, tagIds: [tagList[0]!.id] }, { key }));
      const patches: Array<Record<string, unknown>> = [
        { name: `entry ${round}` },
        { notes: `notes ${round}` },
        { billable: true },
        { endTime: `2026-04-0${round + 1}T11:30:00.000Z` },
        { tagIds: [tagList[1]!.id, tagList[2]!.id] },
        { projectId: p1.id },
      ];
      const results = await Promise.all(patches.map((p) => api.put(`/v1/time-entries/${e.id}`, p, { key, query: { sortKey: e.sortKey } })));
      expect(results.map((r) => r.status)).toEqual(patches.map(() => 200));
      const final = (await api.get(`/v1/time-entries/${e.id}`, { key, query: { sortKey: e.sortKey } })).body;
      expect(final).toMatchObject({ ...Object.assign({}, ...patches), clientId: client.id, durationMinutes: 150 });
    }
    await consistent(ws);
  });

  test('an update racing a move of the entry: in the moved entry when acknowledged, else refused (404), never lost', async () => {
    const { ws, key } = await workspace('merge-move');
    let applied = 0;
    for (let round = 0; round < ROUNDS * 2; round++) {
      // each round's entry has its own user: a second running timer of one user would stop the first (timers)
      const e = await ok(api.post('/v1/time-entries', { userId: `u${round}`, startTime: `2026-05-01T0${round % 10}:00:00Z` }, { key }));
      const [move, notes, name] = await Promise.all([
        api.put(`/v1/time-entries/${e.id}`, { startTime: `2026-06-01T0${round % 10}:00:00Z` }, { key, query: { sortKey: e.sortKey } }),
        api.put(`/v1/time-entries/${e.id}`, { notes: `n${round}` }, { key, query: { sortKey: e.sortKey } }),
        api.put(`/v1/time-entries/${e.id}`, { name: `x${round}` }, { key, query: { sortKey: e.sortKey } }),
      ]);
      expect(move.status).toBe(200);
      const final = (await api.get(`/v1/time-entries/${e.id}`, { key, query: { sortKey: move.body.sortKey } })).body;
      expect(final.startTime).toBe(`2026-06-01T0${round % 10}:00:00.000Z`);
      for (const [res, field, value] of [
        [notes, 'notes', `n${round}`],
        [name, 'name', `x${round}`],
      ] as const) {
        expect([200, 404]).toContain(res.status);
        if (res.status === 200) {
          applied++;
          expect(final[field]).toBe(value);
        }
      }
      expect((await api.get(`/v1/time-entries/${e.id}`, { key, query: { sortKey: e.sortKey } })).status).toBe(404);
    }

    console.log(`concurrency: ${applied} of ${ROUNDS * 4} updates racing a move were acknowledged (and kept)`);
    await consistent(ws);
  });
});

describe('paging while entries are created and moved', () => {
  test.each([
    ['the whole workspace, limit 7', {}, '7'],
    ['one user (GSI1), limit 25', { userId: 'stable' }, '25'],
    ['one project (GSI2), limit 10', { project: true }, '10'],
  ] as const)('%s: every entry present throughout and never moved is listed exactly once, strictly newest first', async (_label, filter, limit) => {
    const { ws, key } = await workspace('paging');
    const project = await ok(api.post('/v1/projects', { name: 'Paged' }, { key }));
    const base = Date.UTC(2026, 6, 1);
    const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
    // finished entries (running ones of one user would stop each other: timers)
    const bodyFor = (userId: string, minutes: number) => ({ userId, startTime: at(minutes), endTime: at(minutes + 5), projectId: project.id });
    // 90 stable entries spread over 90 hours, 30 movers interleaved with them.
    const stable: Array<{ id: string }> = [];
    const movers: Array<{ id: string; sortKey: string }> = [];
    for (let i = 0; i < 90; i += 10) {
      stable.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => ok(api.post('/v1/time-entries', bodyFor('stable', (i + j) * 60), { key }))))));
    }
    for (let i = 0; i < 30; i += 10) {
      movers.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => ok(api.post('/v1/time-entries', bodyFor('stable', (i + j) * 180 + 7), { key }))))));
    }
    const query: Record<string, string> = { limit, ...('userId' in filter ? { userId: filter.userId } : {}), ...('project' in filter ? { projectId: project.id } : {}) };

    let stop = false;
    let mutations = 0;
    const mutate = async (w: number) => {
      for (let n = 0; !stop; n++) {
        if (n % 2 === 0) {
          // create a new entry anywhere in (and beyond) the range
          await ok(api.post('/v1/time-entries', bodyFor('stable', ((w * 7919 + n * 104_729) % 6000) - 300 + 0.5), { key }));
        } else {
          const m = movers[(w * 13 + n) % movers.length]!;
          const minute = ((w * 31 + n * 997) % 5400) + 0.25;
          const res = await api.put(`/v1/time-entries/${m.id}`, { startTime: at(minute), endTime: at(minute + 5) }, { key, query: { sortKey: m.sortKey } });
          if (res.status === 200) m.sortKey = res.body.sortKey;
          else expect(res.status).toBe(404); // another mover got there first: this sortKey is stale
        }
        mutations++;
      }
    };

    const passes: string[][] = [];
    const pager = async () => {
      for (let pass = 0; pass < 2; pass++) {
        const seen: Array<{ id: string; sortKey: string }> = [];
        let cursor: string | undefined;
        for (;;) {
          const res = await api.get('/v1/time-entries', { key, query: { ...query, ...(cursor ? { cursor } : {}) } });
          expect(res.status).toBe(200);
          seen.push(...res.body.items);
          cursor = res.body.nextCursor;
          if (!res.body.hasMore) break;
        }
        // Strictly newest first over the whole listing: nothing listed twice at one position.
        for (let i = 1; i < seen.length; i++) expect(seen[i - 1]!.sortKey > seen[i]!.sortKey).toBe(true);
        passes.push(seen.map((s) => s.id));
      }
    };
    const mutators = Array.from({ length: 3 }, (_, w) => mutate(w));
    await Promise.all([pager(), pager()]);
    stop = true;
    await Promise.all(mutators);

    expect(mutations).toBeGreaterThan(10);
    for (const ids of passes) {
      const counts = new Map<string, number>();
      for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
      expect(stable.filter((s) => counts.get(s.id) !== 1).map((s) => `${s.id} x${counts.get(s.id) ?? 0}`)).toEqual([]);
    }

    console.log(`concurrency: ${passes.length} listings (${passes.map((p) => p.length).join(', ')} entries) during ${mutations} concurrent creates/moves`);
    await consistent(ws);
  });
});
