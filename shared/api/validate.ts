import type { z } from 'zod';
import { validationError, type ErrorDetail } from './errors';
import { READ_ONLY_FIELDS } from './schemas';

/** zod issues → the spec's error details ({ field, message }), fields named by dotted path. */
export function issuesToDetails(issues: z.core.$ZodIssue[], prefix?: string): ErrorDetail[] {
  return issues.map((i) => {
    const path = i.path.map(String).join('.');
    let message = i.message;
    if (i.code === 'unrecognized_keys') message = `unknown field(s): ${i.keys.join(', ')}`;
    const field = i.code === 'unrecognized_keys' ? [path, ...i.keys].filter(Boolean).join('.') : path;
    return { field: [prefix, field].filter(Boolean).join('.') || (prefix ?? 'body'), message };
  });
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: 'path' | 'query' | 'body'): z.output<S> {
  const res = schema.safeParse(value);
  if (res.success) return res.data;
  const details = issuesToDetails(res.error.issues);
  const summary = details.map((d) => `${d.field}: ${d.message}`).join('; ');
  throw validationError(`Invalid ${where === 'path' ? 'path parameter' : where === 'query' ? 'query parameter' : 'request body'}: ${summary}`, details);
}

/** Read-only fields (id, createdAt, ...) sent in a body are ignored (product.md). */
export function withoutReadOnly(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const f of READ_ONLY_FIELDS) delete copy[f];
  return copy;
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
    const summary = details.map((d) => `${d.field}: ${d.message}`).join('; ');
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
    for (const k of Object.keys(v)) collectUnstorable((v as Record<string, unknown>)[k], path ? `${path}.${k}` : k, where, details);
  }
}
