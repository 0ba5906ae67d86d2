import { tags } from '../../shared/domain/entities/catalog';
import { resourceHandler } from '../../shared/api/handler';
import { crudImpls } from '../../shared/api/crud';

export const handler = resourceHandler(
  'tags',
  crudImpls(tags, { list: 'listTags', create: 'createTag', get: 'getTag', update: 'updateTag', delete: 'deleteTag' }),
);
