import type { RuleContext } from '../entity';
import { invalidField } from '../errors';
import { projects } from './projects';
import { tasks } from './tasks';

/**
 * Shared rule for records that name a project, client and task (time entries, favorites):
 * - taskId must belong to the project; a task without a projectId sets the projectId;
 * - clientId is derived from the project when absent and must agree with it when given;
 * - on update (`before` and the request's `patch` given, merge semantics): a field the request did not
 *   send follows the one it sent, so `{ taskId }` alone moves the record to that task's project, and
 *   `{ projectId }` alone takes the new project's client (when it has one) instead of failing on the old
 *   derived clientId. Fields sent together must agree (else 400 naming the field).
 * Existence itself is enforced by the write (usage counters, attribute_exists), so a record deleted
 * after these reads still fails the write with 400 on the field.
 */
export const projectClientTask = {
  reads: ['projectId', 'clientId', 'taskId'],
  check: resolveProjectClientTask,
} as const;

/** The fields the rule reads and fills, of any record that has them (time entries, favorites). */
interface ProjectClientTask {
  projectId?: string;
  clientId?: string;
  taskId?: string;
}

async function resolveProjectClientTask(rec: ProjectClientTask, { lookup, before, patch }: RuleContext): Promise<void> {
  // (An update that sends none of the three never gets here: the repository skips a rule whose `reads` the
  // patch does not touch. The stored references were checked when written, a task's project is immutable,
  // and usage counters keep every referenced record in existence, so re-reading them would repeat that.)
  // "Sent by this request": the patch says so exactly; without one, a value that differs from before.
  const changed = (field: keyof ProjectClientTask) => !before || (patch ? field in patch : rec[field] !== before[field]);
  let projectChanged = changed('projectId');
  if (typeof rec.taskId === 'string') {
    const task = await lookup(tasks, rec.taskId);
    if (!task) throw invalidField('taskId', `Task ${rec.taskId} does not exist in this workspace`);
    if (rec.projectId === undefined && before && projectChanged && !changed('taskId')) {
      throw invalidField('projectId', `cannot be cleared while taskId names a task of project ${task.projectId}; clear taskId too`);
    }
    if (rec.projectId === undefined || (before && changed('taskId') && !projectChanged)) {
      projectChanged = projectChanged || rec.projectId !== task.projectId;
      rec.projectId = task.projectId;
    } else if (task.projectId !== rec.projectId) throw invalidField('taskId', `Task ${rec.taskId} does not belong to project ${String(rec.projectId)}`);
  }
  if (typeof rec.projectId === 'string') {
    const project = await lookup(projects, rec.projectId);
    if (!project) throw invalidField('projectId', `Project ${rec.projectId} does not exist in this workspace`);
    if (project.clientId) {
      if (rec.clientId === undefined || (before && projectChanged && !changed('clientId'))) rec.clientId = project.clientId;
      else if (rec.clientId !== project.clientId) throw invalidField('clientId', `does not match the project's client (${project.clientId})`);
    }
  }
}
