import { clients } from '../../shared/entities/clients';
import { resourceHandler } from '../../shared/http/handler';

export const handler = resourceHandler('clients', {
  listClients: async ({ auth }) => ({ items: await clients.listAll(auth.workspaceId) }),
  createClient: async ({ auth, body }) => clients.create(auth.workspaceId, body),
  getClient: async ({ auth, params }) => clients.get(auth.workspaceId, params),
  updateClient: async ({ auth, params, body }) => clients.update(auth.workspaceId, params, body),
  deleteClient: async ({ auth, params }) => clients.delete(auth.workspaceId, params),
});
