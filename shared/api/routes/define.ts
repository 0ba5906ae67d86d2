import * as z from 'zod/mini';
import type { Scope } from '../../domain/auth';
import { WHOLE_LIST_MAX_BYTES, type AnyEntity } from '../../domain/entity';
import type { CreateInput, UpdateInput } from '../../domain/fields';
import type { ResourceName } from '../../domain/registry';
import type { KeyAccess, RouteDecl } from '../kernel/route';
import * as s from '../schemas';

/**
 * How the route table (shared/api/routes.ts) is declared: a route's fields, the five routes of an entity
 * (`crudRoutes`), schemas built when first read (`later`), and a function's own routes as the kernel takes
 * them (`routeListOf`). The routes themselves are declared per function in this folder
 * (shared/api/routes/<function>.ts) so that a function's bundle carries only its own routes' schemas and
 * handlers; shared/api/routes.ts assembles them into the one table (CDK, local gateway, OpenAPI, tests).
 */
/**
 * The Lambdas: one per resource, `openapi` (the document and its reference page, public), `me` (the calling
 * key), `changes` (the change feed) and `reports` (the summary report).
 */
export type FunctionName = ResourceName | 'openapi' | 'me' | 'changes' | 'reports';

/**
 * The scope of a route any valid key may call (GET /v1/me, GET /v1/changes): authenticated and
 * rate-limited, no scope checked (what the change feed answers still depends on the key's read scopes).
 */
export const ANY_KEY = 'any-key' as const;
export type RouteScope = Scope | typeof ANY_KEY | null;
/** Routes answered with text rather than JSON (the reference page and its script). */
export type TextContentType = 'text/html; charset=utf-8' | 'text/javascript; charset=utf-8' | 'text/csv; charset=utf-8';

export const SECRET_NOT_KEPT =
  'Idempotency-Key is not accepted here: the answer carries a secret, which the server never keeps; list the webhooks to see whether a lost request took effect';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** What an entity route does with its entity (shared/api/crud.ts implements each once). */
export type Operation = 'list' | 'create' | 'get' | 'update' | 'delete';

/**
 * An API route: the kernel's declaration (shared/api/kernel/route.ts: method, path, summary, schemas, status,
 * conflict, notImplemented) plus what the API says besides. Its `access` is derived from `scope` and
 * `alsoScopes` when the table is built (`routeList`).
 */
export interface RouteDef extends RouteDecl {
  method: HttpMethod;
  /** API Gateway style template, e.g. /v1/clients/{id}. */
  path: string;
  /** Which Lambda serves it. */
  resource: FunctionName;
  /** Required scope; ANY_KEY for a route any valid key may call; null for a public route (no key). */
  scope: RouteScope;
  /** Scopes needed besides `scope`, checked after it and before any work (a route that reads another resource). */
  alsoScopes?: readonly Scope[];
  /**
   * Also answers `Accept: text/csv` with RFC 4180 CSV (shared/api/csv.ts). The document declares only JSON
   * here, so a generated client's call is typed as JSON alone; the CSV is described by the route whose
   * `csvOf` names this one (GET /v1/time-entries.csv), and `x-csv-operation` links the two.
   */
  csv?: boolean;
  /** This route is the CSV form of that JSON route: the same input, scope and implementation, always CSV. */
  csvOf?: string;
  /** The answer is this text type, not JSON (the implementation returns the text). */
  produces?: TextContentType;
  /** Also answered with a trailing slash (a page: GET /v1/docs/). */
  trailingSlash?: boolean;
  /** Its cursor expires (410 CURSOR_EXPIRED): the change feed's. */
  expiringCursor?: boolean;
  /** Refuses Idempotency-Key (400), saying why: its answer carries a secret, which is never kept. */
  noIdempotency?: string;
  /** The kind named in NOT_FOUND messages of id routes. */
  kind?: string;
  /** A single-resource answer carrying the record's ETag header. */
  etag?: boolean;
  /** Conditional requests: If-None-Match on a read (304), If-Match on a write (412). */
  conditional?: 'read' | 'write';
  /**
   * The entity a route works on, and which of its five operations it is (shared/api/crud.ts implements
   * them for every entity); a route with an entity and no operation is bound by its function's overrides.
   */
  entity?: AnyEntity;
  operation?: Operation;
  /** The entity a 201 made when it is not the route's own (starting a timer from a favorite makes a time entry). */
  creates?: AnyEntity;
  /** May answer 202 with this body: the work goes on after the answer (an invoice's delete releasing its entries). */
  accepted?: { schema: z.ZodMiniType; description: string };
}

/**
 * Schemas built when first read. A route's schema fields made with `later` become, once the route passes
 * through `lazyRoute`, properties that build the schema the first time they are read and keep it: a
 * function builds only the schemas of the routes its requests reach (and the OpenAPI document all of
 * them), nothing at import. Reading a field is the same as before; spreading a route builds its schemas.
 */
const LATER = Symbol('built when first read');
export function later<T>(make: () => T): T {
  return { [LATER]: make } as unknown as T;
}
let built = 0;
/** How many schemas `later` and `once` have built so far in this process (test/api/lazy-routes.test.ts). */
export const lazySchemasBuilt = () => built;
/** `make`, run once. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= (built++, { value: make() })).value;
}
export function lazyRoute<R extends object>(route: R): R {
  // the descriptors, not the values: reading a field already made lazy would build it
  for (const [name, { value }] of Object.entries(Object.getOwnPropertyDescriptors(route))) {
    const make = (value as { [LATER]?: () => unknown } | null | undefined)?.[LATER];
    if (make) Object.defineProperty(route, name, { enumerable: true, configurable: true, get: once(make) });
  }
  return route;
}

/** "time-entries" -> "TimeEntries", "Time entry" -> "TimeEntry" (route ids, at the type level too). */
type Pascal<S extends string> = S extends `${infer A}-${infer B}`
  ? `${Capitalize<A>}${Pascal<B>}`
  : S extends `${infer A} ${infer B}`
    ? `${Capitalize<A>}${Pascal<B>}`
    : Capitalize<S>;
/**
 * Route ids are the OpenAPI operation ids, and generated clients turn them into function names. An id a
 * client generator exports itself is avoided: hey-api's SDK exports its `createClient` factory, so the
 * create route of the `Client` kind is `addClient` (every other create stays `create<Kind>`).
 * test/contract/hey-api-client.test.ts checks every id and schema name against the generator's exports.
 */
export const RESERVED_OPERATION_IDS = ['createClient', 'createConfig'] as const;
type CreateId<Kind extends string> = `create${Pascal<Kind>}` extends (typeof RESERVED_OPERATION_IDS)[number] ? `add${Pascal<Kind>}` : `create${Pascal<Kind>}`;
const createId = (kind: string) => {
  const id = `create${pascal(kind)}`;
  return (RESERVED_OPERATION_IDS as readonly string[]).includes(id) ? `add${pascal(kind)}` : id;
};

/**
 * An entity route as its handler sees it: which entity and operation, and the schemas of what it takes
 * (`In`: params, query, body), typed from the entity's declaration, so that `InputOf` (the validated input
 * a handler receives) is typed too.
 */
export type EntityRoute<E extends AnyEntity, Op extends Operation, In extends Pick<RouteDef, 'params' | 'query' | 'body'> = Record<never, never>> = Omit<
  RouteDef,
  'entity' | 'operation' | keyof In
> & { entity: E; operation: Op } & In;
/** A route declared but not offered (501): it takes nothing. */
type NotOfferedRoute<E extends AnyEntity> = Omit<RouteDef, 'entity' | 'operation' | 'body'> & { entity: E; operation?: undefined; notImplemented: string };
/** The `{id}` of an id route. */
type IdParams = ReturnType<typeof s.idParamsFor>;
/** The shape of the filters an options object declares (none: no filters). */
type FilterShape<O extends CrudOptions> = O extends { listQuery: z.ZodMiniObject<infer S> } ? S : Record<never, never>;
/**
 * The query of a list: its filters (`listQuery`) and the paging parameters. (A whole list's schema has no
 * `limit` or `cursor`, which its type, not knowing the list's mode, leaves optional.)
 */
type ListQuery<O extends CrudOptions> = z.ZodMiniObject<{ limit: typeof s.limitParam; cursor: typeof s.cursorParam } & FilterShape<O>, z.core.$strict>;
/** The query of an id route: what addresses a record besides its id (a time entry's sortKey, a favorite's userId). */
type IdQuery<O extends CrudOptions> = O extends { idQuery: infer Q extends z.ZodMiniObject } ? { params: IdParams; query: Q } : { params: IdParams };
/** The five routes of an entity, by id, each typed from the entity's declaration and its options. */
export type CrudRoutes<E extends AnyEntity, O extends CrudOptions = Record<never, never>> = {
  [K in `list${Pascal<E['resource']>}`]: EntityRoute<E, 'list', { query: ListQuery<O> }>;
} & {
  [K in CreateId<E['kind']>]: O extends { notOffered: { create: object } } ? NotOfferedRoute<E> : EntityRoute<E, 'create', { body: z.ZodMiniType<CreateInput<E['fields']>> }>;
} & {
  [K in `get${Pascal<E['kind']>}`]: EntityRoute<E, 'get', IdQuery<O>>;
} & {
  [K in `update${Pascal<E['kind']>}`]: O extends { notOffered: { update: object } }
    ? NotOfferedRoute<E>
    : EntityRoute<E, 'update', IdQuery<O> & { body: z.ZodMiniType<UpdateInput<E['fields']>> }>;
} & {
  [K in `delete${Pascal<E['kind']>}`]: EntityRoute<E, 'delete', IdQuery<O>>;
};

export interface CrudOptions {
  /** Query parameters of the list route (filters); paged lists add limit and cursor themselves. */
  listQuery?: z.ZodMiniObject;
  /** Query parameters that, with the id, address one record (a time entry's sortKey, a favorite's userId). */
  idQuery?: z.ZodMiniObject;
  listSummary?: string;
  updateSummary?: string;
  deleteSummary?: string;
  /** The delete may answer 202 with this body (the invoice's release in steps, issue 32). */
  deleteAccepted?: { schema: z.ZodMiniType; description: string };
  /** The list also answers `Accept: text/csv` (the next page's cursor in the Next-Cursor header). */
  listCsv?: boolean;
  /** The create answer, when it shows more than the record (a webhook's secret). */
  createResponse?: (item: z.ZodMiniObject) => z.ZodMiniType;
  /** The create route refuses Idempotency-Key, for this reason. */
  createNoIdempotency?: string;
  /** Operations declared but not offered (501): the summary in the document, the message of the 501. */
  notOffered?: Partial<Record<'create' | 'update', { summary: string; message: string }>>;
}

/** The five routes of a resource, derived from its entity declaration. */
export function crudRoutes<const E extends AnyEntity, const O extends CrudOptions = Record<never, never>>(entity: E, given?: O): CrudRoutes<E, O> {
  const { resource, kind } = entity;
  const base = `/v1/${resource}`;
  const read = `${resource}:read` as Scope;
  const write = `${resource}:write` as Scope;
  const lower = kind.toLowerCase();
  const a = /^[aeiou]/.test(lower) ? `an ${lower}` : `a ${lower}`;
  // every schema below is built the first time a request (or the document) reads it: none at import
  const item = once(() => s.responseSchema(entity));
  const params = later(() => s.idParamsFor(resource));
  const opts: CrudOptions = given ?? {};
  const idq = opts.idQuery ? { query: opts.idQuery } : {};
  const paged = entity.list.mode === 'paged';
  const bound = entity.list.bound;
  const boundNote = bound
    ? `Bounded, so the whole list always fits one answer: ${bound.per ? `one ${bound.per === 'userId' ? 'user' : bound.per}` : 'a workspace'} may hold at most ${bound.maxRecords} ${resource} (the default; the operator's \`${bound.env}\` may set another), weighing at most ${WHOLE_LIST_MAX_BYTES / 1_000_000} MB together as JSON (\`MAX_LIST_BYTES\`); a create or growing update past either is 409 CONFLICT naming the limit.`
    : undefined;
  const common = { resource: resource as FunctionName, entity };
  const listQuery = paged ? later(() => z.strictObject({ limit: s.limitParam, cursor: s.cursorParam, ...opts.listQuery?.shape })) : opts.listQuery;
  const ids = {
    list: `list${pascal(resource)}`,
    create: createId(kind),
    get: `get${pascal(kind)}`,
    update: `update${pascal(kind)}`,
    delete: `delete${pascal(kind)}`,
  };
  const routes: Record<string, RouteDef> = {
    [ids.list]: {
      ...common,
      operation: 'list',
      method: 'GET',
      path: base,
      scope: read,
      summary: opts.listSummary ?? `List ${resource}`,
      ...(boundNote ? { description: boundNote } : {}),
      ...(listQuery ? { query: listQuery } : {}),
      response: later(() => (paged ? s.pageOf(item()) : s.listOf(item()))),
      ...(opts.listCsv ? { csv: true } : {}),
      successStatus: 200,
    },
    [ids.create]: opts.notOffered?.create
      ? {
          ...common,
          method: 'POST',
          path: base,
          scope: write,
          summary: opts.notOffered.create.summary,
          response: later(item),
          successStatus: 201,
          notImplemented: opts.notOffered.create.message,
        }
      : {
          ...common,
          operation: 'create',
          etag: true,
          method: 'POST',
          path: base,
          scope: write,
          summary: `Create ${a}`,
          ...(boundNote ? { description: boundNote } : {}),
          body: later(() => s.createBodySchema(entity.fields)),
          response: later(() => (opts.createResponse ? opts.createResponse(item()) : item())),
          ...(opts.createNoIdempotency ? { noIdempotency: opts.createNoIdempotency } : {}),
          successStatus: 201,
          conflict: true,
          kind,
        },
    [ids.get]: {
      ...common,
      operation: 'get',
      etag: true,
      conditional: 'read',
      method: 'GET',
      path: `${base}/{id}`,
      scope: read,
      summary: `Get ${a}`,
      params,
      ...idq,
      response: later(item),
      successStatus: 200,
      kind,
    },
    [ids.update]: opts.notOffered?.update
      ? {
          ...common,
          method: 'PUT',
          path: `${base}/{id}`,
          scope: write,
          summary: opts.notOffered.update.summary,
          params,
          response: later(item),
          successStatus: 200,
          notImplemented: opts.notOffered.update.message,
        }
      : {
          ...common,
          operation: 'update',
          etag: true,
          conditional: 'write',
          method: 'PUT',
          path: `${base}/{id}`,
          scope: write,
          summary: opts.updateSummary ?? `Update ${a} (fields not sent keep their value; null clears an optional field)`,
          params,
          ...idq,
          body: later(() => s.updateBodySchema(entity.fields)),
          response: later(item),
          successStatus: 200,
          conflict: true,
          kind,
        },
    [ids.delete]: {
      ...common,
      operation: 'delete',
      conditional: 'write',
      method: 'DELETE',
      path: `${base}/{id}`,
      scope: write,
      summary: opts.deleteSummary ?? `Delete ${a}`,
      params,
      ...idq,
      response: s.deletedSchema,
      ...(opts.deleteAccepted ? { accepted: opts.deleteAccepted } : {}),
      successStatus: 200,
      conflict: true,
      kind,
    },
  };
  for (const route of Object.values(routes)) lazyRoute(route);
  // Built by id at run time; each route's schemas are those its type names (createBodySchema: CreateInput, ...).
  return routes as CrudRoutes<E, O>;
}
const pascal = s.pascal;

/** A group of routes (a function's, or a part of one): each route's `later` fields made lazy. */
export function lazyRoutes<G extends Record<string, RouteDef>>(group: G): G {
  for (const route of Object.values(group)) lazyRoute(route);
  return group;
}

/** A route as the kernel takes it: its id and its access (the key's scopes; null: public). */
export type TableRoute<Id extends string = string> = RouteDef & { id: Id; access: KeyAccess | null };
/** The access of an API route: `scope` and `alsoScopes` (none for ANY_KEY), or public. */
export const accessOf = (r: Pick<RouteDef, 'scope' | 'alsoScopes'>): KeyAccess | null =>
  r.scope === null ? null : { scopes: r.scope === ANY_KEY ? [] : [r.scope, ...(r.alsoScopes ?? [])] };
/** Each route of a group with its id and access, its lazy schemas kept lazy (a spread would build them all). */
export function routeListOf<G extends Record<string, RouteDef>>(group: G): Array<TableRoute<keyof G & string>> {
  return Object.keys(group).map((id) => {
    const route = group[id]!;
    return Object.defineProperties({ id, access: accessOf(route) }, Object.getOwnPropertyDescriptors(route)) as TableRoute<keyof G & string>;
  });
}

/** A matcher of concrete paths against a list of templates (the API's table, a function's routes, the console's). */
export function templateMatcher(templates: readonly string[]): (path: string) => { template: string; params: Record<string, string> } | undefined {
  const all = templates.map((template) => ({ template, tparts: template.split('/') }));
  return (path) => {
    const parts = path.split('/');
    for (const { template, tparts } of all) {
      if (tparts.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < tparts.length && ok; i++) {
        const t = tparts[i]!;
        const p = parts[i]!;
        if (t.startsWith('{') && t.endsWith('}')) {
          if (p.length === 0) ok = false;
          else params[t.slice(1, -1)] = p;
        } else if (t !== p) ok = false;
      }
      if (ok) return { template, params };
    }
    return undefined;
  };
}

/** A matcher of concrete paths (/v1/clients/abc) against a list of routes: the template and path parameters; a trailing slash only for the routes that say so (GET /v1/docs/). */
export function pathMatcherOf(list: readonly RouteDef[]): (path: string) => { template: string; params: Record<string, string> } | undefined {
  const match = templateMatcher([...new Set(list.map((r) => r.path))]);
  return (path) => {
    const exact = match(path);
    if (exact || !path.endsWith('/') || path === '/') return exact;
    const bare = match(path.slice(0, -1));
    return bare && list.some((r) => r.path === bare.template && r.trailingSlash) ? bare : undefined;
  };
}
