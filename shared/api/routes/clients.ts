import { clients } from '../../domain/entities/clients';
import { crudRoutes } from './define';

/** The clients function's routes: the five of its entity (a plain resource: no options). */
export const clientsRoutes = crudRoutes(clients);
