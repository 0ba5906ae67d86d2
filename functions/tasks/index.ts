import { tasks } from '../../shared/domain/entities/catalog';
import { resourceHandler } from '../../shared/api/handler';
import { crudImpls } from '../../shared/api/crud';

export const handler = resourceHandler(
  'tasks',
  crudImpls(tasks, { list: 'listTasks', create: 'createTask', get: 'getTask', update: 'updateTask', delete: 'deleteTask' }, {
    listFilter: (q): Record<string, string> => (q.projectId ? { projectId: String(q.projectId) } : {}),
  }),
);
