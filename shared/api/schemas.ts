import * as z from 'zod';
import { ERROR_STATUS, type ErrorCode } from './errors';

/**
 * Field-level building blocks and the per-resource schemas. Each resource declares its writable
 * fields once (`defineFields`); the create body, the merge-update body and the response object are
 * derived from that declaration, so the three can never drift apart.
 */
export const LIMITS = { name: 255, notes: 10_000, id: 128, tagIds: 50, pageDefault: 50, pageMax: 200 } as const;

export const idString = z.string().min(1).max(LIMITS.id);
export const nameString = z.string().trim().min(1, 'must not be empty').max(LIMITS.name);
export const notesString = z.string().max(LIMITS.notes);
export const shortText = z.string().trim().max(LIMITS.name);
export const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD');
export const colorString = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'must be a color like #1A2B3C');
export const dateTimeString = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z' });
export const dateString = z.iso.date({ message: 'must be an ISO 8601 date, e.g. 2026-01-31' });
export const timestamp = z.string().meta({ format: 'date-time' });

/** Server-set fields: accepted in a body and ignored (product.md). */
export const READ_ONLY_FIELDS = ['id', 'createdAt', 'updatedAt', 'sortKey', 'durationMinutes'] as const;

export interface FieldSpec {
  schema: z.ZodType;
  /** Required on create. Required fields cannot be cleared with null on update. */
  required?: boolean;
  /** Value stored when the field is absent on create. */
  default?: unknown;
  /** May not be changed once created (sent on update: must equal the stored value). */
  immutable?: boolean;
}
export type FieldSpecs = Record<string, FieldSpec>;

export function createBodySchema(fields: FieldSpecs) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, f] of Object.entries(fields)) shape[name] = f.required ? f.schema : f.schema.optional();
  return z.strictObject(shape);
}

export function updateBodySchema(fields: FieldSpecs) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, f] of Object.entries(fields)) {
    shape[name] = f.required || f.default !== undefined ? f.schema.optional() : f.schema.nullable().optional();
  }
  return z.strictObject(shape);
}

export function responseSchema(fields: FieldSpecs, extra: Record<string, z.ZodType> = {}) {
  const shape: Record<string, z.ZodType> = { id: z.string() };
  for (const [name, f] of Object.entries(fields)) shape[name] = f.required || f.default !== undefined ? f.schema : f.schema.optional();
  return z.object({ ...shape, ...extra, createdAt: timestamp, updatedAt: timestamp });
}

export const listOf = (item: z.ZodType) => z.object({ items: z.array(item) });
export const pageOf = (item: z.ZodType) =>
  z.object({
    items: z.array(item),
    nextCursor: z.string().optional().meta({ description: 'Opaque cursor for the next page; present when hasMore is true' }),
    hasMore: z.boolean(),
  });

export const deletedSchema = z
  .object({ deleted: z.literal(true), id: z.string() })
  .meta({ id: 'Deleted', example: { deleted: true, id: '01JB2Z3Y4X5W6V7T8S9R0Q1P2N' } });

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

// ---------------------------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------------------------

export const clientFields = {
  name: { schema: nameString, required: true },
  email: { schema: z.email().max(LIMITS.name) },
  address: { schema: z.string().trim().max(1000) },
  currency: { schema: currencyCode },
  notes: { schema: notesString },
  archived: { schema: z.boolean(), default: false },
} satisfies FieldSpecs;

export const projectFields = {
  name: { schema: nameString, required: true },
  clientId: { schema: idString },
  color: { schema: colorString },
  billable: { schema: z.boolean(), default: true },
  hourlyRate: { schema: z.number().min(0).max(1_000_000) },
  currency: { schema: currencyCode },
  archived: { schema: z.boolean(), default: false },
  notes: { schema: notesString },
} satisfies FieldSpecs;

export const taskFields = {
  // Immutable: time entries and favorites naming the task carry its projectId ("taskId must belong to
  // the project"); moving the task would silently break that for them. Create a task in the other project.
  projectId: { schema: idString, required: true, immutable: true },
  name: { schema: nameString, required: true },
  status: { schema: z.enum(['active', 'done']), default: 'active' },
  estimateMinutes: { schema: z.number().int().min(0).max(10_000_000) },
  billable: { schema: z.boolean() },
} satisfies FieldSpecs;

export const tagFields = {
  name: { schema: nameString, required: true },
  archived: { schema: z.boolean(), default: false },
} satisfies FieldSpecs;

export const tagIdsSchema = z
  .array(idString)
  .max(LIMITS.tagIds, `at most ${LIMITS.tagIds} tags`)
  .refine((ids) => new Set(ids).size === ids.length, 'tag ids must be unique');

export const timeEntryFields = {
  userId: { schema: idString, required: true },
  name: { schema: z.string().trim().max(LIMITS.name) },
  projectId: { schema: idString },
  clientId: { schema: idString },
  taskId: { schema: idString },
  startTime: { schema: dateTimeString, required: true },
  endTime: { schema: dateTimeString },
  notes: { schema: notesString },
  billable: { schema: z.boolean(), default: false },
  tagIds: { schema: tagIdsSchema },
} satisfies FieldSpecs;

export const favoriteFields = {
  userId: { schema: idString, required: true, immutable: true },
  name: { schema: nameString, required: true },
  projectId: { schema: idString },
  clientId: { schema: idString },
  taskId: { schema: idString },
  tagIds: { schema: tagIdsSchema },
  billable: { schema: z.boolean() },
  notes: { schema: notesString },
} satisfies FieldSpecs;

export const INVOICE_STATUSES = ['draft', 'sent', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

const money = z.number().min(0).max(1_000_000_000);
export const lineItemSchema = z.strictObject({
  description: z.string().trim().min(1).max(1000),
  quantity: z.number().positive().max(1_000_000),
  unitPrice: money,
  amount: money,
});

/** What an invoice stores (validated on every write, like the API's resources). */
export const invoiceFields = {
  number: { schema: z.string().trim().min(1).max(64), required: true },
  clientId: { schema: idString, required: true },
  status: { schema: z.enum(INVOICE_STATUSES), required: true },
  issueDate: { schema: dateString, required: true },
  dueDate: { schema: dateString, required: true },
  currency: { schema: currencyCode, required: true },
  lineItems: { schema: z.array(lineItemSchema).min(1).max(200), required: true },
  subtotal: { schema: money, required: true },
  tax: { schema: money, required: true },
  total: { schema: money, required: true },
  notes: { schema: notesString },
} satisfies FieldSpecs;


export const invoiceSchema = responseSchema(invoiceFields).meta({ id: 'Invoice' });
export const clientSchema = responseSchema(clientFields).meta({ id: 'Client' });
export const projectSchema = responseSchema(projectFields).meta({ id: 'Project' });
export const taskSchema = responseSchema(taskFields).meta({ id: 'Task' });
export const tagSchema = responseSchema(tagFields).meta({ id: 'Tag' });
export const favoriteSchema = responseSchema(favoriteFields).meta({ id: 'Favorite' });
export const timeEntrySchema = responseSchema(timeEntryFields, {
  sortKey: z.string().meta({ description: 'Composite sort key; pass it as the sortKey query parameter to get, update or delete this entry' }),
  durationMinutes: z.number().optional().meta({ description: 'Computed by the server from startTime and endTime; absent while the timer runs' }),
}).meta({ id: 'TimeEntry' });

export const timeEntryListQuery = z.strictObject({
  limit: limitParam,
  cursor: cursorParam,
  startDate: z.union([dateTimeString, dateString]).optional().meta({ description: 'Entries starting at or after this date (inclusive)' }),
  endDate: z.union([dateTimeString, dateString]).optional().meta({ description: 'Entries starting at or before this date (inclusive; a date alone covers the whole day)' }),
  userId: idString.optional(),
  projectId: idString.optional(),
  clientId: idString.optional(),
});
/** A time entry's sortKey: `<startTime, UTC, ms>#<id>` (shared/entities/time-entries.ts). */
export const SORT_KEY_REGEX = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)#([^#]{1,128})$/;
export const sortKeyQuery = z.strictObject({
  sortKey: z
    .string()
    .max(512)
    .regex(SORT_KEY_REGEX, 'must be the sortKey returned with the entry, e.g. 2026-01-31T09:00:00.000Z#01JB2Z3Y4X5W6V7T8S9R0Q1P2N (URL-encode # as %23)')
    .meta({ description: 'The entry\'s sortKey, as returned with it (URL-encode # as %23)' }),
});
export const userIdQuery = z.strictObject({ userId: idString.meta({ description: 'The user the favorite belongs to (required with API key authentication)' }) });
export const favoriteListQuery = z.strictObject({ userId: idString.optional() });
export const taskListQuery = z.strictObject({ projectId: idString.optional() });
export const invoiceListQuery = z.strictObject({ limit: limitParam, cursor: cursorParam });
