import { resourceHandler } from '../../shared/api/handler';

export const handler = resourceHandler('tasks');
