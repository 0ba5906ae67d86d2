import * as z from 'zod/mini';
import { idOf } from '../../domain/examples';
import { tasks } from '../../domain/entities/tasks';
import { crudRoutes } from './define';

export const taskListQuery = z.strictObject({ projectId: z.optional(idOf.project) });

/** What differs from the plain five routes: the list's filter. */
export const tasksOptions = { listQuery: taskListQuery };
/** The tasks function's routes. */
export const tasksRoutes = crudRoutes(tasks, tasksOptions);
