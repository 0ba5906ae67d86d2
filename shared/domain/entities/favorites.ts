import * as z from 'zod/mini';
import { defineEntity, type EntityRecord } from '../entity';
import { EXAMPLE_IDS, idOf } from '../examples';
import { nameString, notesString, tagIdsSchema, meta } from '../fields';
import { clients } from './clients';
import { projects } from './projects';
import { projectClientTask } from './rules';
import { tags } from './tags';
import { tasks } from './tasks';

/**
 * Favorite: a saved time-entry template of one user. PK `WS#<ws>`, SK `FAVORITE#<userId>#<id>`, so
 * one user's favorites are one Query (prefix `FAVORITE#<userId>#`) and a favorite is read with the
 * userId the API requires: another user's favorite is simply a key that does not exist (404).
 * References (project, client, task, tags) keep usage counters like time entries do, so a referenced
 * record cannot be deleted while a favorite names it.
 */
export const favorites = defineEntity({
  resource: 'favorites',
  kind: 'Favorite',
  type: 'FAVORITE',
  description: "A user's saved time-entry templates; addressed by id and userId",
  fields: {
    userId: { schema: idOf.user, required: true, immutable: true },
    name: { schema: meta(nameString, { example: 'Homepage design for Acme' }), required: true },
    projectId: { schema: idOf.project },
    clientId: { schema: idOf.client },
    taskId: { schema: idOf.task },
    tagIds: { schema: meta(tagIdsSchema, { example: [EXAMPLE_IDS.tag] }) },
    billable: { schema: meta(z.boolean(), { example: true }) },
    notes: { schema: meta(notesString, { example: 'Design work on the relaunch' }) },
  },
  key: { pk: {}, sk: { prefix: 'FAVORITE', composite: ['userId', 'id'] } },
  references: [
    { field: 'projectId', target: () => projects },
    { field: 'clientId', target: () => clients },
    { field: 'taskId', target: () => tasks },
    { field: 'tagIds', target: () => tags, many: true },
  ],
  rules: [projectClientTask],
  list: { mode: 'whole', via: ['key'], bound: { maxRecords: 500, env: 'MAX_FAVORITES_PER_USER', per: 'userId' } },
});
export type Favorite = EntityRecord<typeof favorites>;

/**
 * What a time entry started from a favorite takes from it (POST /v1/favorites/{id}/start), and what the
 * demo seed sends besides the times: the time-entry fields a favorite holds.
 */
export const FROM_FAVORITE = ['userId', 'name', 'projectId', 'clientId', 'taskId', 'tagIds', 'billable', 'notes'] as const satisfies readonly (keyof typeof favorites.fields)[];
