import { tasks } from '../../shared/entities/catalog';
import { resourceHandler } from '../../shared/http/handler';
import { crudImpls } from '../../shared/http/crud';

export const handler = resourceHandler(
  'tasks',
  crudImpls(tasks, { list: 'listTasks', create: 'createTask', get: 'getTask', update: 'updateTask', delete: 'deleteTask' }, {
    listFilter: (q): Record<string, string> => (q.projectId ? { projectId: String(q.projectId) } : {}),
  }),
);
