import { clients } from '../../shared/domain/entities/clients';
import { resourceHandler } from '../../shared/api/handler';
import { crudImpls } from '../../shared/api/crud';

export const handler = resourceHandler(
  'clients',
  crudImpls(clients, { list: 'listClients', create: 'createClient', get: 'getClient', update: 'updateClient', delete: 'deleteClient' }),
);
