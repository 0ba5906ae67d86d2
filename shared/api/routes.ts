import { SCOPES, isScope, type Scope } from '../domain/auth';
import type { AnyEntity } from '../domain/entity';
import { ENTITIES, RESOURCES, type Entity, type ResourceName } from '../domain/registry';
import type { InputOf } from './kernel/route';
import { changesRoutes } from './routes/changes';
import { crudRoutes, pathMatcherOf, routeListOf, templateMatcher, type CrudOptions, type CrudRoutes, type FunctionName, type RouteDef, type TableRoute } from './routes/define';
import { favoritesOptions } from './routes/favorites';
import { invoicesOptions } from './routes/invoices';
import { meRoutes } from './routes/me';
import { publicRoutes } from './routes/openapi';
import { reportCsvRoutes, reportRoutes } from './routes/reports';
import { tasksOptions } from './routes/tasks';
import { timeEntriesCsvRoutes, timeEntriesOptions, timerRoutes } from './routes/time-entries';
import { webhookRoutes, webhooksOptions } from './routes/webhooks';

/**
 * THE route table. Every route of the API is declared once, in the module of the function that serves it
 * (shared/api/routes/<function>.ts, declared with shared/api/routes/define.ts), so that a function's bundle
 * carries only its own routes' schemas and handlers; this module assembles them into the one table from
 * which the CDK resources and methods, the local gateway, the OpenAPI document and the route-coverage tests
 * are derived. A resource's five routes, their ids (`listTimeEntries`, `getTimeEntry`, ...), schemas and
 * implementation (shared/api/crud.ts) follow from its entity declaration and its line in the registry
 * (shared/domain/registry.ts); ROUTE_OPTIONS below names what differs per resource (declared in its
 * module). docs/architecture.md walks through adding one.
 */
export { RESOURCES, SCOPES, isScope, templateMatcher, type InputOf, type ResourceName, type Scope };
export { ANY_KEY, RESERVED_OPERATION_IDS, crudRoutes, lazySchemasBuilt, accessOf } from './routes/define';
export type { CrudRoutes, EntityRoute, FunctionName, HttpMethod, Operation, RouteDef, RouteScope, TextContentType } from './routes/define';
export { DOCS_SCRIPT } from './routes/openapi';

/** What differs from the plain five routes, per resource (each declared in its function's module); a plain resource needs no line here. */
const ROUTE_OPTIONS = {
  tasks: tasksOptions,
  'time-entries': timeEntriesOptions,
  favorites: favoritesOptions,
  webhooks: webhooksOptions,
  invoices: invoicesOptions,
} satisfies { [R in ResourceName]?: CrudOptions };
/** The same, looked up by any resource (a plain one has none). */
const optionsOf: { readonly [R in ResourceName]?: CrudOptions } = ROUTE_OPTIONS;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** The options of a resource (none for a plain one). */
type OptionsOf<R extends string> = R extends keyof typeof ROUTE_OPTIONS ? (typeof ROUTE_OPTIONS)[R] : Record<never, never>;
/** The routes of every entity of the registry, typed by id (`listClients`, ..., `deleteInvoice`). */
type EntityRoutes = UnionToIntersection<Entity extends infer E ? (E extends AnyEntity ? CrudRoutes<E, OptionsOf<E['resource']>> : never) : never>;

export const routes: typeof publicRoutes &
  typeof meRoutes &
  typeof changesRoutes &
  typeof timerRoutes &
  typeof reportRoutes &
  typeof timeEntriesCsvRoutes &
  typeof reportCsvRoutes &
  typeof webhookRoutes &
  EntityRoutes = Object.assign(
  { ...publicRoutes, ...meRoutes, ...changesRoutes, ...timerRoutes, ...reportRoutes, ...timeEntriesCsvRoutes, ...reportCsvRoutes, ...webhookRoutes },
  ...ENTITIES.map((e) => crudRoutes(e, optionsOf[e.resource])),
);

export type RouteId = keyof typeof routes;
export type Routes = typeof routes;
export const ROUTE_IDS = Object.keys(routes) as RouteId[];
/** A route of the table as the kernel takes it: its id and its access (the key's scopes; null: public). */
export type ApiRoute = TableRoute<RouteId>;
export const routeList: ApiRoute[] = routeListOf(routes);
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

/** Matches a concrete path (/v1/clients/abc) to its template and path parameters (GET /v1/docs/ too: a page with a trailing slash). */
export const matchPath = pathMatcherOf(routeList);
