import { entityHandler } from '../../shared/api/crud';
import { crudRoutes } from '../../shared/api/routes/define';
import { tags } from '../../shared/domain/entities/tags';

export const handler = entityHandler(crudRoutes(tags));
