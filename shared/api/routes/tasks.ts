import { tasks } from '../../domain/entities/tasks';
import * as s from '../schemas';
import { crudRoutes } from './define';

/** What differs from the plain five routes: the list's filter. */
export const tasksOptions = { listQuery: s.taskListQuery };
/** The tasks function's routes. */
export const tasksRoutes = crudRoutes(tasks, tasksOptions);
