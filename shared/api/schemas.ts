import * as z from 'zod';
import { CHANGE_ENTITIES, CHANGE_RETENTION_DAYS, CHANGE_TYPES, changeResource } from '../domain/changes';
import type { AnyEntity } from '../domain/entity';
import { webhookAttemptSchema } from '../domain/webhook-attempt';
import { EXAMPLE_CURSOR, EXAMPLE_IDS, EXAMPLE_RECORD_IDS, EXAMPLE_SORT_KEY, EXAMPLE_START, idOf } from '../domain/examples';
import {
  BASE_FIELDS,
  booleanParam,
  dateOrDateTime,
  dateString,
  dateTimeString,
  idString,
  inputSchema,
  isAlwaysPresent,
  LIMITS,
  timestamp,
  type FieldSpecs,
} from '../domain/fields';
import { ENTITIES } from '../domain/registry';
import { SCOPES } from '../domain/auth';
import { INVOICE_STATUSES } from '../domain/entities/invoices';
import { timeEntryFilters } from '../domain/reports';
import { ERROR_STATUS, MAX_DETAIL_CHARS, MAX_ERROR_DETAILS, MAX_ERROR_MESSAGE_CHARS, type ErrorCode } from './errors';

/**
 * The API's schemas: each resource's create body, merge-update body and response object are derived
 * from its entity declaration (shared/domain/entities/*), so they can never drift apart; plus the
 * shapes every route shares (lists, pages, the error body, paging and addressing parameters).
 */

/** Server-set fields: accepted in a body and ignored (product.md): the base fields and every computed one. */
export const READ_ONLY_FIELDS: readonly string[] = [...new Set([...Object.keys(BASE_FIELDS), 'etag', ...ENTITIES.flatMap((e) => Object.keys(e.computed ?? {}))])];

/** The record's strong ETag, in every representation (single-resource answers also send it as the ETag header). */
export const etagField = z.string().max(24).meta({
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
/** The example record's timestamps (a record written after the example time entry ended, changed since). */
const CREATED_AT = '2026-03-02T10:30:05.000Z';
const UPDATED_AT = '2026-03-03T08:12:41.000Z';
/** The response object of an entity: id, its fields, its computed fields, timestamps (named like its kind). */
export function responseSchema(e: AnyEntity): z.ZodObject {
  let schema = responseSchemas.get(e);
  if (!schema) {
    const shape: Record<string, z.ZodType> = { id: BASE_FIELDS.id.meta({ example: EXAMPLE_RECORD_IDS[e.resource] ?? EXAMPLE_IDS.client }) };
    for (const [name, f] of Object.entries(e.fields)) shape[name] = isAlwaysPresent(f) ? f.schema : f.schema.optional();
    schema = z
      .object({
        ...shape,
        ...e.computed,
        createdAt: BASE_FIELDS.createdAt.meta({ example: CREATED_AT }),
        updatedAt: BASE_FIELDS.updatedAt.meta({ example: UPDATED_AT }),
        etag: etagField,
      })
      .meta({ id: pascal(e.kind) });
    responseSchemas.set(e, schema);
  }
  return schema;
}

/**
 * A whole list (clients, projects, tasks, tags, favorites): returned whole by contract, so it has no
 * item bound (the Spectral OWASP ruleset's array-limit is switched off for these answers, with the reason).
 */
export const listOf = (item: z.ZodType) => z.object({ items: z.array(item) });
export const pageOf = (item: z.ZodType) =>
  z.object({
    items: z.array(item).max(LIMITS.pageMax),
    nextCursor: z.string().max(MAX_CURSOR_CHARS).optional().meta({ description: 'Opaque cursor for the next page; present when hasMore is true', example: EXAMPLE_CURSOR }),
    hasMore: z.boolean().meta({ example: true }),
  });

/** The longest cursor accepted (and handed out). */
export const MAX_CURSOR_CHARS = 2048;

export const deletedSchema = z.object({ deleted: z.literal(true), id: z.string().max(LIMITS.id).meta({ example: EXAMPLE_IDS.client }) }).meta({ id: 'Deleted' });

/** A field the request got wrong (400 VALIDATION_ERROR): its dotted path and what is wrong with it. */
export const fieldErrorDetail = z
  .object({
    field: z.string().max(MAX_DETAIL_CHARS).meta({ description: 'The parameter, header or body field, by dotted path (e.g. `sortKey`, `body.tagIds.3`)', example: 'startDate' }),
    message: z
      .string()
      .max(MAX_DETAIL_CHARS)
      .meta({ description: 'What is wrong with it, in plain words (e.g. `is required`)', example: 'must be a date (YYYY-MM-DD), e.g. 2026-01-31' }),
  })
  .meta({ id: 'FieldErrorDetail' });
/** Why a 403 FORBIDDEN was a rate limit: retry after `retryAfter` seconds. */
export const rateLimitedDetail = z
  .object({
    reason: z.literal('RATE_LIMITED'),
    window: z.enum(['minute', 'hour']).meta({ description: 'The window whose limit was reached' }),
    limit: z.int().min(1).meta({ description: "The key's limit for that window", example: 60 }),
    retryAfter: z.int().min(1).max(3600).meta({ description: 'Seconds until that window resets (also the Retry-After header): retrying then can succeed', example: 37 }),
  })
  .meta({ id: 'RateLimitedDetail', description: '403 FORBIDDEN because a rate limit was reached: retry after retryAfter seconds' });
/** Why a 403 FORBIDDEN was a missing scope: retrying will not help. */
export const missingScopeDetail = z
  .object({
    reason: z.literal('MISSING_SCOPE'),
    scope: z.string().max(64).meta({ description: 'The scope the route requires and the key lacks (e.g. `clients:read`)', example: 'clients:write' }),
  })
  .meta({ id: 'MissingScopeDetail', description: '403 FORBIDDEN because the key lacks the scope of the route: retrying will not help' });

/**
 * The error body of every error answer (the contract's `{ error: { code, message } }`). Named ErrorResponse,
 * not Error: generated clients turn schema names into type names, and `Error` is JavaScript's own.
 */
export const errorSchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]).meta({ example: 'VALIDATION_ERROR' }),
      message: z.string().max(MAX_ERROR_MESSAGE_CHARS).meta({ example: 'Invalid query parameter: startDate must be a date (YYYY-MM-DD), e.g. 2026-01-31' }),
      details: z
        .array(z.union([fieldErrorDetail, rateLimitedDetail, missingScopeDetail]))
        .max(MAX_ERROR_DETAILS)
        .optional()
        .meta({
          description:
            'The fields a 400 refused ({ field, message }); for a 403, one entry with a machine-readable reason: RATE_LIMITED (retry after retryAfter seconds) or MISSING_SCOPE (do not retry)',
        }),
      requestId: z
        .string()
        .max(128)
        .optional()
        .meta({ description: 'The request id of the logs (also the X-Request-Id or x-amzn-RequestId header)', example: 'c0a8f1e2-5b7d-4c3a-9e6f-1a2b3c4d5e6f' }),
    }),
  })
  .meta({ id: 'ErrorResponse' });

/** The OpenAPI document itself (GET /v1/openapi.json). */
const jsonObject = (description: string, example: unknown) => ({ type: 'object', description, example });
export const openApiDocumentSchema = z
  .custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v))
  .meta({
    description: 'An OpenAPI 3.0 document',
    type: 'object',
    required: ['openapi', 'info', 'paths'],
    additionalProperties: false,
    properties: {
      openapi: { type: 'string', maxLength: 16, pattern: '^3\\.0\\.\\d+$', example: '3.0.3' },
      info: jsonObject('Title, version and description of the API', { title: 'Workspace Time-Tracking API', version: '1.0.0' }),
      servers: { type: 'array', maxItems: 10, items: jsonObject('A server of the API', { url: 'https://api.example.com' }) },
      paths: jsonObject('The operations, by path template', { '/v1/clients': { get: { operationId: 'listClients' } } }),
      components: jsonObject('Schemas, responses and security schemes', { securitySchemes: { ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } }),
      security: { type: 'array', maxItems: 10, items: jsonObject('A security requirement', { ApiKeyAuth: [] }) },
      tags: { type: 'array', maxItems: 100, items: jsonObject('A tag', { name: 'clients', description: 'The customers work is done for' }) },
      'x-tagGroups': { type: 'array', maxItems: 20, items: jsonObject('A group of tags (the reference page sidebar)', { name: 'Catalog', tags: ['clients', 'projects'] }) },
      externalDocs: jsonObject('External documentation', { url: 'https://api.example.com/v1/docs' }),
    },
  } as Record<string, unknown>);
/** The body of a text answer (the reference page and its script). */
export const textSchema = z.string();

/** One window of the calling key's quota, counting the request that asked. */
const quotaWindow = z.object({
  limit: z.int().min(1).meta({ description: 'Requests allowed in the window', example: 60 }),
  remaining: z.int().min(0).meta({ description: 'Requests left in the current window after this one', example: 57 }),
  resetSeconds: z.int().min(1).max(3600).meta({ description: 'Seconds until the current window ends and its count starts over', example: 23 }),
});
/** GET /v1/me: the calling key and its quota. */
export const meSchema = z
  .object({
    id: z.string().max(LIMITS.id).meta({ description: "The key's public id (key_...); never the key itself", example: EXAMPLE_IDS.key }),
    name: z.string().max(LIMITS.name).meta({ example: 'Billing sync' }),
    workspaceId: z.string().max(LIMITS.id).meta({ example: EXAMPLE_IDS.workspace }),
    scopes: z
      .array(z.string().max(64))
      .max(SCOPES.length)
      .meta({ description: 'The scopes the key holds', example: ['time-entries:read', 'projects:read', 'clients:read'] }),
    limits: z.object({ perMinute: z.int().min(1).meta({ example: 60 }), perHour: z.int().min(1).meta({ example: 1000 }) }),
    expiresAt: timestamp.nullable().meta({ description: 'When the key stops working; null when it does not expire', example: '2027-01-01T00:00:00.000Z' }),
    quota: z.object({ minute: quotaWindow, hour: quotaWindow }).meta({
      description: 'The quota left in both windows, this request counted (as in the RateLimit header)',
      example: { minute: { limit: 60, remaining: 57, resetSeconds: 23 }, hour: { limit: 1000, remaining: 994, resetSeconds: 1823 } },
    }),
  })
  .meta({ id: 'ApiKeyInfo' });

/** Query-string integer for `limit`: digits only, 1..200; no silent clamping (product.md). */
export const limitParam = z
  .string()
  .regex(/^\d+$/, 'must be an integer from 1 to 200')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be an integer from 1 to 200').max(LIMITS.pageMax, 'must be an integer from 1 to 200'))
  .optional()
  // documented as the integer it is (the query string carries its digits), so generated clients take a number
  .meta({ description: 'Page size, 1-200 (default 50)', type: 'integer', minimum: 1, maximum: LIMITS.pageMax, example: 50 } as Record<string, unknown>);
export const cursorParam = z.string().min(1).max(MAX_CURSOR_CHARS).optional().meta({ description: 'The nextCursor of the previous page', example: EXAMPLE_CURSOR });

/** The `{id}` of a resource's routes: the id with the example of that resource's records. */
export const idParamsFor = (resource: string) => z.strictObject({ id: idString.meta({ example: EXAMPLE_RECORD_IDS[resource] ?? EXAMPLE_IDS.client }) });

export { booleanParam };

/**
 * The time-entry list's query: its range, the time-entry filters (one schema, shared with the summary
 * report: shared/domain/reports.ts) and `running` (paging parameters are added by the route table).
 */
export const timeEntryListQuery = z.strictObject({
  startDate: dateOrDateTime.optional().meta({ description: 'Entries starting at or after this date (inclusive)' }),
  endDate: dateOrDateTime.optional().meta({ description: 'Entries starting at or before this date (inclusive; a date alone covers the whole day)' }),
  ...timeEntryFilters.shape,
  running: z.literal('true').optional().meta({ description: 'true: only running entries (no endTime; at most one per user)' }),
});
/** A time entry's sortKey: `<startTime, UTC, ms>#<id>` (shared/domain/entities/time-entries.ts). */
export const SORT_KEY_REGEX = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)#([^#]{1,128})$/;
export const sortKeyQuery = z.strictObject({
  sortKey: z
    .string()
    .max(512)
    .regex(SORT_KEY_REGEX, 'must be the sortKey returned with the entry, e.g. 2026-01-31T09:00:00.000Z#01JB2Z3Y4X5W6V7T8S9R0Q1P2N (URL-encode # as %23)')
    .meta({ description: "The entry's sortKey, as returned with it (URL-encode # as %23)", example: EXAMPLE_SORT_KEY }),
});
export const userIdQuery = z.strictObject({ userId: idOf.user.meta({ description: 'The user the favorite belongs to (required with API key authentication)' }) });
export const favoriteListQuery = z.strictObject({ userId: idOf.user.optional() });
export const taskListQuery = z.strictObject({ projectId: idOf.project.optional() });
/** Filters of the invoice list: status, client, issueDate range (both days inclusive). */
export const invoiceListQuery = z.strictObject({
  status: z.enum(INVOICE_STATUSES).optional(),
  clientId: idOf.client.optional(),
  startDate: dateString.optional().meta({ description: 'Invoices issued on or after this date', example: '2026-03-01' }),
  endDate: dateString.optional().meta({ description: 'Invoices issued on or before this date', example: '2026-03-31' }),
});

/** POST /v1/time-entries/{id}/stop: the optional body. */
export const stopBody = z.strictObject({
  endTime: dateTimeString.optional().meta({ description: 'When the timer stopped (default: now); not before its startTime', example: '2026-03-02T10:30:00.000Z' }),
});
/** POST /v1/favorites/{id}/start: the optional body. */
export const startBody = z.strictObject({ startTime: dateTimeString.optional().meta({ description: 'When the timer started (default: now)', example: EXAMPLE_START }) });

/** One change event (shared/domain/changes.ts): `data` is the record as its own routes return it. */
export const changeEventSchema = z
  .object({
    id: z.string().max(64).meta({ description: 'The event id (evt_...), unique; webhooks deliver it as webhook-id', example: EXAMPLE_IDS.event }),
    type: z.enum(CHANGE_TYPES as [string, ...string[]]).meta({ description: '<resource>.created, .updated or .deleted', example: 'client.updated' }),
    resource: z.enum(CHANGE_ENTITIES.map(changeResource) as [string, ...string[]]).meta({ example: 'client' }),
    resourceId: idString.meta({ description: 'The id of the record that changed', example: EXAMPLE_IDS.client }),
    occurredAt: dateTimeString.meta({ description: 'When the change was made (UTC)', example: '2026-03-03T08:12:41.000Z' }),
    position: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).meta({
      description:
        "The event's place in the workspace's change feed: events are in this order (a record's changes in the order they were made); numbers may be skipped. Webhook deliveries are concurrent and may arrive in any order: sort on position, or read the feed.",
      example: 1042,
    }),
    data: z
      .union(CHANGE_ENTITIES.map((e) => responseSchema(e)) as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]])
      .meta({ description: 'The record after the change (for a deleted event, its last state), as its GET returns it' }),
    previousSortKey: z
      .string()
      .max(512)
      .optional()
      .meta({
        description: 'A time entry whose startTime changed: its sortKey before the change (data.sortKey is the new one)',
        example: `2026-03-02T08:45:00.000Z#${EXAMPLE_IDS.timeEntry}`,
      }),
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
    items: z.array(changeEventSchema).max(LIMITS.pageMax),
    nextCursor: z
      .string()
      .max(2048)
      .meta({ description: 'Always present, on the last page too: pass it as cursor to continue exactly after the events of this page', example: EXAMPLE_CURSOR }),
    hasMore: z.boolean().meta({ description: 'More events can be read now; when false, poll again later with nextCursor', example: false }),
  })
  .meta({ id: 'ChangePage' });

/** GET /v1/reports/summary: the request and the answer are declared with the engine (shared/domain/reports.ts). */
export { REPORT_GROUPINGS, reportGroup, reportQuery, reportSubGroup, summaryReportSchema as summaryReport, type ReportGrouping } from '../domain/reports';
/** Webhooks (shared/domain/entities/webhooks.ts): the signing secret appears in two answers only. */
export const webhookSecretField = z.string().max(128).meta({
  description: 'The signing secret (Standard Webhooks, `whsec_...`): shown in this answer only; store it now. Verify deliveries with it.',
  example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
});
export const webhookCreatedSchema = (item: z.ZodObject) => item.extend({ secret: webhookSecretField }).meta({ id: 'WebhookCreated' });
export const webhookSecretSchema = z.object({ id: z.string().max(128).meta({ example: EXAMPLE_IDS.webhook }), secret: webhookSecretField }).meta({ id: 'WebhookSecret' });
export const webhookPingSchema = z
  .object({
    id: z.string().max(64).meta({ description: 'The event id of the ping (its webhook-id header)', example: 'evt_01JQ7ZR2B4C6D8E0F2G4H6J8K0' }),
    type: z.literal('webhook.ping'),
    queued: z.literal(true),
  })
  .meta({ id: 'WebhookPing' });
/** One delivery attempt: declared in shared/domain/webhooks.ts, where the store's type is inferred from it. */
export { webhookAttemptSchema };
