import type { Locator } from '../data/repository';
import { repository } from '../data/repository';
import { resourceHandler, type RouteImpl, type RouteImpls } from './handler';
import { routeList, type ResourceName, type RouteDef } from './routes';

/**
 * The one implementation of each entity operation of the route table (list, create, get, update,
 * delete), for every entity: the place where a route's validated input meets its entity's repository.
 * A route says which entity and operation it is (shared/api/routes.ts); nothing here is per resource.
 */
export interface OperationInput {
  workspaceId: string;
  params: Readonly<Record<string, unknown>>;
  query: Readonly<Record<string, unknown>>;
  body: unknown;
}
export type Operation = (input: OperationInput) => Promise<unknown>;

/** The record a get/update/delete addresses: the path id plus the addressing query (sortKey, userId). */
const locator = ({ params, query }: OperationInput) => ({ ...query, ...params }) as Locator;
const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The implementation of an entity route, or undefined when the route is not an entity operation. */
export function entityOperation(route: RouteDef): Operation | undefined {
  const entity = route.entity;
  if (!entity || !route.operation) return undefined;
  const repo = repository(entity);
  switch (route.operation) {
    case 'list':
      return async ({ workspaceId, query }) => {
        // Paging parameters and the date range aside, every list parameter is an equality filter.
        const { limit, cursor, startDate, endDate, ...filters } = query;
        const where = Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, text(v)]));
        if (entity.list.mode === 'whole') return { items: await repo.listAll(workspaceId, where) };
        const page = await repo.page(workspaceId, {
          where,
          ...(entity.list.range ? { range: entity.list.range(text(startDate), text(endDate)) } : {}),
          ...(typeof limit === 'number' ? { limit } : {}),
          ...(typeof cursor === 'string' ? { cursor } : {}),
        });
        return { items: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), hasMore: page.hasMore };
      };
    case 'create':
      return async ({ workspaceId, body }) => repo.create(workspaceId, body as Record<string, unknown>);
    case 'get':
      return async (input) => repo.get(input.workspaceId, locator(input));
    case 'update':
      return async (input) => repo.update(input.workspaceId, locator(input), input.body as Record<string, unknown>);
    case 'delete':
      return async (input) => repo.delete(input.workspaceId, locator(input));
  }
}

/**
 * The Lambda handler of a resource: the one middleware stack with every route of the resource bound to
 * its entity operation. A resource's function file is `export const handler = entityHandler('<resource>')`.
 * (The OpenAPI function binds its one route with resourceHandler directly, so it bundles no data access.)
 */
export function entityHandler(resource: ResourceName) {
  const impls: Record<string, RouteImpl<RouteDef>> = {};
  for (const route of routeList.filter((r) => r.resource === resource)) {
    const operation = entityOperation(route);
    if (operation) impls[route.id] = ({ auth, params, query, body }) => operation({ workspaceId: auth.workspaceId, params, query, body });
  }
  return resourceHandler(resource, impls as RouteImpls);
}
