import { tags } from '../../domain/entities/tags';
import { crudRoutes } from './define';

/** The tags function's routes: the five of its entity (a plain resource: no options). */
export const tagsRoutes = crudRoutes(tags);
