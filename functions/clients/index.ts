import { entityHandler } from '../../shared/api/crud';

export const handler = entityHandler('clients');
