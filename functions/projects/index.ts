import { projects } from '../../shared/domain/entities/catalog';
import { resourceHandler } from '../../shared/api/handler';
import { crudImpls } from '../../shared/api/crud';

export const handler = resourceHandler(
  'projects',
  crudImpls(projects, { list: 'listProjects', create: 'createProject', get: 'getProject', update: 'updateProject', delete: 'deleteProject' }),
);
