import { projectFields, tagFields, taskFields } from '../../api/schemas';
import { Entity, uniqueIgnoringCase } from '../../data/repository';
import { fieldError } from '../../api/errors';
import { clients } from './clients';

/**
 * Projects, tasks and tags: plain entities in the workspace partition (SK <TYPE>#<id>), with the
 * uniqueness locks product.md asks for (tag names per workspace, task names per project, any case) and
 * usage counters kept by the generic repository (shared/data/repository.ts).
 */
const TIME_ENTRIES = { TIMEENTRY: 'time entry(ies)' } as const;
const FAVORITES = { FAVORITE: 'favorite(s)' } as const;

export const projects = new Entity({
  kind: 'Project',
  type: 'PROJECT',
  fields: projectFields,
  // No name lock: product.md makes client, tag and (per project) task names unique, not project names
  // (two clients may each have a "Website" project).
  references: [{ field: 'clientId', target: () => clients }],
  usedBy: { TASK: 'task(s)', ...TIME_ENTRIES, ...FAVORITES },
});

export const tasks = new Entity({
  kind: 'Task',
  type: 'TASK',
  fields: taskFields,
  unique: {
    name: 'TASKNAME',
    fields: ['projectId', 'name'],
    value: (rec) => `${String(rec.projectId)}#${String(rec.name).trim().toLowerCase()}`,
    message: (rec) => `A task named "${String(rec.name)}" already exists in this project`,
  },
  references: [{ field: 'projectId', target: () => projects }],
  usedBy: { ...TIME_ENTRIES, ...FAVORITES },
});

export const tags = new Entity({
  kind: 'Tag',
  type: 'TAG',
  fields: tagFields,
  unique: uniqueIgnoringCase('TAGNAME', 'name', (name) => `A tag named "${name}"`),
  usedBy: { ...TIME_ENTRIES, ...FAVORITES },
});

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
export async function resolveProjectClientTask(
  workspaceId: string,
  rec: Record<string, unknown>,
  before?: Record<string, unknown>,
  patch?: Record<string, unknown>,
): Promise<void> {
  // An update that sends none of the three keeps the stored references, which were checked when they were
  // written: a task's project is immutable, and usage counters keep every referenced record in existence.
  // Re-reading the task and the project would only repeat that check (2 GetItems on every update).
  if (before && patch && !('projectId' in patch) && !('taskId' in patch) && !('clientId' in patch)) return;
  // "Sent by this request": the patch says so exactly; without one, a value that differs from before.
  const changed = (field: string) => !before || (patch ? field in patch : rec[field] !== before[field]);
  let projectChanged = changed('projectId');
  if (rec.taskId) {
    const task = await tasks.getItem(workspaceId, { id: String(rec.taskId) });
    if (!task) throw fieldError('taskId', `Task ${String(rec.taskId)} does not exist in this workspace`);
    if (rec.projectId === undefined && before && projectChanged && !changed('taskId')) {
      throw fieldError('projectId', `cannot be cleared while taskId names a task of project ${String(task.projectId)}; clear taskId too`);
    }
    if (rec.projectId === undefined || (before && changed('taskId') && !projectChanged)) {
      projectChanged = projectChanged || rec.projectId !== task.projectId;
      rec.projectId = task.projectId;
    } else if (task.projectId !== rec.projectId) throw fieldError('taskId', `Task ${String(rec.taskId)} does not belong to project ${String(rec.projectId)}`);
  }
  if (rec.projectId) {
    const project = await projects.getItem(workspaceId, { id: String(rec.projectId) });
    if (!project) throw fieldError('projectId', `Project ${String(rec.projectId)} does not exist in this workspace`);
    if (project.clientId) {
      if (rec.clientId === undefined || (before && projectChanged && !changed('clientId'))) rec.clientId = project.clientId;
      else if (rec.clientId !== project.clientId) throw fieldError('clientId', `does not match the project's client (${String(project.clientId)})`);
    }
  }
}
