import { favoriteFields } from '../../api/schemas';
import { Entity } from '../../data/repository';
import { keys } from '../../data/keys';
import { clients } from './clients';
import { projects, resolveProjectClientTask, tags, tasks } from './catalog';

/**
 * Favorite: a saved time-entry template of one user. PK `WS#<ws>`, SK `FAVORITE#<userId>#<id>`, so
 * one user's favorites are one Query (prefix `FAVORITE#<userId>#`) and a favorite is read with the
 * userId the API requires: another user's favorite is simply a key that does not exist (404).
 * References (project, client, task, tags) keep usage counters like time entries do, so a referenced
 * record cannot be deleted while a favorite names it.
 */
export const favorites = new Entity({
  kind: 'Favorite',
  type: 'FAVORITE',
  fields: favoriteFields,
  key: (workspaceId, rec) => keys.favorite(workspaceId, String(rec.userId), String(rec.id)),
  locate: (workspaceId, loc) => (loc.userId ? keys.favorite(workspaceId, loc.userId, loc.id) : undefined),
  references: [
    { field: 'projectId', target: () => projects },
    { field: 'clientId', target: () => clients },
    { field: 'taskId', target: () => tasks },
    { field: 'tagIds', target: () => tags, many: true },
  ],
  validate: (workspaceId, rec, before, patch) => resolveProjectClientTask(workspaceId, rec, before, patch),
});

/** The list route's key condition: one user's favorites when `userId` is given, else the workspace's. */
export const favoriteListPrefix = (query: Record<string, unknown>) =>
  keys.favoritePrefix(typeof query.userId === 'string' ? query.userId : undefined);
