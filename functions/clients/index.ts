import { entityHandler } from '../../shared/api/crud';
import { clientsRoutes } from '../../shared/api/routes/clients';

export const handler = entityHandler(clientsRoutes);
