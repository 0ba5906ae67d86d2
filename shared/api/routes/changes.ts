import * as z from 'zod/mini';
import { CHANGE_ENTITIES, CHANGE_RETENTION_DAYS, CHANGE_TYPES, changeResource } from '../../domain/changes';
import { EXAMPLE_CURSOR, EXAMPLE_IDS } from '../../domain/examples';
import { dateTimeString, idString, LIMITS, meta } from '../../domain/fields';
import { cursorParam, limitParam, responseSchema } from '../schemas';
import { ANY_KEY, lazyRoutes, type RouteDef } from './define';

/** One change event (shared/domain/changes.ts): `data` is the record as its own routes return it. */
export const changeEventSchema = meta(
  z.object({
    id: meta(z.string().check(z.maxLength(64)), { description: 'The event id (evt_...), unique; webhooks deliver it as webhook-id', example: EXAMPLE_IDS.event }),
    type: meta(z.enum(CHANGE_TYPES as [string, ...string[]]), { description: '<resource>.created, .updated or .deleted', example: 'client.updated' }),
    resource: meta(z.enum(CHANGE_ENTITIES.map(changeResource) as [string, ...string[]]), { example: 'client' }),
    resourceId: meta(idString, { description: 'The id of the record that changed', example: EXAMPLE_IDS.client }),
    occurredAt: meta(dateTimeString, { description: 'When the change was made (UTC)', example: '2026-03-03T08:12:41.000Z' }),
    position: meta(z.number().check(z.int(), z.gte(1), z.lte(Number.MAX_SAFE_INTEGER)), {
      description:
        "The event's place in the workspace's change feed: events are in this order (a record's changes in the order they were made); numbers may be skipped. Webhook deliveries are concurrent and may arrive in any order: sort on position, or read the feed.",
      example: 1042,
    }),
    data: meta(z.union(CHANGE_ENTITIES.map((e): z.ZodMiniObject => responseSchema(e)) as [z.ZodMiniObject, z.ZodMiniObject, ...z.ZodMiniObject[]]), {
      description: 'The record after the change (for a deleted event, its last state), as its GET returns it',
    }),
    previousSortKey: meta(z.optional(z.string().check(z.maxLength(512))), {
      description: 'A time entry whose startTime changed: its sortKey before the change (data.sortKey is the new one)',
      example: `2026-03-02T08:45:00.000Z#${EXAMPLE_IDS.timeEntry}`,
    }),
  }),
  { id: 'ChangeEvent' },
);

export const changesQuery = z.strictObject({
  cursor: meta(cursorParam, { description: 'The nextCursor of the previous page: the feed resumes right after the last event it covered' }),
  limit: limitParam,
  since: meta(z.optional(dateTimeString), {
    description: `Start at the first event that occurred at or after this instant (ISO 8601; at most ${CHANGE_RETENTION_DAYS} days ago). Not with cursor.`,
  }),
  types: meta(z.optional(z.string().check(z.maxLength(2048))), {
    description: 'Comma list of change types to return, e.g. time-entry.created,client.*; * for all (default: all)',
    example: 'time-entry.*,project.deleted',
  }),
});

export const changesPage = meta(
  z.object({
    items: z.array(changeEventSchema).check(z.maxLength(LIMITS.pageMax)),
    nextCursor: meta(z.string().check(z.maxLength(2048)), {
      description: 'Always present, on the last page too: pass it as cursor to continue exactly after the events of this page',
      example: EXAMPLE_CURSOR,
    }),
    hasMore: meta(z.boolean(), { description: 'More events can be read now; when false, poll again later with nextCursor', example: false }),
  }),
  { id: 'ChangePage' },
);

/** The change feed (the changes function). */
export const changesRoutes = lazyRoutes({
  listChanges: {
    method: 'GET',
    path: '/v1/changes',
    resource: 'changes',
    scope: ANY_KEY,
    summary: 'The change feed: every create, update and delete in the workspace, oldest first (paginated)',
    description: [
      'Returns the events of resources the key can read (their `:read` scope); the others are passed over, not refused.',
      "Follow `nextCursor`, which every page carries, the last one too: a poller that always passes the previous page's `nextCursor` sees every committed change exactly once, and the changes of one record in the order they were made.",
      'Without `cursor` or `since` the feed starts at its oldest kept event. Events are kept at least 30 days; an older cursor or `since` is 410 `CURSOR_EXPIRED`.',
    ].join(' '),
    query: changesQuery,
    response: changesPage,
    expiringCursor: true,
    successStatus: 200,
  },
} satisfies Record<string, RouteDef>);
