import * as z from 'zod/mini';
import { defineEntity, type EntityRecord } from '../entity';
import { idOf } from '../examples';
import { nameString, meta } from '../fields';
import { projects } from './projects';

/** Task of a project: PK `WS#<ws>`, SK `TASK#<id>`; name unique within its project, any case. */
export const tasks = defineEntity({
  resource: 'tasks',
  kind: 'Task',
  type: 'TASK',
  description: 'Tasks of a project',
  fields: {
    // Immutable: time entries and favorites naming the task carry its projectId ("taskId must belong to
    // the project"); moving the task would silently break that for them. Create a task in the other project.
    projectId: { schema: idOf.project, required: true, immutable: true },
    name: { schema: meta(nameString, { example: 'Homepage design' }), required: true },
    status: { schema: z.enum(['active', 'done']), default: 'active' },
    estimateMinutes: { schema: meta(z.number().check(z.int(), z.gte(0), z.lte(10_000_000)), { example: 960 }) },
    billable: { schema: meta(z.boolean(), { example: true }) },
  },
  key: { pk: {}, sk: { prefix: 'TASK', composite: ['id'] } },
  unique: { name: 'TASKNAME', field: 'name', within: ['projectId'], message: (name) => `A task named "${name}" already exists in this project` },
  references: [{ field: 'projectId', target: () => projects }],
  list: { mode: 'whole', via: ['key'], bound: { maxRecords: 10_000, env: 'MAX_TASKS' } },
});
export type Task = EntityRecord<typeof tasks>;
