import { entityHandler } from '../../shared/api/crud';
import { favoritesRoutes } from '../../shared/api/routes/favorites';

export const handler = entityHandler(favoritesRoutes);
