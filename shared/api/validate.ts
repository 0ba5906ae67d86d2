import type { z } from 'zod/mini';
import { validationError, type ErrorDetail } from './errors';
import { READ_ONLY_FIELDS } from './schemas';

/**
 * zod issues → the spec's error details ({ field, message }), fields named by dotted path; one detail per
 * field (the first problem found: a value that fails a format and a refinement is one mistake).
 */
export function issuesToDetails(issues: z.core.$ZodIssue[], prefix?: string): ErrorDetail[] {
  const details = issues.map((i) => {
    const path = i.path.map(String).join('.');
    let message = i.message;
    // Missing is missing, whatever message the field's schema has for a wrong value (parsed with reportInput).
    if (i.code === 'invalid_type' && 'input' in i && i.input === undefined) message = 'is required';
    if (i.code === 'unrecognized_keys') message = `unknown field(s): ${i.keys.join(', ')}`;
    const field = i.code === 'unrecognized_keys' ? [path, ...i.keys].filter(Boolean).join('.') : path;
    return { field: [prefix, field].filter(Boolean).join('.') || (prefix ?? 'body'), message };
  });
  return details.filter((d, i) => details.findIndex((e) => e.field === d.field) === i);
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  null: 'null',
};
const FORMATS: Record<string, string> = {
  email: 'an e-mail address',
  datetime: 'an ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z',
  date: 'a date (YYYY-MM-DD), e.g. 2026-01-31',
  url: 'a URL',
  uuid: 'a UUID',
};
const plural = (n: unknown, word: string) => `${String(n)} ${word}${n === 1 ? '' : 's'}`;

/**
 * Plain words for what the validator found, where a schema gives no message of its own (a schema's own
 * message, e.g. "must not be empty", wins): "is required", "must be an integer", "must be at most 255
 * characters long", never zod's "Invalid input: expected string, received undefined".
 */
export function plainIssueMessage(iss: z.core.$ZodRawIssue): string | undefined {
  const i = iss as z.core.$ZodRawIssue & {
    expected?: string;
    origin?: string;
    minimum?: unknown;
    maximum?: unknown;
    inclusive?: boolean;
    format?: string;
    values?: unknown[];
    divisor?: unknown;
    errors?: Array<Array<{ code?: string; message?: string }>>;
  };
  switch (i.code) {
    case 'invalid_type':
      if (i.input === undefined) return 'is required';
      return `must be ${EXPECTED[i.expected ?? ''] ?? `of type ${i.expected}`}`;
    case 'too_small':
      if (i.origin === 'string') return i.minimum === 1 ? 'must not be empty' : `must be at least ${plural(i.minimum, 'character')} long`;
      if (i.origin === 'array' || i.origin === 'set') return `must have at least ${plural(i.minimum, 'item')}`;
      return i.inclusive === false ? `must be greater than ${String(i.minimum)}` : `must be at least ${String(i.minimum)}`;
    case 'too_big':
      if (i.origin === 'string') return `must be at most ${plural(i.maximum, 'character')} long`;
      if (i.origin === 'array' || i.origin === 'set') return `must have at most ${plural(i.maximum, 'item')}`;
      return i.inclusive === false ? `must be less than ${String(i.maximum)}` : `must be at most ${String(i.maximum)}`;
    case 'invalid_value': {
      const values = (i.values ?? []).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
      return values.length === 1 ? `must be ${values[0]}` : `must be one of: ${values.join(', ')}`;
    }
    case 'invalid_format':
      return i.format && FORMATS[i.format] ? `must be ${FORMATS[i.format]}` : 'has an invalid format';
    case 'not_multiple_of':
      return `must be a multiple of ${String(i.divisor)}`;
    case 'invalid_union': {
      // a branch whose format matched but whose own rule refused (a date outside the accepted range) says why
      const own = (i.errors ?? []).flat().find((e) => e.code === 'custom' && e.message);
      return own?.message ?? 'has an invalid value';
    }
    default:
      return undefined;
  }
}

/** "sortKey is required"; "name: unknown field(s): x" where the message is not a predicate. */
const sentence = (d: ErrorDetail) => (/^(is|must|has) /.test(d.message) ? `${d.field} ${d.message}` : `${d.field}: ${d.message}`);

export function parseWith<S extends z.ZodMiniType>(schema: S, value: unknown, where: 'path' | 'query' | 'body'): z.output<S> {
  const res = schema.safeParse(value, { error: plainIssueMessage, reportInput: true });
  if (res.success) return res.data;
  const details = issuesToDetails(res.error.issues);
  const summary = details.map(sentence).join('; ');
  throw validationError(`Invalid ${where === 'path' ? 'path parameter' : where === 'query' ? 'query parameter' : 'request body'}: ${summary}`, details);
}

/** Read-only fields (id, createdAt, ...) sent in a body are ignored (product.md). */
export function withoutReadOnly(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const readOnly: ReadonlySet<string> = new Set(READ_ONLY_FIELDS);
  return Object.fromEntries(Object.entries(body).filter(([f]) => !readOnly.has(f)));
}

/** A UTF-16 surrogate without its pair: not Unicode text, and not storable (DynamoDB strings are UTF-8). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** DynamoDB numbers: magnitude 1e-130 to below 1e126 (or 0). */
const storableNumber = (n: number) => n === 0 || (Number.isFinite(n) && Math.abs(n) >= 1e-130 && Math.abs(n) < 1e126);

/**
 * Values that passed the schema but cannot be stored or used in a key: strings with lone surrogates
 * (JSON can carry them as \ud800 escapes) and numbers outside DynamoDB's range (e.g. 5e-324). Refused
 * as a 400 naming the field, for every route, instead of failing in DynamoDB (500).
 */
export function assertStorable(value: unknown, where: 'path' | 'query' | 'body'): void {
  const details: ErrorDetail[] = [];
  collectUnstorable(value, '', where, details);
  if (details.length) {
    const summary = details.map(sentence).join('; ');
    throw validationError(`Invalid ${where === 'path' ? 'path parameter' : where === 'query' ? 'query parameter' : 'request body'}: ${summary}`, details);
  }
}

/** Walks a value depth first, adding a detail for each unstorable string or number (path: dotted field). */
function collectUnstorable(v: unknown, path: string, where: string, details: ErrorDetail[]): void {
  if (typeof v === 'string') {
    if (LONE_SURROGATE.test(v)) details.push({ field: path || where, message: 'must be valid Unicode text (contains a lone surrogate)' });
  } else if (typeof v === 'number') {
    if (!storableNumber(v)) details.push({ field: path || where, message: 'must be 0 or a number from 1e-130 to 1e125 in magnitude' });
  } else if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) collectUnstorable(v[i], path ? `${path}.${i}` : String(i), where, details);
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) collectUnstorable(x, path ? `${path}.${k}` : k, where, details);
  }
}
