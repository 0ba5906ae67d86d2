import { favoriteListPrefix, favorites } from '../../shared/entities/favorites';
import { resourceHandler } from '../../shared/http/handler';
import { crudImpls } from '../../shared/http/crud';

export const handler = resourceHandler(
  'favorites',
  crudImpls(favorites, { list: 'listFavorites', create: 'createFavorite', get: 'getFavorite', update: 'updateFavorite', delete: 'deleteFavorite' }, {
    listPrefix: favoriteListPrefix,
  }),
);
