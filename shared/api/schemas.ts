import * as z from 'zod/mini';
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
  meta,
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
export const etagField = meta(z.string().check(z.maxLength(24)), {
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
  const shape: Record<string, z.ZodMiniType> = {};
  for (const [name, f] of Object.entries(fields)) shape[name] = isAlwaysPresent(f) ? z.optional(f.schema) : z.optional(z.nullable(f.schema));
  return z.strictObject(shape);
}

const responseSchemas = new Map<AnyEntity, z.ZodMiniObject>();
/** The example record's timestamps (a record written after the example time entry ended, changed since). */
const CREATED_AT = '2026-03-02T10:30:05.000Z';
const UPDATED_AT = '2026-03-03T08:12:41.000Z';
/** The response object of an entity: id, its fields, its computed fields, timestamps (named like its kind). */
export function responseSchema(e: AnyEntity): z.ZodMiniObject {
  let schema = responseSchemas.get(e);
  if (!schema) {
    const shape: Record<string, z.ZodMiniType> = { id: meta(BASE_FIELDS.id, { example: EXAMPLE_RECORD_IDS[e.resource] ?? EXAMPLE_IDS.client }) };
    for (const [name, f] of Object.entries(e.fields)) shape[name] = isAlwaysPresent(f) ? f.schema : z.optional(f.schema);
    schema = meta(
      z.object({
        ...shape,
        ...e.computed,
        createdAt: meta(BASE_FIELDS.createdAt, { example: CREATED_AT }),
        updatedAt: meta(BASE_FIELDS.updatedAt, { example: UPDATED_AT }),
        etag: etagField,
      }),
      { id: pascal(e.kind) },
    );
    responseSchemas.set(e, schema);
  }
  return schema;
}

/**
 * A whole list (clients, projects, tasks, tags, favorites): returned whole by contract, so it has no
 * item bound (the Spectral OWASP ruleset's array-limit is switched off for these answers, with the reason).
 */
export const listOf = (item: z.ZodMiniType) => z.object({ items: z.array(item) });
export const pageOf = (item: z.ZodMiniType) =>
  z.object({
    items: z.array(item).check(z.maxLength(LIMITS.pageMax)),
    nextCursor: meta(z.optional(z.string().check(z.maxLength(MAX_CURSOR_CHARS))), {
      description: 'Opaque cursor for the next page; present when hasMore is true',
      example: EXAMPLE_CURSOR,
    }),
    hasMore: meta(z.boolean(), { example: true }),
  });

/** The longest cursor accepted (and handed out). */
export const MAX_CURSOR_CHARS = 2048;

export const deletedSchema = meta(z.object({ deleted: z.literal(true), id: meta(z.string().check(z.maxLength(LIMITS.id)), { example: EXAMPLE_IDS.client }) }), { id: 'Deleted' });

/** DELETE /v1/invoices/{id} answered 202: the draft's time entries are being released in steps (issue 32). */
export const invoiceReleasingSchema = meta(
  z.object({
    id: meta(z.string().check(z.maxLength(LIMITS.id)), { description: 'The invoice being deleted', example: '01JB2Z3Y4X5W6V7T8S9R0Q1P2N' }),
    status: z.literal('releasing'),
    action: z.enum(['void', 'delete']),
    clientId: meta(z.string().check(z.maxLength(LIMITS.id)), { example: EXAMPLE_IDS.client }),
    entryCount: meta(z.int().check(z.gte(0), z.lte(5000)), { description: 'The time entries on the invoice', example: 5000 }),
    locked: meta(z.int().check(z.gte(0), z.lte(5000)), { description: 'The time entries that still carry its id (down to 0)', example: 1370 }),
  }),
  { id: 'InvoiceReleasing' },
);

/** A field the request got wrong (400 VALIDATION_ERROR): its dotted path and what is wrong with it. */
export const fieldErrorDetail = meta(
  z.object({
    field: meta(z.string().check(z.maxLength(MAX_DETAIL_CHARS)), {
      description: 'The parameter, header or body field, by dotted path (e.g. `sortKey`, `body.tagIds.3`)',
      example: 'startDate',
    }),
    message: meta(z.string().check(z.maxLength(MAX_DETAIL_CHARS)), {
      description: 'What is wrong with it, in plain words (e.g. `is required`)',
      example: 'must be a date (YYYY-MM-DD), e.g. 2026-01-31',
    }),
  }),
  { id: 'FieldErrorDetail' },
);
/** Why a 403 FORBIDDEN was a rate limit: retry after `retryAfter` seconds. */
export const rateLimitedDetail = meta(
  z.object({
    reason: z.literal('RATE_LIMITED'),
    window: meta(z.enum(['minute', 'hour']), { description: 'The window whose limit was reached' }),
    limit: meta(z.int().check(z.gte(1)), { description: "The key's limit for that window", example: 60 }),
    retryAfter: meta(z.int().check(z.gte(1), z.lte(3600)), {
      description: 'Seconds until that window resets (also the Retry-After header): retrying then can succeed',
      example: 37,
    }),
  }),
  { id: 'RateLimitedDetail', description: '403 FORBIDDEN because a rate limit was reached: retry after retryAfter seconds' },
);
/** Why a 403 FORBIDDEN was a missing scope: retrying will not help. */
export const missingScopeDetail = meta(
  z.object({
    reason: z.literal('MISSING_SCOPE'),
    scope: meta(z.string().check(z.maxLength(64)), { description: 'The scope the route requires and the key lacks (e.g. `clients:read`)', example: 'clients:write' }),
  }),
  { id: 'MissingScopeDetail', description: '403 FORBIDDEN because the key lacks the scope of the route: retrying will not help' },
);

/**
 * The error body of every error answer (the contract's `{ error: { code, message } }`). Named ErrorResponse,
 * not Error: generated clients turn schema names into type names, and `Error` is JavaScript's own.
 */
export const errorSchema = meta(
  z.object({
    error: z.object({
      code: meta(z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]), { example: 'VALIDATION_ERROR' }),
      message: meta(z.string().check(z.maxLength(MAX_ERROR_MESSAGE_CHARS)), { example: 'Invalid query parameter: startDate must be a date (YYYY-MM-DD), e.g. 2026-01-31' }),
      details: meta(z.optional(z.array(z.union([fieldErrorDetail, rateLimitedDetail, missingScopeDetail])).check(z.maxLength(MAX_ERROR_DETAILS))), {
        description:
          'The fields a 400 refused ({ field, message }); for a 403, one entry with a machine-readable reason: RATE_LIMITED (retry after retryAfter seconds) or MISSING_SCOPE (do not retry)',
      }),
      requestId: meta(z.optional(z.string().check(z.maxLength(128))), {
        description: 'The request id of the logs (also the X-Request-Id or x-amzn-RequestId header)',
        example: 'c0a8f1e2-5b7d-4c3a-9e6f-1a2b3c4d5e6f',
      }),
    }),
  }),
  { id: 'ErrorResponse' },
);

/** The OpenAPI document itself (GET /v1/openapi.json). */
const jsonObject = (description: string, example: unknown) => ({ type: 'object', description, example });
export const openApiDocumentSchema = meta(
  z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v)),
  {
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
  } as Record<string, unknown>,
);
/** The body of a text answer (the reference page and its script). */
export const textSchema = z.string();

/** One window of the calling key's quota, counting the request that asked. */
const quotaWindow = z.object({
  limit: meta(z.int().check(z.gte(1)), { description: 'Requests allowed in the window', example: 60 }),
  remaining: meta(z.int().check(z.gte(0)), { description: 'Requests left in the current window after this one', example: 57 }),
  resetSeconds: meta(z.int().check(z.gte(1), z.lte(3600)), { description: 'Seconds until the current window ends and its count starts over', example: 23 }),
});
/** GET /v1/me: the calling key and its quota. */
export const meSchema = meta(
  z.object({
    id: meta(z.string().check(z.maxLength(LIMITS.id)), { description: "The key's public id (key_...); never the key itself", example: EXAMPLE_IDS.key }),
    name: meta(z.string().check(z.maxLength(LIMITS.name)), { example: 'Billing sync' }),
    workspaceId: meta(z.string().check(z.maxLength(LIMITS.id)), { example: EXAMPLE_IDS.workspace }),
    scopes: meta(z.array(z.string().check(z.maxLength(64))).check(z.maxLength(SCOPES.length)), {
      description: 'The scopes the key holds',
      example: ['time-entries:read', 'projects:read', 'clients:read'],
    }),
    limits: z.object({ perMinute: meta(z.int().check(z.gte(1)), { example: 60 }), perHour: meta(z.int().check(z.gte(1)), { example: 1000 }) }),
    expiresAt: meta(z.nullable(timestamp), { description: 'When the key stops working; null when it does not expire', example: '2027-01-01T00:00:00.000Z' }),
    quota: meta(z.object({ minute: quotaWindow, hour: quotaWindow }), {
      description: 'The quota left in both windows, this request counted (as in the RateLimit header)',
      example: { minute: { limit: 60, remaining: 57, resetSeconds: 23 }, hour: { limit: 1000, remaining: 994, resetSeconds: 1823 } },
    }),
  }),
  { id: 'ApiKeyInfo' },
);

/** Query-string integer for `limit`: digits only, 1..200; no silent clamping (product.md). */
export const limitParam = meta(
  z.optional(
    z.pipe(
      z.pipe(z.string().check(z.regex(/^\d+$/, 'must be an integer from 1 to 200')), z.transform(Number)),
      z.number().check(z.int(), z.gte(1, 'must be an integer from 1 to 200'), z.lte(LIMITS.pageMax, 'must be an integer from 1 to 200')),
    ),
  ),
  // documented as the integer it is (the query string carries its digits), so generated clients take a number
  { description: 'Page size, 1-200 (default 50)', type: 'integer', minimum: 1, maximum: LIMITS.pageMax, example: 50 } as Record<string, unknown>,
);
export const cursorParam = meta(z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_CURSOR_CHARS))), {
  description: 'The nextCursor of the previous page',
  example: EXAMPLE_CURSOR,
});

/** The `{id}` of a resource's routes: the id with the example of that resource's records. */
export const idParamsFor = (resource: string) => z.strictObject({ id: meta(idString, { example: EXAMPLE_RECORD_IDS[resource] ?? EXAMPLE_IDS.client }) });

export { booleanParam };

/**
 * The time-entry list's query: its range, the time-entry filters (one schema, shared with the summary
 * report: shared/domain/reports.ts) and `running` (paging parameters are added by the route table).
 */
export const timeEntryListQuery = z.strictObject({
  startDate: meta(z.optional(dateOrDateTime), { description: 'Entries starting at or after this date (inclusive)' }),
  endDate: meta(z.optional(dateOrDateTime), { description: 'Entries starting at or before this date (inclusive; a date alone covers the whole day)' }),
  ...timeEntryFilters.shape,
  running: meta(z.optional(z.literal('true')), { description: 'true: only running entries (no endTime; at most one per user)' }),
});
/** A time entry's sortKey: `<startTime, UTC, ms>#<id>` (shared/domain/entities/time-entries.ts). */
export const SORT_KEY_REGEX = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)#([^#]{1,128})$/;
export const sortKeyQuery = z.strictObject({
  sortKey: meta(
    z
      .string()
      .check(
        z.maxLength(512),
        z.regex(SORT_KEY_REGEX, 'must be the sortKey returned with the entry, e.g. 2026-01-31T09:00:00.000Z#01JB2Z3Y4X5W6V7T8S9R0Q1P2N (URL-encode # as %23)'),
      ),
    { description: "The entry's sortKey, as returned with it (URL-encode # as %23)", example: EXAMPLE_SORT_KEY },
  ),
});
export const userIdQuery = z.strictObject({ userId: meta(idOf.user, { description: 'The user the favorite belongs to (required with API key authentication)' }) });
export const favoriteListQuery = z.strictObject({ userId: z.optional(idOf.user) });
export const taskListQuery = z.strictObject({ projectId: z.optional(idOf.project) });
/** Filters of the invoice list: status, client, issueDate range (both days inclusive). */
export const invoiceListQuery = z.strictObject({
  status: z.optional(z.enum(INVOICE_STATUSES)),
  clientId: z.optional(idOf.client),
  startDate: meta(z.optional(dateString), { description: 'Invoices issued on or after this date', example: '2026-03-01' }),
  endDate: meta(z.optional(dateString), { description: 'Invoices issued on or before this date', example: '2026-03-31' }),
});

/** POST /v1/time-entries/{id}/stop: the optional body. */
export const stopBody = z.strictObject({
  endTime: meta(z.optional(dateTimeString), { description: 'When the timer stopped (default: now); not before its startTime', example: '2026-03-02T10:30:00.000Z' }),
});
/** POST /v1/favorites/{id}/start: the optional body. */
export const startBody = z.strictObject({ startTime: meta(z.optional(dateTimeString), { description: 'When the timer started (default: now)', example: EXAMPLE_START }) });

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

/** GET /v1/reports/summary: the request and the answer are declared with the engine (shared/domain/reports.ts). */
export { REPORT_GROUPINGS, reportGroup, reportQuery, reportSubGroup, summaryReportSchema as summaryReport, type ReportGrouping } from '../domain/reports';
/** Webhooks (shared/domain/entities/webhooks.ts): the signing secret appears in two answers only. */
export const webhookSecretField = meta(z.string().check(z.maxLength(128)), {
  description: 'The signing secret (Standard Webhooks, `whsec_...`): shown in this answer only; store it now. Verify deliveries with it.',
  example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
});
export const webhookCreatedSchema = (item: z.ZodMiniObject) => meta(z.extend(item, { secret: webhookSecretField }), { id: 'WebhookCreated' });
export const webhookSecretSchema = meta(z.object({ id: meta(z.string().check(z.maxLength(128)), { example: EXAMPLE_IDS.webhook }), secret: webhookSecretField }), {
  id: 'WebhookSecret',
});
export const webhookPingSchema = meta(
  z.object({
    id: meta(z.string().check(z.maxLength(64)), { description: 'The event id of the ping (its webhook-id header)', example: 'evt_01JQ7ZR2B4C6D8E0F2G4H6J8K0' }),
    type: z.literal('webhook.ping'),
    queued: z.literal(true),
  }),
  { id: 'WebhookPing' },
);
/** One delivery attempt: declared in shared/domain/webhooks.ts, where the store's type is inferred from it. */
export { webhookAttemptSchema };
