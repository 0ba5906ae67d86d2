import * as z from 'zod';
import { SCOPES, isScope, type Scope } from '../domain/auth';
import type { AnyEntity } from '../domain/entity';
import { ENTITIES, RESOURCES, type Entity, type ResourceName } from '../domain/registry';
import * as s from './schemas';

/**
 * THE route table. Every route of the API is declared here once; the CDK resources and methods, the
 * local gateway, the scope checks, request validation, the OpenAPI document and the route-coverage
 * tests are all derived from it. A resource's five routes, their ids (`listTimeEntries`,
 * `getTimeEntry`, ...), schemas and implementation (shared/api/crud.ts) follow from its entity
 * declaration and its line in the registry (shared/domain/registry.ts); ROUTE_OPTIONS below holds what
 * differs per resource. docs/architecture.md walks through adding one.
 */
export { RESOURCES, SCOPES, isScope, type ResourceName, type Scope };
export type FunctionName = ResourceName | 'openapi' | 'changes';

/**
 * The "scope" of routes any valid key may call: what they answer still depends on the key's scopes
 * (the change feed returns only events of resources the key can read).
 */
export const ANY_KEY = 'any-key';

const SECRET_NOT_KEPT =
  'Idempotency-Key is not accepted here: the answer carries a secret, which the server never keeps; list the webhooks to see whether a lost request took effect';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** What an entity route does with its entity (shared/api/crud.ts implements each once). */
export type Operation = 'list' | 'create' | 'get' | 'update' | 'delete';

export interface RouteDef {
  method: HttpMethod;
  /** API Gateway style template, e.g. /v1/clients/{id}. */
  path: string;
  /** Which Lambda serves it. */
  resource: FunctionName;
  /** Required scope; ANY_KEY for routes every valid key may call; null for the public routes. */
  scope: Scope | typeof ANY_KEY | null;
  summary: string;
  /** More than the summary says, for the OpenAPI document (Markdown). */
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  response: z.ZodType;
  successStatus: 200 | 201;
  /** Its cursor expires (410 CURSOR_EXPIRED): the change feed's. */
  expiringCursor?: boolean;
  /** Refuses Idempotency-Key (400), saying why: its answer carries a secret, which is never kept. */
  noIdempotency?: string;
  /** May answer 409 CONFLICT (uniqueness, references, state). */
  conflict?: boolean;
  /** Declared, but permanently answered with 501 NOT_IMPLEMENTED (documented as such). */
  notImplemented?: string;
  /** The kind named in NOT_FOUND messages of id routes. */
  kind?: string;
  /** A single-resource answer carrying the record's ETag header. */
  etag?: boolean;
  /** Conditional requests: If-None-Match on a read (304), If-Match on a write (412). */
  conditional?: 'read' | 'write';
  /** The entity an entity route works on, and what it does with it. */
  entity?: AnyEntity;
  operation?: Operation;
}

/** "time-entries" -> "TimeEntries", "Time entry" -> "TimeEntry" (route ids, at the type level too). */
type Pascal<S extends string> = S extends `${infer A}-${infer B}`
  ? `${Capitalize<A>}${Pascal<B>}`
  : S extends `${infer A} ${infer B}`
    ? `${Capitalize<A>}${Pascal<B>}`
    : Capitalize<S>;
type CrudRoutes<E extends AnyEntity> = {
  [K in `list${Pascal<E['resource']>}` | `${'create' | 'get' | 'update' | 'delete'}${Pascal<E['kind']>}`]: RouteDef;
};

interface CrudOptions {
  /** Query parameters of the list route (filters); paged lists add limit and cursor themselves. */
  listQuery?: z.ZodObject;
  /** Query parameters that, with the id, address one record (a time entry's sortKey, a favorite's userId). */
  idQuery?: z.ZodObject;
  listSummary?: string;
  updateSummary?: string;
  deleteSummary?: string;
  /** The create answer, when it shows more than the record (a webhook's secret). */
  createResponse?: (item: z.ZodObject) => z.ZodType;
  /** The create route refuses Idempotency-Key, for this reason. */
  createNoIdempotency?: string;
  /** Operations declared but not offered (501): the summary in the document, the message of the 501. */
  notOffered?: Partial<Record<'create' | 'update', { summary: string; message: string }>>;
}

/** The five routes of a resource, derived from its entity declaration. */
export function crudRoutes<const E extends AnyEntity>(entity: E, opts: CrudOptions = {}): CrudRoutes<E> {
  const { resource, kind } = entity;
  const base = `/v1/${resource}`;
  const read = `${resource}:read` as Scope;
  const write = `${resource}:write` as Scope;
  const lower = kind.toLowerCase();
  const a = /^[aeiou]/.test(lower) ? `an ${lower}` : `a ${lower}`;
  const item = s.responseSchema(entity);
  const params = s.idParams;
  const idq = opts.idQuery ? { query: opts.idQuery } : {};
  const paged = entity.list.mode === 'paged';
  const common = { resource: resource as FunctionName, entity };
  const listQuery = paged ? z.strictObject({ limit: s.limitParam, cursor: s.cursorParam, ...opts.listQuery?.shape }) : opts.listQuery;
  const ids = {
    list: `list${pascal(resource)}`,
    create: `create${pascal(kind)}`,
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
      ...(listQuery ? { query: listQuery } : {}),
      response: paged ? s.pageOf(item) : s.listOf(item),
      successStatus: 200,
    },
    [ids.create]: opts.notOffered?.create
      ? {
          ...common,
          method: 'POST',
          path: base,
          scope: write,
          summary: opts.notOffered.create.summary,
          response: item,
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
          body: s.createBodySchema(entity.fields),
          response: opts.createResponse ? opts.createResponse(item) : item,
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
      response: item,
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
          response: item,
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
          body: s.updateBodySchema(entity.fields),
          response: item,
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
      successStatus: 200,
      conflict: true,
      kind,
    },
  };
  return routes as CrudRoutes<E>;
}
const pascal = s.pascal;

/**
 * What differs from the plain five routes, per resource; a plain resource needs no line here. Its
 * routes follow from its entity in the registry (shared/domain/registry.ts, ENTITIES).
 */
const ROUTE_OPTIONS: { [R in ResourceName]?: CrudOptions } = {
  tasks: { listQuery: s.taskListQuery },
  'time-entries': {
    listQuery: s.timeEntryListQuery,
    idQuery: s.sortKeyQuery,
    listSummary: 'List time entries, newest startTime first (paginated)',
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
    listSummary: 'List invoices, newest issueDate first (paginated)',
    deleteSummary: 'Delete a draft or void invoice (sent and paid invoices give 409)',
    notOffered: {
      create: { summary: 'Not offered: invoices are created by the application', message: 'Invoices are created in the application; this API cannot create them' },
      update: { summary: 'Not offered: invoices are changed in the application', message: 'Invoices are changed in the application; this API cannot update them' },
    },
  },
};

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** The routes of every entity of the registry, typed by id (`listClients`, ..., `deleteInvoice`). */
type EntityRoutes = UnionToIntersection<Entity extends infer E ? (E extends AnyEntity ? CrudRoutes<E> : never) : never>;

const publicRoutes = {
  getOpenApi: {
    method: 'GET',
    path: '/v1/openapi.json',
    resource: 'openapi',
    scope: null,
    summary: 'The OpenAPI 3.0 description of this API (public)',
    response: z.record(z.string(), z.unknown()),
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

/** What webhooks offer besides their five routes (shared/api/webhooks.ts implements them). */
const webhookRoutes = {
  rotateWebhookSecret: {
    method: 'POST',
    path: '/v1/webhooks/{id}/rotate-secret',
    resource: 'webhooks',
    scope: 'webhooks:write',
    summary: 'Replace the signing secret; the new one is shown once (the old one keeps signing, beside it, for 24 hours)',
    params: s.idParams,
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
    params: s.idParams,
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
    params: s.idParams,
    query: z.strictObject({ limit: s.limitParam, cursor: s.cursorParam }),
    response: s.pageOf(s.webhookAttemptSchema),
    successStatus: 200,
    kind: 'Webhook',
  },
} satisfies Record<string, RouteDef>;

export const routes: typeof publicRoutes & typeof feedRoutes & typeof webhookRoutes & EntityRoutes = Object.assign(
  { ...publicRoutes, ...feedRoutes, ...webhookRoutes },
  ...ENTITIES.map((e) => crudRoutes(e, ROUTE_OPTIONS[e.resource])),
);

export type RouteId = keyof typeof routes;
export type Routes = typeof routes;
export const ROUTE_IDS = Object.keys(routes) as RouteId[];
export const routeList: Array<RouteDef & { id: RouteId }> = ROUTE_IDS.map((id) => ({ id, ...(routes[id] as RouteDef) }));
/** The functions behind the API (one per resource, plus openapi and changes), in route-table order. */
export const FUNCTION_NAMES: readonly FunctionName[] = [...new Set(routeList.map((r) => r.resource))];

/** Distinct path templates, each with the methods declared on it. */
export function pathTemplates(): Map<string, RouteDef[]> {
  const m = new Map<string, RouteDef[]>();
  for (const r of routeList) m.set(r.path, [...(m.get(r.path) ?? []), r]);
  return m;
}

/** Finds the route of an API Gateway event (resource template + method). */
export function findRoute(pathTemplate: string, method: string): (RouteDef & { id: RouteId }) | undefined {
  return routeList.find((r) => r.path === pathTemplate && r.method === method);
}

/** Matches a concrete path (/v1/clients/abc) to its template and path parameters. */
const TEMPLATE_PARTS = [...pathTemplates().keys()].map((template) => ({ template, tparts: template.split('/') }));

export function matchPath(path: string): { template: string; params: Record<string, string> } | undefined {
  const parts = path.split('/');
  for (const { template, tparts } of TEMPLATE_PARTS) {
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
}

export type InputOf<R extends RouteDef> = {
  params: R['params'] extends z.ZodType ? z.output<R['params']> : Record<string, never>;
  query: R['query'] extends z.ZodType ? z.output<R['query']> : Record<string, never>;
  body: R['body'] extends z.ZodType ? z.output<R['body']> : undefined;
};
