import { entityHandler } from '../../shared/api/crud';
import { projectsRoutes } from '../../shared/api/routes/projects';

export const handler = entityHandler(projectsRoutes);
