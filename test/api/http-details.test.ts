import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createLocalServer } from '../../local/server';
import { apiClient, makeKey, newWorkspace, useTestTable } from '../support/harness';

/**
 * HTTP details a client relies on: `Vary: Accept-Encoding` on every answer that may be compressed (locally
 * over HTTP with gzip too), `Location` on every 201 (its GET works as is), date messages naming the format.
 */
useTestTable();
const api = apiClient();
let key: string;
beforeAll(async () => {
  key = await makeKey(newWorkspace('http'));
});

test('every 201 carries Location: the URL of the created record, which GET answers with it', async () => {
  const created: Array<{ res: { status: number; headers: Record<string, string>; body: { id: string } }; kind: string }> = [];
  const client = await api.post('/v1/clients', { name: 'Acme Corp' }, { key });
  created.push({ res: client, kind: 'client' });
  const project = await api.post('/v1/projects', { name: 'Website relaunch', clientId: client.body.id }, { key });
  created.push({ res: project, kind: 'project' });
  created.push({ res: await api.post('/v1/tasks', { name: 'Design', projectId: project.body.id }, { key }), kind: 'task' });
  created.push({ res: await api.post('/v1/tags', { name: 'deep-work' }, { key }), kind: 'tag' });
  created.push({ res: await api.post('/v1/time-entries', { userId: 'ann', startTime: '2026-03-02T09:00:00Z', endTime: '2026-03-02T10:00:00Z' }, { key }), kind: 'time entry' });
  const fav = await api.post('/v1/favorites', { userId: 'ann', name: 'Stand-up', projectId: project.body.id }, { key });
  created.push({ res: fav, kind: 'favorite' });
  created.push({ res: await api.post(`/v1/favorites/${fav.body.id}/start`, {}, { key, query: { userId: 'ann' } }), kind: 'timer' });
  created.push({ res: await api.post('/v1/webhooks', { url: 'http://127.0.0.1:9/tt', events: ['*'] }, { key }), kind: 'webhook' });
  for (const { res, kind } of created) {
    expect([kind, res.status]).toEqual([kind, 201]);
    const location = res.headers.Location;
    expect([kind, location]).toEqual([kind, expect.stringMatching(new RegExp(`^https?://[^/]+/v1/[a-z-]+/${res.body.id}(\\?.*)?$`))]);
    const url = new URL(location!);
    const read = await api.get(url.pathname, { key, query: Object.fromEntries(url.searchParams) });
    expect([kind, read.status, read.body.id]).toEqual([kind, 200, res.body.id]);
  }
}, 180_000);

test('Vary: Accept-Encoding on answers of every kind (JSON, error, CSV, page), through the local HTTP server with gzip too', async () => {
  for (const res of [
    await api.get('/v1/clients', { key }),
    await api.get('/v1/clients/01ABSENT000000000000000000', { key }),
    await api.get('/v1/time-entries.csv', { key }),
    await api.get('/v1/openapi.json'),
    await api.get('/v1/docs'),
  ]) {
    expect(res.headers.Vary?.split(',').map((v) => v.trim())).toContain('Accept-Encoding');
  }
  const server: Server = createLocalServer({ authCacheTtlSeconds: 300 });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/openapi.json`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect([res.headers.get('content-encoding'), res.headers.get('vary')]).toEqual(['gzip', 'Accept-Encoding']);
  } finally {
    await new Promise((done) => server.close(done));
  }
}, 120_000);

test('a bad date names the format expected', async () => {
  const res = await api.get('/v1/reports/summary', { key, query: { startDate: 'yesterday', endDate: '2026-03-31' } });
  expect(res.status).toBe(400);
  expect(res.body.error.message).toBe('Invalid query parameter: startDate must be a date (YYYY-MM-DD) or a date-time (ISO 8601), e.g. 2026-01-31 or 2026-01-31T09:00:00Z');
  const invoices = await api.get('/v1/invoices', { key, query: { startDate: '31/03/2026' } });
  expect(invoices.body.error.details).toEqual([{ field: 'startDate', message: 'must be a date (YYYY-MM-DD), e.g. 2026-01-31' }]);
});
