import { tags } from '../../shared/entities/catalog';
import { resourceHandler } from '../../shared/http/handler';
import { crudImpls } from '../../shared/http/crud';

export const handler = resourceHandler(
  'tags',
  crudImpls(tags, { list: 'listTags', create: 'createTag', get: 'getTag', update: 'updateTag', delete: 'deleteTag' }),
);
