import * as z from 'zod/mini';
import type { AnyEntity } from '../domain/entity';
import { EXAMPLE_CURSOR, EXAMPLE_IDS, EXAMPLE_RECORD_IDS } from '../domain/examples';
import { BASE_FIELDS, booleanParam, idString, inputSchema, isAlwaysPresent, LIMITS, meta, type FieldSpecs } from '../domain/fields';
import { ENTITIES } from '../domain/registry';
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

/** The body of a text answer (the reference page and its script). */
export const textSchema = z.string();

/** Query-string integer for `limit`: digits only, 1..200; no silent clamping (product.md). */
export const limitParam = meta(
  z.optional(
    z.pipe(
      z.pipe(z.string().check(z.regex(/^\d+$/, 'must be an integer from 1 to 200')), z.transform(Number)),
      z.number().check(z.int(), z.gte(1, 'must be an integer from 1 to 200'), z.lte(LIMITS.pageMax, 'must be an integer from 1 to 200')),
    ),
  ),
  // documented as the integer it is (the query string carries its digits), so generated clients take a number
  { description: 'Page size, 1-200 (default 50)', type: 'integer', minimum: 1, maximum: LIMITS.pageMax, example: 50 },
);
export const cursorParam = meta(z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_CURSOR_CHARS))), {
  description: 'The nextCursor of the previous page',
  example: EXAMPLE_CURSOR,
});

/** The `{id}` of a resource's routes: the id with the example of that resource's records. */
export const idParamsFor = (resource: string) => z.strictObject({ id: meta(idString, { example: EXAMPLE_RECORD_IDS[resource] ?? EXAMPLE_IDS.client }) });

export { booleanParam };
