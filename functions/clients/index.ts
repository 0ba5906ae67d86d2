import { clients } from '../../shared/entities/clients';
import { resourceHandler } from '../../shared/http/handler';
import { crudImpls } from '../../shared/http/crud';

export const handler = resourceHandler(
  'clients',
  crudImpls(clients, { list: 'listClients', create: 'createClient', get: 'getClient', update: 'updateClient', delete: 'deleteClient' }),
);
