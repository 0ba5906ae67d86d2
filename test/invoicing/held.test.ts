import { readChanges } from '../../shared/data/changes';
import { invoices as invoiceRepo, tags, timeEntries } from '../../shared/data/repositories';
import { createFromTime, sendInvoice, voidInvoice } from '../../shared/invoicing/service';
import { apiClient, makeKey, useTestTable } from '../support/harness';
import { billableFixture } from './support';

/**
 * Item 2 of issue 24 through /v1: an invoiced time entry carries `invoiceId` (read-only, in the OpenAPI
 * document); PUT, DELETE and stop of it are 409 naming the invoice number, and so is deleting the project,
 * task, client or tag it needs; voiding the invoice, or deleting a draft through DELETE /v1/invoices/{id},
 * releases its entries (one `time-entry.updated` each); `?invoiced=` on the list and the report.
 */
useTestTable();
process.env.CHANGES_GAP_TIMEOUT_MS = '0';
const api = apiClient();
const PERIOD = { startDate: '2026-03-01', endDate: '2026-03-31' };
const entryPath = (e: { id: string; sortKey?: string }) => `/v1/time-entries/${e.id}?sortKey=${encodeURIComponent(String(e.sortKey))}`;

async function setup(count = 8) {
  const f = await billableFixture(count);
  const key = await makeKey(f.ws, { perMinute: 100_000, perHour: 100_000 });
  const tag = await tags.create(f.ws, { name: 'urgent' });
  const tagged = (await timeEntries.page(f.ws, { limit: 1 })).items[0]!;
  const res = await api.put(entryPath(tagged), { tagIds: [tag.id] }, { key });
  expect(res.status).toBe(200);
  return { ...f, key, tagId: tag.id };
}

test('an invoiced entry shows invoiceId; PUT, DELETE and stop are 409 naming the number; so are deletes of what it needs; void releases it', async () => {
  const f = await setup();
  const inv = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD });
  const entry = (await timeEntries.page(f.ws, { limit: 1 })).items[0]!;
  const got = await api.get(entryPath(entry), { key: f.key });
  expect(got.body).toMatchObject({ id: entry.id, invoiceId: inv.id });

  // a draft has no number (issue 32): the message names it by id
  const held = `Time entry ${entry.id} is on invoice draft ${inv.id} (draft); void or delete that invoice to change the entry`;
  for (const res of [
    await api.put(entryPath(entry), { notes: 'changed' }, { key: f.key }),
    await api.del(entryPath(entry), { key: f.key }),
    await api.post(`/v1/time-entries/${entry.id}/stop?sortKey=${encodeURIComponent(String(entry.sortKey))}`, {}, { key: f.key }),
  ]) {
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'CONFLICT', message: held });
  }
  const sent = await sendInvoice(f.ws, inv.id);
  expect((await api.put(entryPath(entry), { notes: 'x' }, { key: f.key })).body.error.message).toContain(`on invoice ${sent.number!} (sent)`);
  for (const path of [`/v1/projects/${f.projectIds[0]}`, `/v1/tasks/${f.taskIds[0]}`, `/v1/clients/${f.clientId}`, `/v1/tags/${f.tagId}`]) {
    const res = await api.del(path, { key: f.key });
    expect([path, res.status]).toEqual([path, 409]);
    expect([path, res.body.error.message]).toEqual([path, expect.stringContaining(`is on invoice ${sent.number!} (sent)`)]);
  }

  const { position } = await readChanges(f.ws, { after: 0, limit: 10_000 });
  await voidInvoice(f.ws, inv.id);
  const released = (await readChanges(f.ws, { after: position, limit: 10_000 })).events;
  expect(
    released
      .filter((e) => e.type === 'time-entry.updated')
      .map((e) => e.resourceId)
      .sort(),
  ).toEqual(f.entries.map((e) => e.id).sort());
  expect(released.filter((e) => e.type === 'time-entry.updated').every((e) => e.data.invoiceId === undefined)).toBe(true);
  const now = await api.get(entryPath(entry), { key: f.key });
  expect(now.body.invoiceId).toBeUndefined();
  const put = await api.put(entryPath(entry), { notes: 'changed after void', invoiceId: 'forged' }, { key: f.key });
  expect(put.status).toBe(200);
  // read-only: accepted in a body and ignored
  expect(put.body.invoiceId).toBeUndefined();
  expect(put.body.notes).toBe('changed after void');
});

test('DELETE /v1/invoices/{id}: a draft releases its entries; a sent one is 409; a void one deletes', async () => {
  const f = await setup(6);
  const inv = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD });
  const res = await api.del(`/v1/invoices/${inv.id}`, { key: f.key });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ deleted: true, id: inv.id });
  expect((await timeEntries.page(f.ws, { where: { invoiced: 'true' } })).items).toEqual([]);
  expect(await invoiceRepo.getItem(f.ws, { id: inv.id })).toBeUndefined();

  const again = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, ...PERIOD });
  const againSent = await sendInvoice(f.ws, again.id);
  const refused = await api.del(`/v1/invoices/${again.id}`, { key: f.key });
  expect(refused.status).toBe(409);
  expect(refused.body.error.message).toContain(`Invoice ${againSent.number!} is sent`);
  await voidInvoice(f.ws, again.id);
  expect((await api.del(`/v1/invoices/${again.id}`, { key: f.key })).status).toBe(200);
  expect((await timeEntries.page(f.ws, { where: { invoiced: 'true' } })).items).toEqual([]);
  expect((await api.del(`/v1/invoices/${again.id}`, { key: f.key })).status).toBe(404);
});

test('?invoiced=true|false on the list (alone and with clientId, userId), and the report, against brute force', async () => {
  const f = await setup(30);
  const inv = await createFromTime({ workspaceId: f.ws, clientId: f.clientId, startDate: '2026-03-01', endDate: '2026-03-15' });
  const all = (await timeEntries.page(f.ws, { limit: 200 })).items;
  const invoicedIds = all.filter((e) => e.invoiceId === inv.id).map((e) => e.id);
  expect(invoicedIds.length).toBeGreaterThan(5);
  expect(invoicedIds.length).toBeLessThan(30);
  for (const extra of [{}, { clientId: f.clientId }, { userId: 'u1' }, { projectId: f.projectIds[1]! }]) {
    for (const invoiced of ['true', 'false']) {
      const res = await api.get('/v1/time-entries', { key: f.key, query: { ...extra, invoiced, limit: '200' } });
      expect(res.status).toBe(200);
      const want = all
        .filter((e) => Object.entries(extra).every(([k, v]) => (e as Record<string, unknown>)[k] === v))
        .filter((e) => (invoiced === 'true') === invoicedIds.includes(e.id))
        .map((e) => e.id)
        .sort();
      expect(res.body.items.map((e: { id: string }) => e.id).sort()).toEqual(want);
    }
  }
  expect((await api.get('/v1/time-entries', { key: f.key, query: { invoiced: 'yes' } })).status).toBe(400);

  const minutes = (ids: string[]) => all.filter((e) => ids.includes(e.id)).reduce((s, e) => s + Number(e.durationMinutes), 0);
  for (const invoiced of ['true', 'false']) {
    const res = await api.get('/v1/reports/summary', { key: f.key, query: { ...PERIOD, groupBy: 'project', invoiced } });
    expect(res.status).toBe(200);
    const ids = all.filter((e) => (invoiced === 'true') === invoicedIds.includes(e.id)).map((e) => e.id);
    expect(res.body.totals).toMatchObject({ entries: ids.length, durationMinutes: minutes(ids) });
  }
});

test('the OpenAPI document: invoiceId is a response field of TimeEntry (not in its create body); invoiced is a list and report parameter', async () => {
  const doc = (await api.get('/v1/openapi.json')).body;
  const schemas = doc.components.schemas;
  expect(schemas.TimeEntry.properties.invoiceId).toMatchObject({ type: 'string', description: expect.stringContaining('Read-only') });
  const create = doc.paths['/v1/time-entries'].post.requestBody.content['application/json'].schema;
  const createSchema = create.$ref ? schemas[create.$ref.split('/').pop()] : create;
  expect(createSchema.properties.invoiceId).toBeUndefined();
  expect(doc.paths['/v1/time-entries'].get.parameters.map((p: { name: string }) => p.name)).toContain('invoiced');
  expect(doc.paths['/v1/reports/summary'].get.parameters.map((p: { name: string }) => p.name)).toContain('invoiced');
});
