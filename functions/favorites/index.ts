import { favoriteListPrefix, favorites } from '../../shared/domain/entities/favorites';
import { resourceHandler } from '../../shared/api/handler';
import { crudImpls } from '../../shared/api/crud';

export const handler = resourceHandler(
  'favorites',
  crudImpls(favorites, { list: 'listFavorites', create: 'createFavorite', get: 'getFavorite', update: 'updateFavorite', delete: 'deleteFavorite' }, {
    listPrefix: favoriteListPrefix,
  }),
);
