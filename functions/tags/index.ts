import { entityHandler } from '../../shared/api/crud';
import { tagsRoutes } from '../../shared/api/routes/tags';

export const handler = entityHandler(tagsRoutes);
