import * as z from 'zod/mini';
import { idOf } from '../../domain/examples';
import { meta } from '../../domain/fields';
import { favorites } from '../../domain/entities/favorites';
import { crudRoutes } from './define';

export const userIdQuery = z.strictObject({ userId: meta(idOf.user, { description: 'The user the favorite belongs to (required with API key authentication)' }) });
export const favoriteListQuery = z.strictObject({ userId: z.optional(idOf.user) });

/** What differs from the plain five routes: the list's filter, and the user that, with the id, addresses a favorite. */
export const favoritesOptions = { listQuery: favoriteListQuery, idQuery: userIdQuery };
/** The favorites function's routes. */
export const favoritesRoutes = crudRoutes(favorites, favoritesOptions);
