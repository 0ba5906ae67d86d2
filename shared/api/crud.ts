import type { Entity, Locator } from '../data/repository';
import type { RouteImpl, RouteImpls } from './handler';
import type { RouteDef, RouteId } from './routes';

/**
 * Binds the five CRUD routes of a resource to its Entity: the one place where "list, create, get,
 * update, delete" meet the repository, so no resource repeats this plumbing. `listFilter` maps the
 * list route's validated query to an equality filter; `listPrefix` maps it to the sort-key prefix of
 * the item collection to Query (e.g. one user's favorites), so a filter can be a key condition.
 */
export function crudImpls(
  entity: Entity,
  ids: { list: RouteId; create: RouteId; get: RouteId; update: RouteId; delete: RouteId },
  opts: {
    listFilter?: (query: Record<string, unknown>) => Record<string, string>;
    listPrefix?: (query: Record<string, unknown>) => string | undefined;
  } = {},
): RouteImpls {
  type Any = RouteImpl<RouteDef>;
  const loc = (params: unknown, query: unknown) => ({ ...(query as object), ...(params as object) }) as Locator;
  const impls: Record<string, Any> = {
    [ids.list]: async ({ auth, query }) => {
      const q = query as Record<string, unknown>;
      const skPrefix = opts.listPrefix?.(q);
      return { items: await entity.listAll(auth.workspaceId, { filter: opts.listFilter?.(q) ?? {}, ...(skPrefix ? { skPrefix } : {}) }) };
    },
    [ids.create]: async ({ auth, body }) => entity.create(auth.workspaceId, body as unknown as Record<string, unknown>),
    [ids.get]: async ({ auth, params, query }) => entity.get(auth.workspaceId, loc(params, query)),
    [ids.update]: async ({ auth, params, query, body }) => entity.update(auth.workspaceId, loc(params, query), body as unknown as Record<string, unknown>),
    [ids.delete]: async ({ auth, params, query }) => entity.delete(auth.workspaceId, loc(params, query)),
  };
  return impls as RouteImpls;
}
