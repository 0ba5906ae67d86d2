import * as z from 'zod/mini';
import { SCOPES, isScope, type Scope } from '../domain/auth';
import { WHOLE_LIST_MAX_BYTES, type AnyEntity } from '../domain/entity';
import type { CreateInput, UpdateInput } from '../domain/fields';
import { favorites } from '../domain/entities/favorites';
import { timeEntries } from '../domain/entities/time-entries';
import { ENTITIES, RESOURCES, type Entity, type ResourceName } from '../domain/registry';
import { meta } from '../domain/fields';
import type { InputOf, KeyAccess, RouteDecl } from './kernel/route';
import * as s from './schemas';

/**
 * THE route table. Every route of the API is declared here once; the CDK resources and methods, the
 * local gateway, the scope checks, request validation, the OpenAPI document and the route-coverage
 * tests are all derived from it. A resource's five routes, their ids (`listTimeEntries`,
 * `getTimeEntry`, ...), schemas and implementation (shared/api/crud.ts) follow from its entity
 * declaration and its line in the registry (shared/domain/registry.ts); ROUTE_OPTIONS below holds what
 * differs per resource. docs/architecture.md walks through adding one.
 */
export { RESOURCES, SCOPES, isScope, type InputOf, type ResourceName, type Scope };
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

const SECRET_NOT_KEPT =
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
function later<T>(make: () => T): T {
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
function lazyRoute<R extends object>(route: R): R {
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

interface CrudOptions {
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

/**
 * What differs from the plain five routes, per resource; a plain resource needs no line here. Its
 * routes follow from its entity in the registry (shared/domain/registry.ts, ENTITIES).
 */
const ROUTE_OPTIONS = {
  tasks: { listQuery: s.taskListQuery },
  'time-entries': {
    listQuery: s.timeEntryListQuery,
    idQuery: s.sortKeyQuery,
    listSummary: 'List time entries, newest startTime first (paginated); as CSV: GET /v1/time-entries.csv',
    listCsv: true,
    updateSummary: 'Update a time entry (merge); changing startTime moves it and returns a new sortKey',
  },
  favorites: { listQuery: s.favoriteListQuery, idQuery: s.userIdQuery },
  webhooks: {
    listSummary: 'List webhooks, oldest first',
    createResponse: s.webhookCreatedSchema,
    createNoIdempotency: SECRET_NOT_KEPT,
    updateSummary: 'Update a webhook (merge); enabled: true re-enables a disabled one (events from then on are sent)',
  },
  invoices: {
    listQuery: s.invoiceListQuery,
    listSummary: 'List invoices, newest issueDate first (paginated); filters: status, clientId, issueDate range (startDate, endDate)',
    deleteSummary: "Delete a draft or void invoice (sent and paid invoices give 409); 202 while a draft's time entries are being released",
    deleteAccepted: {
      schema: s.invoiceReleasingSchema,
      description:
        "Accepted: the draft's time entries are being released in steps (the invoice says releasing: true meanwhile); the sweep (every minute) ends the release and deletes the invoice",
    },
    notOffered: {
      create: { summary: 'Not offered: invoices are created by the application', message: 'Invoices are created in the application; this API cannot create them' },
      update: { summary: 'Not offered: invoices are changed in the application', message: 'Invoices are changed in the application; this API cannot update them' },
    },
  },
} satisfies { [R in ResourceName]?: CrudOptions };
/** The same, looked up by any resource (a plain one has none). */
const optionsOf: { readonly [R in ResourceName]?: CrudOptions } = ROUTE_OPTIONS;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** The options of a resource (none for a plain one). */
type OptionsOf<R extends string> = R extends keyof typeof ROUTE_OPTIONS ? (typeof ROUTE_OPTIONS)[R] : Record<never, never>;
/** The routes of every entity of the registry, typed by id (`listClients`, ..., `deleteInvoice`). */
type EntityRoutes = UnionToIntersection<Entity extends infer E ? (E extends AnyEntity ? CrudRoutes<E, OptionsOf<E['resource']>> : never) : never>;

/** The file name of the reference page's renderer (Redoc), served by the API itself next to the page. */
export const DOCS_SCRIPT = 'redoc.standalone.js';

const publicRoutes = {
  getOpenApi: {
    method: 'GET',
    path: '/v1/openapi.json',
    resource: 'openapi',
    scope: null,
    summary: 'The OpenAPI 3.0 description of this API (public)',
    description: 'This document, generated from the route table; `servers` names the address the request reached.',
    response: s.openApiDocumentSchema,
    successStatus: 200,
  },
  getApiReference: {
    method: 'GET',
    path: '/v1/docs',
    resource: 'openapi',
    scope: null,
    summary: 'The API reference: an HTML page rendering this document (public)',
    description:
      'Rendered in the browser by Redoc from GET /v1/openapi.json, over an HTML overview of the same document that shows before any script runs; the page, its script and the document all come from this API. Also at /v1/docs/; query parameters (e.g. utm_source) are ignored.',
    // a page link may carry anything (utm_source=...): ignored, never an error
    query: z.object({}),
    trailingSlash: true,
    response: s.textSchema,
    produces: 'text/html; charset=utf-8',
    successStatus: 200,
  },
  getApiReferenceScript: {
    method: 'GET',
    path: `/v1/docs/${DOCS_SCRIPT}`,
    resource: 'openapi',
    scope: null,
    summary: "The reference page's renderer (Redoc), served by the API itself (public)",
    description:
      'The Redoc standalone bundle the reference page loads, as `?v=<version>` (a hash of its content): that URL never changes content, so it is cached a year (`immutable`); without the current `v`, 5 minutes.',
    query: z.strictObject({
      v: meta(z.optional(z.string().check(z.maxLength(64))), { description: 'The version the page names (a hash of the content)', example: '3f9a1c2b7d4e' }),
    }),
    response: s.textSchema,
    produces: 'text/javascript; charset=utf-8',
    successStatus: 200,
  },
} satisfies Record<string, RouteDef>;

/** Routes about the calling key rather than a resource of the workspace. */
const keyRoutes = {
  getMe: {
    method: 'GET',
    path: '/v1/me',
    resource: 'me',
    scope: ANY_KEY,
    summary: 'The calling API key: its id, name, workspace, scopes, limits, expiry, and the quota left in both windows',
    description: 'The key as the API enforces it now (the authorizer answer is cached up to 5 minutes), and its quota after counting this request.',
    response: s.meSchema,
    successStatus: 200,
  },
} satisfies Record<string, RouteDef>;

const feedRoutes = {
  listChanges: {
    method: 'GET',
    path: '/v1/changes',
    resource: 'changes',
    scope: ANY_KEY,
    summary: 'The change feed: every create, update and delete in the workspace, oldest first (paginated)',
    description: [
      'Returns the events of resources the key can read (their `:read` scope); the others are passed over, not refused.',
      "Follow `nextCursor`, which every page carries, the last one too: a poller that always passes the previous page's `nextCursor` sees every committed change exactly once, and the changes of one record in the order they were made.",
      'Without `cursor` or `since` the feed starts at its oldest kept event. Events are kept at least 30 days; an older cursor or `since` is 410 `CURSOR_EXPIRED`.',
    ].join(' '),
    query: s.changesQuery,
    response: s.changesPage,
    expiringCursor: true,
    successStatus: 200,
  },
} satisfies Record<string, RouteDef>;

/** Timers: stop a running time entry; start one from a favorite (served by the time-entries function, bound as its overrides: shared/api/timers.ts). */
const timerRoutes = {
  stopTimeEntry: {
    entity: timeEntries,
    method: 'POST',
    path: '/v1/time-entries/{id}/stop',
    resource: 'time-entries',
    scope: 'time-entries:write',
    summary: 'Stop a running time entry (409 when it is not running)',
    description: "Sets `endTime` (the body's, default now; not before `startTime`) on an entry that has none. The body is optional.",
    params: later(() => s.idParamsFor(timeEntries.resource)),
    // Addressed as the entity's other id routes are.
    query: ROUTE_OPTIONS['time-entries'].idQuery,
    body: s.stopBody,
    bodyOptional: true,
    response: later(() => s.responseSchema(timeEntries)),
    successStatus: 200,
    conflict: true,
    etag: true,
    kind: timeEntries.kind,
  },
  startFavorite: {
    entity: favorites,
    // what its 201 made (the Location header names a time entry, not a favorite)
    creates: timeEntries,
    method: 'POST',
    path: '/v1/favorites/{id}/start',
    resource: 'time-entries',
    scope: 'time-entries:write',
    // It reads the favorite (its name and notes are in the answer; 404 vs 201 tells whether it exists).
    alsoScopes: ['favorites:read'],
    summary: "Start a timer from a favorite: a new running time entry with the favorite's fields",
    description:
      "Creates a running time entry (no `endTime`) for the favorite's user with its name, project, client, task, tags, billable and notes, starting at the body's `startTime` (default now). The user's running entry, if any, is stopped at that instant in the same write (409 when it started later). The body is optional.",
    params: later(() => s.idParamsFor(favorites.resource)),
    query: ROUTE_OPTIONS.favorites.idQuery,
    body: s.startBody,
    bodyOptional: true,
    response: later(() => s.responseSchema(timeEntries)),
    successStatus: 201,
    conflict: true,
    etag: true,
    kind: favorites.kind,
  },
} satisfies Record<string, RouteDef>;

const reportRoutes = {
  getSummaryReport: {
    method: 'GET',
    path: '/v1/reports/summary',
    resource: 'reports',
    scope: 'time-entries:read',
    summary: 'Totals of tracked time over a period, grouped by one or two of user, project, client, task, tag, day, week, month',
    description: [
      'Counts finished time entries whose `startTime` falls in `startDate`..`endDate` (both required, inclusive; a date alone is the whole day, in `timeZone` when given, UTC otherwise). Running entries are left out and counted in `runningEntries`.',
      "`amounts` are billable minutes times the project's `hourlyRate`, per currency (the project's, else its client's; `XXX` when neither has one); entries of projects without a rate add none.",
      'An entry with several tags counts once in each `tag` group; entries without a project, client, task or tag are in the group whose `key` is null.',
      'As CSV: `GET /v1/reports/summary.csv` (or `Accept: text/csv` here).',
    ].join(' '),
    query: s.reportQuery,
    response: s.summaryReport,
    csv: true,
    successStatus: 200,
  },
} satisfies Record<string, RouteDef>;

/**
 * CSV as operations of their own (shared/api/csv.ts): the JSON route's answer as RFC 4180 CSV, whatever
 * the Accept header says. `Accept: text/csv` on the JSON route gives the same CSV.
 */
const CSV_TYPE = 'text/csv; charset=utf-8' as const;
const csvRoutes = {
  listTimeEntriesCsv: {
    entity: timeEntries,
    operation: 'list',
    method: 'GET',
    path: '/v1/time-entries.csv',
    resource: 'time-entries',
    scope: 'time-entries:read',
    summary: 'List time entries as CSV, newest startTime first (paginated: the next cursor in the Next-Cursor header)',
    description:
      'The page of `GET /v1/time-entries` with the same parameters, as RFC 4180 CSV: a header row, then one row per entry (`tagIds` joined with `;`, an absent value empty). The next page: pass the `Next-Cursor` header as `cursor`; no header on the last page.',
    query: later(() => z.strictObject({ limit: s.limitParam, cursor: s.cursorParam, ...s.timeEntryListQuery.shape })),
    response: s.textSchema,
    produces: CSV_TYPE,
    csvOf: 'listTimeEntries',
    successStatus: 200,
  },
  getSummaryReportCsv: {
    method: 'GET',
    path: '/v1/reports/summary.csv',
    resource: 'reports',
    scope: 'time-entries:read',
    summary: 'The summary report as CSV',
    description:
      "The report of `GET /v1/reports/summary` with the same parameters, as RFC 4180 CSV: a header row; a `level` column (`total`, `group`, `subgroup`), each grouping's key and name, `entries`, `durationMinutes`, `billableMinutes`, and one `amount_<currency>` column per currency.",
    query: s.reportQuery,
    response: s.textSchema,
    produces: CSV_TYPE,
    csvOf: 'getSummaryReport',
    successStatus: 200,
  },
} satisfies Record<string, RouteDef>;

/** What webhooks offer besides their five routes (shared/webhooks/routes.ts implements them). */
const webhookRoutes = {
  rotateWebhookSecret: {
    method: 'POST',
    path: '/v1/webhooks/{id}/rotate-secret',
    resource: 'webhooks',
    scope: 'webhooks:write',
    summary: 'Replace the signing secret; the new one is shown once (the old one keeps signing, beside it, for 24 hours)',
    params: s.idParamsFor('webhooks'),
    response: s.webhookSecretSchema,
    noIdempotency: SECRET_NOT_KEPT,
    successStatus: 200,
    kind: 'Webhook',
  },
  testWebhook: {
    method: 'POST',
    path: '/v1/webhooks/{id}/test',
    resource: 'webhooks',
    scope: 'webhooks:write',
    summary: 'Send a webhook.ping event to the endpoint (queued; see its deliveries)',
    params: s.idParamsFor('webhooks'),
    response: s.webhookPingSchema,
    successStatus: 200,
    kind: 'Webhook',
  },
  listWebhookDeliveries: {
    method: 'GET',
    path: '/v1/webhooks/{id}/deliveries',
    resource: 'webhooks',
    scope: 'webhooks:read',
    summary: 'Delivery attempts of a webhook, newest first (paginated)',
    params: s.idParamsFor('webhooks'),
    query: later(() => z.strictObject({ limit: s.limitParam, cursor: s.cursorParam })),
    response: later(() => s.pageOf(s.webhookAttemptSchema)),
    successStatus: 200,
    kind: 'Webhook',
  },
} satisfies Record<string, RouteDef>;

export const routes: typeof publicRoutes &
  typeof keyRoutes &
  typeof feedRoutes &
  typeof timerRoutes &
  typeof reportRoutes &
  typeof csvRoutes &
  typeof webhookRoutes &
  EntityRoutes = Object.assign(
  { ...publicRoutes, ...keyRoutes, ...feedRoutes, ...timerRoutes, ...reportRoutes, ...csvRoutes, ...webhookRoutes },
  ...ENTITIES.map((e) => crudRoutes(e, optionsOf[e.resource])),
);

export type RouteId = keyof typeof routes;
export type Routes = typeof routes;
for (const route of Object.values(routes)) lazyRoute(route as RouteDef);
export const ROUTE_IDS = Object.keys(routes) as RouteId[];
/** A route of the table as the kernel takes it: its id and its access (the key's scopes; null: public). */
export type ApiRoute = RouteDef & { id: RouteId; access: KeyAccess | null };
/** The access of an API route: `scope` and `alsoScopes` (none for ANY_KEY), or public. */
export const accessOf = (r: Pick<RouteDef, 'scope' | 'alsoScopes'>): KeyAccess | null =>
  r.scope === null ? null : { scopes: r.scope === ANY_KEY ? [] : [r.scope, ...(r.alsoScopes ?? [])] };
// each route with its id and access, its lazy schemas kept lazy (a spread would build them all)
export const routeList: ApiRoute[] = ROUTE_IDS.map((id) => {
  const route = routes[id] as RouteDef;
  return Object.defineProperties({ id, access: accessOf(route) }, Object.getOwnPropertyDescriptors(route)) as ApiRoute;
});
/** The functions behind the API (one per resource, plus openapi, me and changes), in route-table order. */
export const FUNCTION_NAMES: readonly FunctionName[] = [...new Set(routeList.map((r) => r.resource))];

/** Distinct path templates, each with the methods declared on it. */
export function pathTemplates(): Map<string, RouteDef[]> {
  const m = new Map<string, RouteDef[]>();
  for (const r of routeList) m.set(r.path, [...(m.get(r.path) ?? []), r]);
  return m;
}

/** Finds the route of an API Gateway event (resource template + method). */
export function findRoute(pathTemplate: string, method: string): ApiRoute | undefined {
  return routeList.find((r) => r.path === pathTemplate && r.method === method);
}

/** Matches a concrete path (/v1/clients/abc) to its template and path parameters. */
const TEMPLATE_PARTS = templateMatcher([...pathTemplates().keys()]);

export function matchPath(path: string): { template: string; params: Record<string, string> } | undefined {
  const exact = TEMPLATE_PARTS(path);
  if (exact || !path.endsWith('/') || path === '/') return exact;
  // The same page with a trailing slash, for the routes that say so (GET /v1/docs/)
  const bare = TEMPLATE_PARTS(path.slice(0, -1));
  return bare && routeList.some((r) => r.path === bare.template && r.trailingSlash) ? bare : undefined;
}

/** A matcher of concrete paths against a list of templates (this table's, and the console's). */
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
