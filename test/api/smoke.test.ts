import { apiClient, makeKey, newWorkspace, useTestTable } from '../support/harness';

useTestTable();
const api = apiClient();

test('smoke: create and list a client', async () => {
  const ws = newWorkspace();
  const key = await makeKey(ws);
  const created = await api.post('/v1/clients', { name: 'Acme' }, { key });
  expect(created.status).toBe(201);
  const list = await api.get('/v1/clients', { key });
  expect(list.status).toBe(200);
  expect(list.body.items.map((c: { name: string }) => c.name)).toEqual(['Acme']);
});
