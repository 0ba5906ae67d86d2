import { useTestTable } from '../support/harness';
import { consoleClient, person, startOidc, type Oidc } from './support';

useTestTable();
let oidc: Oidc;
beforeAll(async () => {
  oidc = await startOidc();
});
afterAll(() => oidc.stop());

test('smoke', async () => {
  const api = consoleClient();
  const owner = await person(oidc.issuer, 'ws-smoke', 'owner');
  const me = await api.call('GET', '/console/api/me', { token: owner.token });
  expect(me.body).toEqual({ email: owner.email, memberships: [{ workspaceId: 'ws-smoke', role: 'owner' }] });
});
