import type { z } from 'zod';
import { validationError, type ErrorDetail } from '../errors';
import { READ_ONLY_FIELDS } from '../schemas';

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
  const details = issuesToDetails(res.error.issues, where === 'body' ? undefined : where === 'query' ? undefined : undefined);
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
