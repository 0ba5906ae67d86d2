import { indexKeys } from '../../shared/data/keys';
import { clients, favorites, invoices, projects, tags, tasks, timeEntries } from '../../shared/data/repositories';
import type { Repository } from '../../shared/data/repository';
import { uniqueValue, type AnyEntity } from '../../shared/domain/entity';
import { apiClient, useTestTable } from '../support/harness';
import { withFaultClient } from '../faults/inject';
import { dataSnapshot, err, workspaceWithKey } from './support';

/**
 * What the repository derives from the entity declarations, and the data calls it buys
 * (shared/domain/entity.ts, shared/data/repository.ts):
 * - `usedBy` lists exactly the entity types whose references count on a record (the one-call delete's
 *   condition is built from it: a missing type would let a referenced record be deleted);
 * - a field outside `coupled` changes no key, index key, lock value or derived value (so an update
 *   sending only such fields may skip the read);
 * - the calls each kind of update and delete makes, counted on the real client against DynamoDB Local,
 *   with the 404/409 answers and isolation of the one-call paths.
 */
const ENTITIES: Array<Repository<AnyEntity>> = [clients, projects, tasks, tags, timeEntries, favorites, invoices];

describe('declarations', () => {
  test('usedBy of every entity lists exactly the types that reference it', () => {
    for (const target of ENTITIES) {
      const referencing = ENTITIES.filter((e) => (e.entity.references ?? []).some((r) => r.target() === target.entity)).map((e) => e.entity.type);
      expect({ entity: target.entity.type, usedBy: target.usedBy.map((u) => u.type).sort() }).toEqual({ entity: target.entity.type, usedBy: referencing.sort() });
    }
  });

  const base = { id: '01JB2Z3Y4X5W6V7T8S9R0Q1P2N', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
  const SAMPLES: Array<[Repository<AnyEntity>, Record<string, unknown>]> = [
    [clients, { ...base, name: 'Acme', email: 'a@acme.test', address: 'Main St', currency: 'EUR', notes: 'n', archived: false }],
    [projects, { ...base, name: 'Site', clientId: 'C1', color: '#123456', billable: true, hourlyRate: 90, currency: 'EUR', archived: false, notes: 'n' }],
    [tasks, { ...base, projectId: 'P1', name: 'Build', status: 'active', estimateMinutes: 60, billable: true }],
    [tags, { ...base, name: 'red', archived: false }],
    [
      timeEntries,
      {
        ...base,
        userId: 'u1',
        name: 'Work',
        projectId: 'P1',
        clientId: 'C1',
        taskId: 'T1',
        startTime: '2026-03-02T09:00:00.000Z',
        endTime: '2026-03-02T10:00:00.000Z',
        notes: 'n',
        billable: false,
        tagIds: ['G1'],
      },
    ],
    [favorites, { ...base, userId: 'u1', name: 'Fav', projectId: 'P1', clientId: 'C1', taskId: 'T1', tagIds: ['G1'], billable: true, notes: 'n' }],
    [
      invoices,
      {
        ...base,
        number: 'INV-1',
        clientId: 'C1',
        status: 'draft',
        issueDate: '2026-03-01',
        dueDate: '2026-03-31',
        currency: 'EUR',
        lineItems: [{ description: 'Work', quantity: 2, unitPrice: 50, amount: 100 }],
        subtotal: 100,
        tax: 0,
        total: 100,
        notes: 'n',
      },
    ],
  ];
  const other = (v: unknown): unknown => (typeof v === 'boolean' ? !v : typeof v === 'number' ? v + 1 : Array.isArray(v) ? [...v, v[0]] : `${String(v)}-changed`);

  test.each(SAMPLES.map(([e, rec]) => [e.entity.type, e, rec] as const))(
    '%s: a field outside `coupled` moves no key, index key, lock or derived value',
    async (_type, entity, rec) => {
      expect(Object.keys(entity.entity.fields).every((f) => f in rec)).toBe(true); // the sample sets every field
      const plain = Object.keys(entity.entity.fields).filter((f) => !entity.coupled.has(f));
      const ws = 'ws-1';
      const facts = (r: Record<string, unknown>, skip: string) => {
        const derived = entity.derive(r);
        const { [skip]: _changed, ...rest } = derived;
        void _changed;
        return { key: entity.key(ws, r), index: indexKeys(entity.entity, ws, r), lock: entity.entity.unique && uniqueValue(entity.entity.unique, r), derived: rest };
      };
      for (const field of plain) {
        for (const value of [other(rec[field]), undefined]) {
          const changed = { ...rec, [field]: value };
          if (value === undefined) delete changed[field];
          expect({ field, ...facts(changed, field) }).toEqual({ field, ...facts(rec, field) });
          // The record's own rules accept it (no rule reads the field; the references are not re-checked).
          await expect(entity.check(ws, changed, rec, { [field]: value })).resolves.toBeUndefined();
        }
      }
      // Every field a key, index key, lock or rule reads is coupled (spot checks of the declarations).
      const expected: Record<string, string[]> = {
        CLIENT: ['name'],
        PROJECT: ['clientId'],
        TASK: ['projectId', 'name'],
        TAG: ['name'],
        TIMEENTRY: ['userId', 'startTime', 'endTime', 'projectId', 'clientId', 'taskId', 'tagIds'],
        FAVORITE: ['userId', 'projectId', 'clientId', 'taskId', 'tagIds'],
        INVOICE: ['number', 'clientId', 'issueDate', 'dueDate', 'lineItems', 'subtotal', 'tax', 'total'],
      };
      expect([...entity.coupled].sort()).toEqual(expected[entity.entity.type]!.sort());
    },
  );
});

describe('data calls of updates and deletes (DynamoDB Local)', () => {
  useTestTable();
  const api = apiClient();
  /** Runs one request with a counting client and returns its data calls (rate-limit and key lookups left out). */
  const counted = <T>(fn: () => Promise<T>) => withFaultClient(undefined, fn);

  async function setup() {
    const { ws, key } = await workspaceWithKey('calls');
    const client = (await api.post('/v1/clients', { name: 'Acme', email: 'billing@acme.test', currency: 'EUR' }, { key })).body;
    return { ws, key, client };
  }

  test('an update of plain fields is one UpdateItem: SET, REMOVE with null, updatedAt, the rest untouched', async () => {
    const { key, client } = await setup();
    const { res, calls } = await counted(() => api.put(`/v1/clients/${client.id}`, { notes: 'VIP', email: null }, { key }));
    expect(calls).toEqual(['UpdateItemCommand']);
    expect(res.status).toBe(200);
    const { email: _gone, ...kept } = client;
    void _gone;
    expect(res.body).toEqual({ ...kept, notes: 'VIP', updatedAt: res.body.updatedAt, etag: res.body.etag });
    expect(res.body.updatedAt > client.updatedAt).toBe(true);
    expect((await api.get(`/v1/clients/${client.id}`, { key })).body).toEqual(res.body);
    // An empty body is an update of nothing: one UpdateItem touching only updatedAt.
    const empty = await counted(() => api.put(`/v1/clients/${client.id}`, {}, { key }));
    expect(empty.calls).toEqual(['UpdateItemCommand']);
    expect(empty.res.body).toEqual({ ...res.body, updatedAt: empty.res.body.updatedAt, etag: empty.res.body.etag });
  });

  test('an update sending a coupled field reads first: unchanged name = GetItem + PutItem, rename = GetItem + transaction', async () => {
    const { key, client } = await setup();
    const same = await counted(() => api.put(`/v1/clients/${client.id}`, { name: 'Acme', notes: 'x' }, { key }));
    expect(same.calls).toEqual(['GetItemCommand', 'PutItemCommand']);
    expect(same.res.body).toMatchObject({ name: 'Acme', notes: 'x' });
    const renamed = await counted(() => api.put(`/v1/clients/${client.id}`, { name: 'Acme Corp' }, { key }));
    expect(renamed.calls).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
    expect(renamed.res.body).toMatchObject({ name: 'Acme Corp', notes: 'x' });
    // The in-place update bumped the version the read-merge-write path guards on: both kept their changes.
    expect((await api.get(`/v1/clients/${client.id}`, { key })).body).toMatchObject({ name: 'Acme Corp', notes: 'x', email: 'billing@acme.test' });
  });

  test('a one-call update of a missing record is 404 and creates nothing (condition attribute_exists)', async () => {
    const { key } = await setup();
    const before = await dataSnapshot();
    const { res, calls } = await counted(() => api.put('/v1/clients/01JB2Z3Y4X5W6V7T8S9R0Q1P2N', { notes: 'x' }, { key }));
    expect(calls).toEqual(['UpdateItemCommand']);
    expect(err(res)).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'Client not found' });
    expect(await dataSnapshot()).toEqual(before);
  });

  test('a time entry updated in place keeps its keys; a forged sortKey (other time, same id) is 404 and writes nothing', async () => {
    const { key } = await setup();
    const entry = (await api.post('/v1/time-entries', { userId: 'u1', startTime: '2026-03-02T09:00:00Z', endTime: '2026-03-02T10:00:00Z', notes: 'a' }, { key })).body;
    const { res, calls } = await counted(() => api.put(`/v1/time-entries/${entry.id}`, { notes: 'b', billable: true }, { key, query: { sortKey: entry.sortKey } }));
    expect(calls).toEqual(['UpdateItemCommand']);
    expect(res.body).toEqual({ ...entry, notes: 'b', billable: true, updatedAt: res.body.updatedAt, etag: res.body.etag });
    const listed = await api.get('/v1/time-entries', { key, query: { userId: 'u1' } });
    expect(listed.body.items).toEqual([res.body]);
    const before = await dataSnapshot();
    const forged = await api.put(`/v1/time-entries/${entry.id}`, { notes: 'c' }, { key, query: { sortKey: `2026-03-02T09:00:00.001Z#${entry.id}` } });
    expect(err(forged)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await dataSnapshot()).toEqual(before);
  });

  test('another workspace cannot update in place or delete in one call (404, nothing changed)', async () => {
    const a = await setup();
    const b = await workspaceWithKey('calls-other');
    const project = (await api.post('/v1/projects', { name: 'Solo' }, { key: a.key })).body;
    const before = await dataSnapshot();
    expect(err(await api.put(`/v1/clients/${a.client.id}`, { notes: 'hijack' }, { key: b.key }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(err(await api.del(`/v1/projects/${project.id}`, { key: b.key }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await dataSnapshot()).toEqual(before);
  });

  test('delete of a record naming nothing and named by nothing is one conditional Delete', async () => {
    const { key } = await setup();
    const project = (await api.post('/v1/projects', { name: 'Solo' }, { key })).body;
    const { res, calls } = await counted(() => api.del(`/v1/projects/${project.id}`, { key }));
    expect(calls).toEqual(['DeleteItemCommand']);
    expect(res).toMatchObject({ status: 200, body: { deleted: true, id: project.id } });
    expect((await api.get(`/v1/projects/${project.id}`, { key })).status).toBe(404);
    const entry = (await api.post('/v1/time-entries', { userId: 'u1', startTime: '2026-03-02T09:00:00Z' }, { key })).body;
    const del = await counted(() => api.del(`/v1/time-entries/${entry.id}`, { key, query: { sortKey: entry.sortKey } }));
    expect(del.calls).toEqual(['DeleteItemCommand']);
    expect(del.res.status).toBe(200);
    const missing = await counted(() => api.del(`/v1/projects/${project.id}`, { key }));
    expect(missing.calls).toEqual(['DeleteItemCommand']);
    expect(err(missing.res)).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'Project not found' });
  });

  test('delete of a referenced record: the failed one-call Delete returns the item, so 409 needs no read', async () => {
    const { key } = await setup();
    const project = (await api.post('/v1/projects', { name: 'Used' }, { key })).body;
    await api.post('/v1/tasks', { projectId: project.id, name: 'Build' }, { key });
    const before = await dataSnapshot();
    const { res, calls, outcomes } = await counted(() => api.del(`/v1/projects/${project.id}`, { key }));
    expect(calls).toEqual(['DeleteItemCommand']);
    expect(outcomes).toEqual(['ConditionalCheckFailedException']);
    expect(err(res)).toEqual({ status: 409, code: 'CONFLICT', message: 'Project is still used by 1 task(s); archive it or remove those references first' });
    expect(await dataSnapshot()).toEqual(before);
  });

  test('delete of a record naming others: failed one-call Delete, then the transaction that decrements the counters', async () => {
    const { key, client } = await setup();
    const project = (await api.post('/v1/projects', { name: 'Billed', clientId: client.id }, { key })).body;
    const { res, calls, outcomes } = await counted(() => api.del(`/v1/projects/${project.id}`, { key }));
    expect(calls).toEqual(['DeleteItemCommand', 'TransactWriteItemsCommand']);
    expect(outcomes).toEqual(['ConditionalCheckFailedException', 'ok']);
    expect(res.status).toBe(200);
    // The client's counter went back to zero: the client itself can now be deleted.
    expect((await api.del(`/v1/clients/${client.id}`, { key })).status).toBe(200);
  });

  test("delete of a record with a uniqueness lock reads first (the lock key is the record's own value)", async () => {
    const { key } = await setup();
    const tag = (await api.post('/v1/tags', { name: 'red' }, { key })).body;
    const { res, calls } = await counted(() => api.del(`/v1/tags/${tag.id}`, { key }));
    expect(calls).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
    expect(res.status).toBe(200);
    expect((await api.post('/v1/tags', { name: 'RED' }, { key })).status).toBe(201);
  });

  test('counters: every referencing type is in the delete condition (a project used only by a favorite is kept)', async () => {
    const { key } = await setup();
    const project = (await api.post('/v1/projects', { name: 'Fav target' }, { key })).body;
    await api.post('/v1/favorites', { userId: 'u1', name: 'Quick', projectId: project.id }, { key });
    const res = await api.del(`/v1/projects/${project.id}`, { key });
    expect(err(res)).toMatchObject({ status: 409, message: expect.stringContaining('1 favorite(s)') });
    expect((await api.get(`/v1/projects/${project.id}`, { key })).status).toBe(200);
  });
});
