import { projects } from '../../domain/entities/projects';
import { crudRoutes } from './define';

/** The projects function's routes: the five of its entity (a plain resource: no options). */
export const projectsRoutes = crudRoutes(projects);
