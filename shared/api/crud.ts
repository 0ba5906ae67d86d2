import type { Where } from '../data/query-plan';
import { repository, type CreateValues, type FieldValues, type IfMatch, type Locator } from '../data/repository';
import type { AnyEntity } from '../domain/entity';
import { headerValue } from './gateway-edge';
import { Reply, resourceHandler, type GroupImpls, type HandlerOptions, type RouteGroup, type RouteImpl } from './handler';
import type { InputOf, Operation, RouteDef, RouteId, Routes } from './routes';

/**
 * The one implementation of each entity operation of the route table (list, create, get, update,
 * delete), for every entity: the place where a route's validated input meets its entity's repository.
 * A route says which entity and operation it is (shared/api/routes.ts); nothing here is per resource.
 * Each operation takes the input its route's schemas give, typed from the entity's declaration: a create
 * body is the input of the entity's create schema, an update body that of its update schema.
 */
type Headers = Readonly<Record<string, string | undefined>> | null;
/** What every operation receives besides its route's validated input. */
interface RequestOf {
  workspaceId: string;
  headers?: Headers;
}
/** The input of an id route: the path id and the query that, with it, addresses the record (sortKey, userId). */
interface Addressed {
  params: { id: string };
  query: Where;
}
/** The query of a list: paging parameters, the date range and equality filters. */
type ListQuery = { limit?: number; cursor?: string; startDate?: string; endDate?: string } & Readonly<Record<string, string | number | undefined>>;
/** What each operation takes from its route, for records of entity E. */
interface OperationInputs<E extends AnyEntity> {
  list: { query: ListQuery };
  create: { body: CreateValues<E> };
  get: Addressed;
  update: Addressed & { body: FieldValues<E> };
  delete: Addressed;
}
type Impl<In> = (input: In & RequestOf) => Promise<unknown>;
/** An operation as the handler calls it, with any route's validated input. */
export type OperationInput = { params: unknown; query: unknown; body: unknown } & RequestOf;
type OperationImpl = (input: OperationInput) => Promise<unknown>;

/**
 * Every entity route's validated input (InputOf, from its schemas) is what its operation takes: a route
 * whose input does not fit names itself here at compile time. This is what makes the one widening in
 * `entityOperation` sound.
 */
type Fits<R extends RouteDef> = R extends { entity: infer E extends AnyEntity; operation: infer Op extends Operation }
  ? InputOf<R> extends OperationInputs<E>[Op]
    ? true
    : false
  : true;
type Misfits = { [K in RouteId]: Fits<Routes[K]> extends true ? never : K }[RouteId];
export const EVERY_ROUTE_FITS: [Misfits] extends [never] ? true : Misfits = true;

/** The record a get/update/delete addresses: the path id plus the addressing query (sortKey, userId). */
export const locator = ({ params, query }: Addressed): Locator => ({ ...query, ...params });
const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

/**
 * Conditional requests (RFC 9110, section 13). If-Match: `*`, or a list of the strong ETags the request
 * may act on (weak ones never match, as RFC 9110 compares If-Match strongly); a value that names no ETag
 * of ours matches nothing, so the write answers 412. If-None-Match compares weakly.
 */
// Strong comparison (RFC 9110, 8.8.3.2): character by character, so only the canonical digits of a
// revision match it ("00003" is not "3").
const ETAG = /^(W\/)?"(0|[1-9]\d*)"$/;
function ifMatchOf(headers: Headers | undefined): IfMatch | undefined {
  const value = headerValue(headers, 'If-Match')?.trim();
  if (value === undefined) return undefined;
  if (value === '*') return '*';
  return value.split(',').flatMap((tag) => {
    const m = ETAG.exec(tag.trim());
    return m && !m[1] ? [Number(m[2])] : [];
  });
}
function noneMatch(headers: Headers | undefined, etag: string): boolean {
  const value = headerValue(headers, 'If-None-Match')?.trim();
  if (value === undefined) return false;
  return value === '*' || value.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
/** A single record as an answer: the record (its `etag` field included, as in list items) and its ETag header. */
export const recordReply = (record: { etag?: string }): Reply => new Reply(record, record.etag ? { ETag: record.etag } : {});
/** The write options of a conditional write route. */
export const writeOptions = (headers: Headers | undefined) => {
  const ifMatch = ifMatchOf(headers);
  return ifMatch === undefined ? {} : { ifMatch };
};

/** The five record operations of an entity. */
function recordOperations<E extends AnyEntity>(entity: E): { [Op in 'list' | 'create' | 'get' | 'update' | 'delete']: Impl<OperationInputs<E>[Op]> } {
  const repo = repository(entity);
  return {
    list: async ({ workspaceId, query }) => {
      // Paging parameters and the date range aside, every list parameter is an equality filter.
      const { limit, cursor, startDate, endDate, ...filters } = query;
      const where = Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, text(v)]));
      if (entity.list.mode === 'whole') return { items: await repo.listAll(workspaceId, where) };
      const page = await repo.page(workspaceId, {
        where,
        ...(entity.list.range ? { range: entity.list.range(startDate, endDate) } : {}),
        ...(limit !== undefined ? { limit } : {}),
        ...(cursor !== undefined ? { cursor } : {}),
      });
      return { items: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), hasMore: page.hasMore };
    },
    create: async ({ workspaceId, body }) => recordReply(await repo.create(workspaceId, body)),
    get: async (input) => {
      const record = await repo.get(input.workspaceId, locator(input));
      // Not modified: no body, the ETag again (the request still counted toward the rate limit).
      if (record.etag && noneMatch(input.headers, record.etag)) return new Reply(undefined, { ETag: record.etag }, 304);
      return recordReply(record);
    },
    update: async (input) => recordReply(await repo.update(input.workspaceId, locator(input), input.body, writeOptions(input.headers))),
    delete: async (input) => repo.delete(input.workspaceId, locator(input), writeOptions(input.headers)),
  };
}

/** The implementation of an entity route, or undefined when the route is not an entity operation. */
export function entityOperation(route: RouteDef): OperationImpl | undefined {
  const { entity, operation } = route;
  if (!entity || !operation) return undefined;
  const impl = recordOperations(entity)[operation];
  // The one widening: the route's schemas produced its input (validateInput, shared/api/handler.ts), and
  // EVERY_ROUTE_FITS checks that what they produce is what the operation takes.
  return impl as OperationImpl;
}

/**
 * The Lambda handler of a resource: the one middleware stack with every route of the resource bound to
 * its entity operation, or to its own implementation in `overrides` (webhooks: shared/webhooks/routes.ts; the
 * timers' stop and start: shared/api/timers.ts); the stack runs it under the request's Idempotency-Key
 * (shared/api/handler.ts). A resource's function file is `export const handler = entityHandler(<its routes>)`: a plain
 * resource's `crudRoutes(<entity>)`, another's the group of its module (shared/api/routes/<function>.ts).
 * (The OpenAPI function binds its one route with resourceHandler directly, so it bundles no data access.)
 */
export function entityHandler<G extends RouteGroup>(group: G, overrides: GroupImpls<G> = {}, options: HandlerOptions = {}) {
  const impls: Record<string, RouteImpl<RouteDef>> = {};
  for (const [id, route] of Object.entries(group)) {
    const own = (overrides as Record<string, RouteImpl<RouteDef> | undefined>)[id];
    const operation = entityOperation(route);
    if (!operation && !own) continue;
    impls[id] = own ?? ((req) => operation!({ workspaceId: req.auth.workspaceId, params: req.params, query: req.query, body: req.body, headers: req.headers }));
  }
  return resourceHandler(group, impls as GroupImpls<G>, options);
}
