import { favorites } from '../../domain/entities/favorites';
import * as s from '../schemas';
import { crudRoutes } from './define';

/** What differs from the plain five routes: the list's filter, and the user that, with the id, addresses a favorite. */
export const favoritesOptions = { listQuery: s.favoriteListQuery, idQuery: s.userIdQuery };
/** The favorites function's routes. */
export const favoritesRoutes = crudRoutes(favorites, favoritesOptions);
