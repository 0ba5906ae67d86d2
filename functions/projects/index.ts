import { entityHandler } from '../../shared/api/crud';
import { crudRoutes } from '../../shared/api/routes/define';
import { projects } from '../../shared/domain/entities/projects';

export const handler = entityHandler(crudRoutes(projects));
