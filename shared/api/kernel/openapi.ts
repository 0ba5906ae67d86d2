import * as z from 'zod/mini';
import type { KernelRoute } from './route';

/**
 * THE OpenAPI 3.0 builder of the kernel, producing both documents: the API's (GET /v1/openapi.json,
 * shared/api/openapi.ts) and the console's (GET /console/api/openapi.json, shared/console/openapi.ts). It
 * turns a route table into paths (one operation per route, under its template and method), its zod schemas
 * into JSON schemas (named ones, `meta(schema, { id })`, become components), and its path and query schemas
 * into parameters. What a document says beyond that (its info, security scheme, error responses, headers)
 * is its profile: `operation` and `wrap` of `buildDocument`.
 */
/** A JSON value, as a document holds it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | Json;
/** A JSON object of a document (an operation, a schema, a header, ...); an undefined member is left out when serialized. */
export type Json = { [key: string]: JsonValue | undefined };

/** `#/definitions/X` (zod's) as `#/components/schemas/X`, everywhere in a schema. */
export function rewriteRefs(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(rewriteRefs);
  if (v && typeof v === 'object') {
    const o: Json = {};
    for (const [k, val] of Object.entries(v)) {
      if (val !== undefined) o[k] = k === '$ref' && typeof val === 'string' ? val.replace('#/definitions/', '#/components/schemas/') : rewriteRefs(val);
    }
    return o;
  }
  return v;
}

/**
 * The component schemas of a document, collected as its operations name them. `transform` rewrites every
 * JSON schema made (the API's: integer formats, date examples).
 */
export class Components {
  readonly schemas: Record<string, Json> = {};
  constructor(private readonly transform: (schema: JsonValue) => JsonValue = (schema) => schema) {}

  /** A zod schema as JSON schema: a `$ref` to its component when it has an id, else inline. */
  schema(schema: z.ZodMiniType, io: 'input' | 'output'): Json {
    const out = this.transform(z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as Json) as Json;
    const defs = (out.definitions ?? {}) as Record<string, Json>;
    delete out.definitions;
    delete out.$schema;
    for (const [id, def] of Object.entries(defs)) this.schemas[id] ??= rewriteRefs(this.transform(def)) as Json;
    const id = z.globalRegistry.get(schema)?.id;
    if (id) {
      this.schemas[id] ??= rewriteRefs(out) as Json;
      return { $ref: `#/components/schemas/${id}` };
    }
    return rewriteRefs(out) as Json;
  }

  /**
   * The parameters of a path or query schema, one per property (a path parameter is always required).
   * `described`: a property's description goes on the parameter, not its schema, and a query-string
   * integer loses its digits pattern (the API's document); else the schema is as made (the console's).
   */
  parameters(schema: z.ZodMiniObject | undefined, where: 'path' | 'query', described: boolean): Json[] {
    if (!schema) return [];
    return Object.entries(schema.shape).map(([name, prop]) => {
      const p = prop as z.ZodMiniType;
      const s = this.schema(p, 'input');
      const required = where === 'path' || !p.safeParse(undefined).success;
      if (!described) return { name, in: where, required, schema: s };
      const description = (s.description as string | undefined) ?? z.globalRegistry.get(p)?.description;
      delete s.description;
      if (s.type === 'integer') delete s.pattern; // the digits pattern of a query-string integer (limitParam)
      return { name, in: where, required, schema: s, ...(description ? { description } : {}) };
    });
  }
}

/**
 * A document: the operation of each route (`operation`, in table order) under `paths[template][method]`,
 * then the document around them (`wrap`: openapi, info, servers, security, tags, components).
 */
export function buildDocument<R extends KernelRoute>(routes: readonly R[], operation: (route: R) => Json, wrap: (paths: Record<string, Json>) => Json): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const r of routes) (paths[r.path] ??= {})[r.method.toLowerCase()] = operation(r);
  return wrap(paths);
}
