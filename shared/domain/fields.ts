import * as z from 'zod/mini';
// the English locale alone (`z.locales.en`, a namespace's member, would bundle all 50 locales: 288 KB)
import { en } from 'zod/locales';

/**
 * Field-level building blocks of the entity declarations (shared/domain/entities/*). A field is a zod
 * schema plus how the record treats it; the API's create body, merge-update body and response object
 * (shared/api/schemas.ts) and the stored record type are all derived from the same declaration.
 */
export const LIMITS = { name: 255, notes: 10_000, id: 128, tagIds: 50, pageDefault: 50, pageMax: 200 } as const;

/**
 * Control characters (NUL, escape, ...) are refused in every string a client sends (issue 22 item 10):
 * single-line strings (ids, names, numbers, descriptions, URLs) take none; multi-line text (notes,
 * addresses) keeps tab, line feed and carriage return.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
export const singleLine = <S extends z.ZodMiniString>(schema: S): S =>
  schema.check(z.refine((v) => !CONTROL.test(v), 'must not contain control characters (tab, line breaks, NUL, ...)'));
export const multiLine = <S extends z.ZodMiniString>(schema: S): S =>
  schema.check(z.refine((v) => !CONTROL_BUT_LINES.test(v), 'must not contain control characters other than tab and line breaks'));

/**
 * zod's English issue messages ("Too small: expected string to have >=1 characters"), for the parses
 * that pass an issue's message on as it is (the invoicing service, the invoice seed): classic zod loaded
 * them by default, zod/mini loads no locale ("Invalid input" for everything). The API's own 400s word
 * issues themselves (shared/api/validate.ts plainIssueMessage).
 */
export const englishIssue: z.core.$ZodErrorMap = (iss) => en().localeError(iss);

/**
 * OpenAPI metadata of a schema (examples, descriptions, ids): a copy of the schema with `meta` in zod's
 * global registry, whose parent's metadata it inherits (what classic zod's `.meta()` does; the functions
 * bundle `zod/mini`, which has no `.meta()` method).
 */
export function meta<S extends z.ZodMiniType>(schema: S, data: z.core.GlobalMeta): S {
  const copy = schema.clone();
  z.globalRegistry.add(copy, data);
  return copy;
}

export const idString = singleLine(z.string().check(z.minLength(1), z.maxLength(LIMITS.id)));
export const nameString = singleLine(z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(LIMITS.name)));
export const notesString = multiLine(z.string().check(z.maxLength(LIMITS.notes)));
export const currencyCode = z.string().check(z.maxLength(3), z.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD'));
export const colorString = z.string().check(z.maxLength(7), z.regex(/^#[0-9A-Fa-f]{6}$/, 'must be a color like #1A2B3C'));
/** Longest ISO 8601 date-time taken: nanoseconds and an offset fit in 35 characters. */
const MAX_DATE_TIME_CHARS = 40;
/**
 * Every date and date-time the API accepts lies in [DATE_MIN, DATE_MAX] (UTC; issue 22 item 7): years
 * 0000-0099 broke the report's date arithmetic (`Date.UTC` maps them to 1900-1999), and the day after
 * 9999-12-31 has no four-digit year. Within the range every route works (property-tested with the report).
 */
export const DATE_MIN = '1970-01-01';
export const DATE_MAX = '9998-12-31';
const DATE_RANGE_MESSAGE = `must be between ${DATE_MIN} and ${DATE_MAX} (UTC)`;
const instantOf = (v: string) => Date.parse(v.length === 10 ? `${v}T00:00:00.000Z` : v);
const inDateRange = (v: string) => {
  const t = instantOf(v);
  return t >= Date.parse(`${DATE_MIN}T00:00:00.000Z`) && t <= Date.parse(`${DATE_MAX}T23:59:59.999Z`);
};
export const dateTimeString = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z' })
  .check(z.maxLength(MAX_DATE_TIME_CHARS, `must be an ISO 8601 date-time of at most ${MAX_DATE_TIME_CHARS} characters`), z.refine(inDateRange, DATE_RANGE_MESSAGE));
export const dateString = z.iso
  .date({ message: 'must be a date (YYYY-MM-DD), e.g. 2026-01-31' })
  .check(z.maxLength(10, 'must be a date (YYYY-MM-DD), e.g. 2026-01-31'), z.refine(inDateRange, DATE_RANGE_MESSAGE));
/** A day or an instant (range filters): the message names both formats. */
export const dateOrDateTime = z.union([dateTimeString, dateString], {
  error: 'must be a date (YYYY-MM-DD) or a date-time (ISO 8601), e.g. 2026-01-31 or 2026-01-31T09:00:00Z',
});
/** A boolean in the query string: exactly `true` or `false`. */
export const booleanParam = z.enum(['true', 'false'], { message: 'must be true or false' });
export const timestamp = meta(z.string().check(z.maxLength(MAX_DATE_TIME_CHARS)), { format: 'date-time' });
export const money = z.number().check(z.gte(0), z.lte(1_000_000_000));

export const tagIdsSchema = z.array(idString).check(
  z.maxLength(LIMITS.tagIds, `at most ${LIMITS.tagIds} tags`),
  z.refine((ids) => new Set(ids).size === ids.length, 'tag ids must be unique'),
);

export interface FieldSpec<S extends z.ZodMiniType = z.ZodMiniType> {
  schema: S;
  /** Required on create. Required fields cannot be cleared with null on update. */
  required?: boolean;
  /** Value stored when the field is absent on create. */
  default?: unknown;
  /** May not be changed once created (sent on update: must equal the stored value). */
  immutable?: boolean;
  /**
   * The stored value can go into a storage key as it is: it never holds `#` or `%` (an instant normalized
   * to UTC, an ISO date). Other values in keys are escaped (shared/data/keys.ts).
   */
  keySafe?: boolean;
}
export type FieldSpecs = Record<string, FieldSpec>;

/** Server-set fields of every record. */
export const BASE_FIELDS = { id: z.string().check(z.maxLength(LIMITS.id)), createdAt: timestamp, updatedAt: timestamp } as const;

/** A field present on every record: required, or filled by its default. */
type Always<F extends FieldSpec> = F extends { required: true } ? true : F extends { default: NonNullable<unknown> } ? true : false;
/** The zod shape of a record of fields F: required and defaulted fields always present, the rest optional. */
export type RecordShape<F extends FieldSpecs> = typeof BASE_FIELDS & {
  [K in keyof F]: Always<F[K]> extends true ? F[K]['schema'] : z.ZodMiniOptional<F[K]['schema']>;
};
/** The stored record of fields F, as the API shows it (before extra response fields such as sortKey). */
export type RecordOf<F extends FieldSpecs> = z.output<z.ZodMiniObject<RecordShape<F>>>;

export const isAlwaysPresent = (f: FieldSpec) => Boolean(f.required) || f.default !== undefined;

/** The zod shape of an update body for fields F (every field optional; null clears one not always present). */
export type UpdateShape<F extends FieldSpecs> = {
  [K in keyof F]: z.ZodMiniOptional<Always<F[K]> extends true ? F[K]['schema'] : z.ZodMiniNullable<F[K]['schema']>>;
};
/** What an update may send for fields F: the input of the update body schema (shared/api/schemas.ts). */
export type UpdateInput<F extends FieldSpecs> = z.input<z.ZodMiniObject<UpdateShape<F>>>;

/** The zod shape of a create body for fields F: required fields required, the rest optional. */
export type CreateShape<F extends FieldSpecs> = {
  [K in keyof F]: F[K] extends { required: true } ? F[K]['schema'] : z.ZodMiniOptional<F[K]['schema']>;
};
/** What a create may send for fields F: the input of the create body schema (`inputSchema`). */
export type CreateInput<F extends FieldSpecs> = z.input<z.ZodMiniObject<CreateShape<F>>>;

/** The fields a new record is made of: required ones required, the rest optional; unknown fields refused. */
export function inputSchema<F extends FieldSpecs>(fields: F): z.ZodMiniObject<CreateShape<F>, z.core.$strict> {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const [name, f] of Object.entries(fields)) shape[name] = f.required ? f.schema : z.optional(f.schema);
  // The shape built above, field by field, is CreateShape<F>.
  return z.strictObject(shape) as z.ZodMiniObject<CreateShape<F>, z.core.$strict>;
}

/** The fields `names` of a record that it holds (absent ones left out), typed as the record's. */
export function pickFields<T extends object, K extends keyof T & string>(rec: T, names: readonly K[]): Pick<T, K> {
  const held = names.filter((name) => rec[name] !== undefined);
  // Only keys of `names` are copied, each with the record's own value.
  return Object.fromEntries(held.map((name) => [name, rec[name]])) as Pick<T, K>;
}
