import * as z from 'zod';
import * as s from './schemas';

/**
 * THE route table. Every route of the API is declared here once; the CDK resources and methods, the
 * local gateway, the scope checks, request validation, the OpenAPI document and the route-coverage
 * tests are all derived from it. Adding an endpoint = one entry here + its handler.
 */
export const RESOURCES = ['clients', 'projects', 'tasks', 'tags', 'time-entries', 'favorites', 'invoices'] as const;
export type ResourceName = (typeof RESOURCES)[number];
export type FunctionName = ResourceName | 'openapi';

export const SCOPES = RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`] as const);
export type Scope = `${ResourceName}:${'read' | 'write'}`;
const SCOPE_SET: ReadonlySet<string> = new Set(SCOPES);
export const isScope = (v: string): v is Scope => SCOPE_SET.has(v);

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteDef {
  method: HttpMethod;
  /** API Gateway style template, e.g. /v1/clients/{id}. */
  path: string;
  /** Which Lambda serves it. */
  resource: FunctionName;
  /** Required scope; null for the public route. */
  scope: Scope | null;
  summary: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  response: z.ZodType;
  successStatus: 200 | 201;
  /** May answer 409 CONFLICT (uniqueness, references, state). */
  conflict?: boolean;
  /** Declared, but permanently answered with 501 NOT_IMPLEMENTED (documented as such). */
  notImplemented?: string;
  /** The kind named in NOT_FOUND messages of id routes. */
  kind?: string;
}

const crud = (
  resource: ResourceName,
  kind: string,
  fields: s.FieldSpecs,
  item: z.ZodType,
  opts: { listQuery?: z.ZodObject; idQuery?: z.ZodObject } = {},
) => {
  const base = `/v1/${resource}`;
  const read = `${resource}:read` as Scope;
  const write = `${resource}:write` as Scope;
  const params = s.idParams;
  const idq = opts.idQuery ? { query: opts.idQuery } : {};
  return {
    list: { method: 'GET', path: base, resource, scope: read, summary: `List ${resource}`, ...(opts.listQuery ? { query: opts.listQuery } : {}), response: s.listOf(item), successStatus: 200 },
    create: { method: 'POST', path: base, resource, scope: write, summary: `Create a ${kind.toLowerCase()}`, body: s.createBodySchema(fields), response: item, successStatus: 201, conflict: true, kind },
    get: { method: 'GET', path: `${base}/{id}`, resource, scope: read, summary: `Get a ${kind.toLowerCase()}`, params, ...idq, response: item, successStatus: 200, kind },
    update: { method: 'PUT', path: `${base}/{id}`, resource, scope: write, summary: `Update a ${kind.toLowerCase()} (fields not sent keep their value; null clears an optional field)`, params, ...idq, body: s.updateBodySchema(fields), response: item, successStatus: 200, conflict: true, kind },
    delete: { method: 'DELETE', path: `${base}/{id}`, resource, scope: write, summary: `Delete a ${kind.toLowerCase()}`, params, ...idq, response: s.deletedSchema, successStatus: 200, conflict: true, kind },
  } satisfies Record<string, RouteDef>;
};

const clients = crud('clients', 'Client', s.clientFields, s.clientSchema);
const projects = crud('projects', 'Project', s.projectFields, s.projectSchema);
const tasks = crud('tasks', 'Task', s.taskFields, s.taskSchema, { listQuery: s.taskListQuery });
const tags = crud('tags', 'Tag', s.tagFields, s.tagSchema);
const timeEntries = crud('time-entries', 'Time entry', s.timeEntryFields, s.timeEntrySchema, { idQuery: s.sortKeyQuery });
const favorites = crud('favorites', 'Favorite', s.favoriteFields, s.favoriteSchema, { listQuery: s.favoriteListQuery, idQuery: s.userIdQuery });

export const routes = {
  getOpenApi: { method: 'GET', path: '/v1/openapi.json', resource: 'openapi', scope: null, summary: 'The OpenAPI 3.0 description of this API (public)', response: z.record(z.string(), z.unknown()), successStatus: 200 },

  listClients: clients.list,
  createClient: clients.create,
  getClient: clients.get,
  updateClient: clients.update,
  deleteClient: clients.delete,

  listProjects: projects.list,
  createProject: projects.create,
  getProject: projects.get,
  updateProject: projects.update,
  deleteProject: projects.delete,

  listTasks: tasks.list,
  createTask: tasks.create,
  getTask: tasks.get,
  updateTask: tasks.update,
  deleteTask: tasks.delete,

  listTags: tags.list,
  createTag: tags.create,
  getTag: tags.get,
  updateTag: tags.update,
  deleteTag: tags.delete,

  listTimeEntries: { ...timeEntries.list, query: s.timeEntryListQuery, response: s.pageOf(s.timeEntrySchema), summary: 'List time entries, newest startTime first (paginated)' },
  createTimeEntry: timeEntries.create,
  getTimeEntry: timeEntries.get,
  updateTimeEntry: { ...timeEntries.update, summary: 'Update a time entry (merge); changing startTime moves it and returns a new sortKey' },
  deleteTimeEntry: timeEntries.delete,

  listFavorites: favorites.list,
  createFavorite: favorites.create,
  getFavorite: favorites.get,
  updateFavorite: favorites.update,
  deleteFavorite: favorites.delete,

  listInvoices: { method: 'GET', path: '/v1/invoices', resource: 'invoices', scope: 'invoices:read', summary: 'List invoices, newest issueDate first (paginated)', query: s.invoiceListQuery, response: s.pageOf(s.invoiceSchema), successStatus: 200 },
  createInvoice: { method: 'POST', path: '/v1/invoices', resource: 'invoices', scope: 'invoices:write', summary: 'Not offered: invoices are created by the application', response: s.invoiceSchema, successStatus: 201, notImplemented: 'Invoices are created in the application; this API cannot create them' },
  getInvoice: { method: 'GET', path: '/v1/invoices/{id}', resource: 'invoices', scope: 'invoices:read', summary: 'Get an invoice', params: s.idParams, response: s.invoiceSchema, successStatus: 200, kind: 'Invoice' },
  updateInvoice: { method: 'PUT', path: '/v1/invoices/{id}', resource: 'invoices', scope: 'invoices:write', summary: 'Not offered: invoices are changed in the application', params: s.idParams, response: s.invoiceSchema, successStatus: 200, notImplemented: 'Invoices are changed in the application; this API cannot update them' },
  deleteInvoice: { method: 'DELETE', path: '/v1/invoices/{id}', resource: 'invoices', scope: 'invoices:write', summary: 'Delete a draft or void invoice (sent and paid invoices give 409)', params: s.idParams, response: s.deletedSchema, successStatus: 200, conflict: true, kind: 'Invoice' },
} satisfies Record<string, RouteDef>;

export type RouteId = keyof typeof routes;
export type Routes = typeof routes;
export const ROUTE_IDS = Object.keys(routes) as RouteId[];
export const routeList: Array<RouteDef & { id: RouteId }> = ROUTE_IDS.map((id) => ({ id, ...(routes[id] as RouteDef) }));

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
