import * as z from 'zod';
import { CHANGE_ENTITIES, CHANGE_RETENTION_DAYS, CHANGE_TYPES, changeResource } from '../domain/changes';
import type { AnyEntity } from '../domain/entity';
import { BASE_FIELDS, dateString, dateTimeString, idString, inputSchema, isAlwaysPresent, LIMITS, type FieldSpecs } from '../domain/fields';
import { ENTITIES } from '../domain/registry';
import { ERROR_STATUS, type ErrorCode } from './errors';

/**
 * The API's schemas: each resource's create body, merge-update body and response object are derived
 * from its entity declaration (shared/domain/entities/*), so they can never drift apart; plus the
 * shapes every route shares (lists, pages, the error body, paging and addressing parameters).
 */

/** Server-set fields: accepted in a body and ignored (product.md): the base fields and every computed one. */
export const READ_ONLY_FIELDS: readonly string[] = [...new Set([...Object.keys(BASE_FIELDS), 'etag', ...ENTITIES.flatMap((e) => Object.keys(e.computed ?? {}))])];

/** The record's strong ETag, in every representation (single-resource answers also send it as the ETag header). */
export const etagField = z.string().meta({
  description: "The record's ETag (read-only; the same as the ETag header of its GET): send it in If-Match to update or delete the record only if it is unchanged",
  example: '"3"',
});

/** "Time entry" -> "TimeEntry": the schema id of an entity's response object. */
export const pascal = (words: string) =>
  words
    .split(/[\s-]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

export const createBodySchema = (fields: FieldSpecs) => inputSchema(fields);

export function updateBodySchema(fields: FieldSpecs) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, f] of Object.entries(fields)) shape[name] = isAlwaysPresent(f) ? f.schema.optional() : f.schema.nullable().optional();
  return z.strictObject(shape);
}

const responseSchemas = new Map<AnyEntity, z.ZodObject>();
/** The response object of an entity: id, its fields, its computed fields, timestamps (named like its kind). */
export function responseSchema(e: AnyEntity): z.ZodObject {
  let schema = responseSchemas.get(e);
  if (!schema) {
    const shape: Record<string, z.ZodType> = { id: BASE_FIELDS.id };
    for (const [name, f] of Object.entries(e.fields)) shape[name] = isAlwaysPresent(f) ? f.schema : f.schema.optional();
    schema = z.object({ ...shape, ...e.computed, createdAt: BASE_FIELDS.createdAt, updatedAt: BASE_FIELDS.updatedAt, etag: etagField }).meta({ id: pascal(e.kind) });
    responseSchemas.set(e, schema);
  }
  return schema;
}

export const listOf = (item: z.ZodType) => z.object({ items: z.array(item) });
export const pageOf = (item: z.ZodType) =>
  z.object({
    items: z.array(item),
    nextCursor: z.string().optional().meta({ description: 'Opaque cursor for the next page; present when hasMore is true' }),
    hasMore: z.boolean(),
  });

export const deletedSchema = z.object({ deleted: z.literal(true), id: z.string() }).meta({ id: 'Deleted', example: { deleted: true, id: '01JB2Z3Y4X5W6V7T8S9R0Q1P2N' } });

export const errorSchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
      requestId: z.string().optional(),
    }),
  })
  .meta({ id: 'Error' });

/** Query-string integer for `limit`: digits only, 1..200; no silent clamping (product.md). */
export const limitParam = z
  .string()
  .regex(/^\d+$/, 'must be an integer from 1 to 200')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be an integer from 1 to 200').max(LIMITS.pageMax, 'must be an integer from 1 to 200'))
  .optional()
  // documented as the integer it is (the query string carries its digits), so generated clients take a number
  .meta({ description: 'Page size, 1-200 (default 50)', type: 'integer', minimum: 1, maximum: LIMITS.pageMax } as Record<string, unknown>);
export const cursorParam = z.string().min(1).max(2048).optional().meta({ description: 'The nextCursor of the previous page' });

export const idParams = z.strictObject({ id: idString });

/** Filters of the time-entry list (paging parameters are added to every paged list by the route table). */
export const timeEntryListQuery = z.strictObject({
  startDate: z.union([dateTimeString, dateString]).optional().meta({ description: 'Entries starting at or after this date (inclusive)' }),
  endDate: z.union([dateTimeString, dateString]).optional().meta({ description: 'Entries starting at or before this date (inclusive; a date alone covers the whole day)' }),
  userId: idString.optional(),
  projectId: idString.optional(),
  clientId: idString.optional(),
});
/** A time entry's sortKey: `<startTime, UTC, ms>#<id>` (shared/domain/entities/time-entries.ts). */
export const SORT_KEY_REGEX = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)#([^#]{1,128})$/;
export const sortKeyQuery = z.strictObject({
  sortKey: z
    .string()
    .max(512)
    .regex(SORT_KEY_REGEX, 'must be the sortKey returned with the entry, e.g. 2026-01-31T09:00:00.000Z#01JB2Z3Y4X5W6V7T8S9R0Q1P2N (URL-encode # as %23)')
    .meta({ description: "The entry's sortKey, as returned with it (URL-encode # as %23)" }),
});
export const userIdQuery = z.strictObject({ userId: idString.meta({ description: 'The user the favorite belongs to (required with API key authentication)' }) });
export const favoriteListQuery = z.strictObject({ userId: idString.optional() });
export const taskListQuery = z.strictObject({ projectId: idString.optional() });

/** One change event (shared/domain/changes.ts): `data` is the record as its own routes return it. */
export const changeEventSchema = z
  .object({
    id: z.string().meta({ description: 'The event id (evt_...), unique; webhooks deliver it as webhook-id' }),
    type: z.enum(CHANGE_TYPES as [string, ...string[]]).meta({ description: '<resource>.created, .updated or .deleted' }),
    resource: z.enum(CHANGE_ENTITIES.map(changeResource) as [string, ...string[]]),
    resourceId: idString.meta({ description: 'The id of the record that changed' }),
    occurredAt: dateTimeString.meta({ description: 'When the change was made (UTC)' }),
    data: z
      .union(CHANGE_ENTITIES.map((e) => responseSchema(e)) as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]])
      .meta({ description: 'The record after the change (for a deleted event, its last state), as its GET returns it' }),
    previousSortKey: z.string().optional().meta({ description: 'A time entry whose startTime changed: its sortKey before the change (data.sortKey is the new one)' }),
  })
  .meta({ id: 'ChangeEvent' });

export const changesQuery = z.strictObject({
  cursor: cursorParam.meta({ description: 'The nextCursor of the previous page: the feed resumes right after the last event it covered' }),
  limit: limitParam,
  since: dateTimeString.optional().meta({
    description: `Start at the first event that occurred at or after this instant (ISO 8601; at most ${CHANGE_RETENTION_DAYS} days ago). Not with cursor.`,
  }),
  types: z
    .string()
    .max(2048)
    .optional()
    .meta({ description: 'Comma list of change types to return, e.g. time-entry.created,client.*; * for all (default: all)', example: 'time-entry.*,project.deleted' }),
});

export const changesPage = z
  .object({
    items: z.array(changeEventSchema),
    nextCursor: z.string().meta({ description: 'Always present, on the last page too: pass it as cursor to continue exactly after the events of this page' }),
    hasMore: z.boolean().meta({ description: 'More events can be read now; when false, poll again later with nextCursor' }),
  })
  .meta({ id: 'ChangePage' });

/** Webhooks (shared/domain/entities/webhooks.ts): the signing secret appears in two answers only. */
export const webhookSecretField = z.string().meta({
  description: 'The signing secret (Standard Webhooks, `whsec_...`): shown in this answer only; store it now. Verify deliveries with it.',
  example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
});
export const webhookCreatedSchema = (item: z.ZodObject) => item.extend({ secret: webhookSecretField }).meta({ id: 'WebhookCreated' });
export const webhookSecretSchema = z.object({ id: z.string(), secret: webhookSecretField }).meta({ id: 'WebhookSecret' });
export const webhookPingSchema = z
  .object({
    id: z.string().meta({ description: 'The event id of the ping (its webhook-id header)' }),
    type: z.literal('webhook.ping'),
    queued: z.literal(true),
  })
  .meta({ id: 'WebhookPing' });
export const webhookAttemptSchema = z
  .object({
    eventId: z.string(),
    type: z.string().meta({ description: 'The event type (a change type, or webhook.ping)' }),
    attempt: z.number().int().meta({ description: '1 for the first attempt of the event' }),
    at: timestampField('When the attempt started'),
    statusCode: z.number().int().optional().meta({ description: "The receiver's HTTP status (absent when no answer came)" }),
    error: z.string().optional().meta({ description: 'Why no answer came: timeout, refused address, connection error' }),
    durationMs: z.number().int(),
    nextRetryAt: timestampField('When the event is tried again (absent: delivered, or retries exhausted)').optional(),
  })
  .meta({ id: 'WebhookAttempt' });
function timestampField(description: string) {
  return z.string().meta({ format: 'date-time', description });
}
