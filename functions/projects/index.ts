import { projects } from '../../shared/entities/catalog';
import { resourceHandler } from '../../shared/http/handler';
import { crudImpls } from '../../shared/http/crud';

export const handler = resourceHandler(
  'projects',
  crudImpls(projects, { list: 'listProjects', create: 'createProject', get: 'getProject', update: 'updateProject', delete: 'deleteProject' }),
);
