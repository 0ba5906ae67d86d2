import { clients, favorites, invoices, projects, tags, tasks, timeEntries } from '../../shared/data/repositories';
import type { Repository } from '../../shared/data/repository';
import type { AnyEntity } from '../../shared/domain/entity';
import { apiClient, useTestTable } from '../support/harness';
import { withFaultClient } from '../faults/inject';
import { dataSnapshot, err, workspaceWithKey } from './support';

/**
 * What the repository derives from the entity declarations, and the data calls it buys
 * (shared/domain/entity.ts, shared/data/repository.ts):
 * - `usedBy` lists exactly the entity types whose references count on a record (a delete is refused
 *   while one of their counters is above zero);
 * - the calls each write makes, counted on the real client against DynamoDB Local: every write takes a
 *   change-feed position and commits its record and event in one transaction; updates and deletes read
 *   first; refusals (404/409) write nothing and take no position.
 */
const ENTITIES: Array<Repository<AnyEntity>> = [clients, projects, tasks, tags, timeEntries, favorites, invoices];

describe('declarations', () => {
  test('usedBy of every entity lists exactly the types that reference it', () => {
    for (const target of ENTITIES) {
      const referencing = ENTITIES.filter((e) => (e.entity.references ?? []).some((r) => r.target() === target.entity)).map((e) => e.entity.type);
      expect({ entity: target.entity.type, usedBy: target.usedBy.map((u) => u.type).sort() }).toEqual({ entity: target.entity.type, usedBy: referencing.sort() });
    }
  });
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

  const POSITION = 'UpdateItemCommand'; // the change feed position (shared/data/changes.ts)

  test('a create takes a feed position, then writes the record and its event in one transaction', async () => {
    const { key } = await setup();
    const { res, calls } = await counted(() => api.post('/v1/tags', { name: 'red' }, { key }));
    expect(res.status).toBe(201);
    expect(calls).toEqual([POSITION, 'TransactWriteItemsCommand']);
  });

  test('an update reads, takes a position, writes record + event: SET, REMOVE with null, updatedAt, the rest untouched', async () => {
    const { key, client } = await setup();
    const { res, calls } = await counted(() => api.put(`/v1/clients/${client.id}`, { notes: 'VIP', email: null }, { key }));
    expect(calls).toEqual(['GetItemCommand', POSITION, 'TransactWriteItemsCommand']);
    expect(res.status).toBe(200);
    const { email: _gone, ...kept } = client;
    void _gone;
    expect(res.body).toEqual({ ...kept, notes: 'VIP', updatedAt: res.body.updatedAt, etag: '"2"' });
    expect(res.body.updatedAt > client.updatedAt).toBe(true);
    expect((await api.get(`/v1/clients/${client.id}`, { key })).body).toEqual(res.body);
    // An empty body is an update of nothing but updatedAt (and is still a change of the record).
    const empty = await counted(() => api.put(`/v1/clients/${client.id}`, {}, { key }));
    expect(empty.calls).toEqual(['GetItemCommand', POSITION, 'TransactWriteItemsCommand']);
    expect(empty.res.body).toEqual({ ...res.body, updatedAt: empty.res.body.updatedAt, etag: '"3"' });
  });

  test('an update or delete of a missing record is 404 after one read and writes nothing (no feed position taken)', async () => {
    const { key } = await setup();
    const before = await dataSnapshot();
    const update = await counted(() => api.put('/v1/clients/01JB2Z3Y4X5W6V7T8S9R0Q1P2N', { notes: 'x' }, { key }));
    expect(update.calls).toEqual(['GetItemCommand']);
    expect(err(update.res)).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'Client not found' });
    const del = await counted(() => api.del('/v1/projects/01JB2Z3Y4X5W6V7T8S9R0Q1P2N', { key }));
    expect(del.calls).toEqual(['GetItemCommand']);
    expect(err(del.res)).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'Project not found' });
    expect(await dataSnapshot()).toEqual(before);
  });

  test('a time entry updated keeps its keys; a forged sortKey (other time, same id) is 404 and writes nothing', async () => {
    const { key } = await setup();
    const entry = (await api.post('/v1/time-entries', { userId: 'u1', startTime: '2026-03-02T09:00:00Z', endTime: '2026-03-02T10:00:00Z', notes: 'a' }, { key })).body;
    const { res } = await counted(() => api.put(`/v1/time-entries/${entry.id}`, { notes: 'b', billable: true }, { key, query: { sortKey: entry.sortKey } }));
    expect(res.body).toEqual({ ...entry, notes: 'b', billable: true, updatedAt: res.body.updatedAt, etag: res.body.etag });
    const listed = await api.get('/v1/time-entries', { key, query: { userId: 'u1' } });
    expect(listed.body.items).toEqual([res.body]);
    const before = await dataSnapshot();
    const forged = await api.put(`/v1/time-entries/${entry.id}`, { notes: 'c' }, { key, query: { sortKey: `2026-03-02T09:00:00.001Z#${entry.id}` } });
    expect(err(forged)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await dataSnapshot()).toEqual(before);
  });

  test('another workspace cannot update or delete (404, nothing changed)', async () => {
    const a = await setup();
    const b = await workspaceWithKey('calls-other');
    const project = (await api.post('/v1/projects', { name: 'Solo' }, { key: a.key })).body;
    const before = await dataSnapshot();
    expect(err(await api.put(`/v1/clients/${a.client.id}`, { notes: 'hijack' }, { key: b.key }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(err(await api.del(`/v1/projects/${project.id}`, { key: b.key }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await dataSnapshot()).toEqual(before);
  });

  test('a delete reads (the last state goes into its event), takes a position, then deletes in one transaction', async () => {
    const { key } = await setup();
    const project = (await api.post('/v1/projects', { name: 'Solo' }, { key })).body;
    const { res, calls } = await counted(() => api.del(`/v1/projects/${project.id}`, { key }));
    expect(calls).toEqual(['GetItemCommand', POSITION, 'TransactWriteItemsCommand']);
    expect(res).toMatchObject({ status: 200, body: { deleted: true, id: project.id } });
    expect((await api.get(`/v1/projects/${project.id}`, { key })).status).toBe(404);
  });

  test('delete of a referenced record: 409 after the read, nothing written', async () => {
    const { key } = await setup();
    const project = (await api.post('/v1/projects', { name: 'Used' }, { key })).body;
    await api.post('/v1/tasks', { projectId: project.id, name: 'Build' }, { key });
    const before = await dataSnapshot();
    const { res, calls } = await counted(() => api.del(`/v1/projects/${project.id}`, { key }));
    expect(calls).toEqual(['GetItemCommand']);
    expect(err(res)).toEqual({ status: 409, code: 'CONFLICT', message: 'Project is still used by 1 task(s); archive it or remove those references first' });
    expect(await dataSnapshot()).toEqual(before);
  });

  test('delete of a record naming others: the transaction decrements the counters', async () => {
    const { key, client } = await setup();
    const project = (await api.post('/v1/projects', { name: 'Billed', clientId: client.id }, { key })).body;
    const { res } = await counted(() => api.del(`/v1/projects/${project.id}`, { key }));
    expect(res.status).toBe(200);
    // The client's counter went back to zero: the client itself can now be deleted.
    expect((await api.del(`/v1/clients/${client.id}`, { key })).status).toBe(200);
  });

  test('delete of a record with a uniqueness lock frees its value', async () => {
    const { key } = await setup();
    const tag = (await api.post('/v1/tags', { name: 'red' }, { key })).body;
    expect((await api.del(`/v1/tags/${tag.id}`, { key })).status).toBe(200);
    expect((await api.post('/v1/tags', { name: 'RED' }, { key })).status).toBe(201);
  });

  test('counters: every referencing type blocks a delete (a project used only by a favorite is kept)', async () => {
    const { key } = await setup();
    const project = (await api.post('/v1/projects', { name: 'Fav target' }, { key })).body;
    await api.post('/v1/favorites', { userId: 'u1', name: 'Quick', projectId: project.id }, { key });
    const res = await api.del(`/v1/projects/${project.id}`, { key });
    expect(err(res)).toMatchObject({ status: 409, message: expect.stringContaining('1 favorite(s)') });
    expect((await api.get(`/v1/projects/${project.id}`, { key })).status).toBe(200);
  });
});
