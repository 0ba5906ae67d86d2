import { entityHandler } from '../../shared/api/crud';
import { tasksRoutes } from '../../shared/api/routes/tasks';

export const handler = entityHandler(tasksRoutes);
