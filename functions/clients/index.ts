import { entityHandler } from '../../shared/api/crud';
import { crudRoutes } from '../../shared/api/routes/define';
import { clients } from '../../shared/domain/entities/clients';

export const handler = entityHandler(crudRoutes(clients));
