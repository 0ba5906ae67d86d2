import { invalidField } from '../domain/errors';
import { repository, type IfMatch, type Locator } from '../data/repository';
import { favorites, FROM_FAVORITE } from '../domain/entities/favorites';
import { timeEntries } from '../domain/entities/time-entries';
import { conflict } from '../domain/errors';
import { headerValue } from './gateway-edge';
import { Reply, resourceHandler, type RouteImpl, type RouteImpls } from './handler';
import { REPLAYED_HEADER } from './headers';
import { isReplayed, runIdempotent } from './idempotency';
import { routeList, type ResourceName, type RouteDef } from './routes';
// Binds the time entries' companion (the running-timer rule, the rollups) to their repository.
import '../services/timers';

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
  headers?: Readonly<Record<string, string | undefined>> | null;
}
type OperationImpl = (input: OperationInput) => Promise<unknown>;

/** The record a get/update/delete addresses: the path id plus the addressing query (sortKey, userId). */
const locator = ({ params, query }: OperationInput) => ({ ...query, ...params }) as Locator;
const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

/**
 * Conditional requests (RFC 9110, section 13). If-Match: `*`, or a list of the strong ETags the request
 * may act on (weak ones never match, as RFC 9110 compares If-Match strongly); a value that names no ETag
 * of ours matches nothing, so the write answers 412. If-None-Match compares weakly.
 */
// Strong comparison (RFC 9110, 8.8.3.2): character by character, so only the canonical digits of a
// revision match it ("00003" is not "3").
const ETAG = /^(W\/)?"(0|[1-9]\d*)"$/;
function ifMatchOf(headers: OperationInput['headers']): IfMatch | undefined {
  const value = headerValue(headers, 'If-Match')?.trim();
  if (value === undefined) return undefined;
  if (value === '*') return '*';
  return value.split(',').flatMap((tag) => {
    const m = ETAG.exec(tag.trim());
    return m && !m[1] ? [Number(m[2])] : [];
  });
}
function noneMatch(headers: OperationInput['headers'], etag: string): boolean {
  const value = headerValue(headers, 'If-None-Match')?.trim();
  if (value === undefined) return false;
  return value === '*' || value.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
/** A single record as an answer: the record (its `etag` field included, as in list items) and its ETag header. */
export const recordReply = (record: { etag?: string }): Reply => new Reply(record, record.etag ? { ETag: record.etag } : {});
/** The write options of a conditional write route. */
export const writeOptions = (headers: OperationInput['headers']) => {
  const ifMatch = ifMatchOf(headers);
  return ifMatch === undefined ? {} : { ifMatch };
};

/** The conditional headers a request sent (part of what an Idempotency-Key's repeat must match). */
function conditionsOf(headers: OperationInput['headers']): { ifMatch?: string; ifNoneMatch?: string } {
  const ifMatch = headerValue(headers, 'If-Match');
  const ifNoneMatch = headerValue(headers, 'If-None-Match');
  return { ...(ifMatch !== undefined ? { ifMatch } : {}), ...(ifNoneMatch !== undefined ? { ifNoneMatch } : {}) };
}

/** The implementation of an entity route, or undefined when the route is not an entity operation. */
export function entityOperation(route: RouteDef): OperationImpl | undefined {
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
      return async ({ workspaceId, body }) => recordReply(await repo.create(workspaceId, body as Record<string, unknown>));
    case 'get':
      return async (input) => {
        const record = await repo.get(input.workspaceId, locator(input));
        // Not modified: no body, the ETag again (the request still counted toward the rate limit).
        if (record.etag && noneMatch(input.headers, record.etag)) return new Reply(undefined, { ETag: record.etag }, 304);
        return recordReply(record);
      };
    case 'update':
      return async (input) => recordReply(await repo.update(input.workspaceId, locator(input), input.body as Record<string, unknown>, writeOptions(input.headers)));
    case 'delete':
      return async (input) => repo.delete(input.workspaceId, locator(input), writeOptions(input.headers));
    case 'stop':
      // A merge of endTime into an entry that must still be running when read (the write is guarded by that read).
      return async (input) => {
        const endTime = text((input.body as Record<string, unknown> | undefined)?.endTime) ?? new Date().toISOString();
        const notRunning = (cur: Readonly<Record<string, unknown>>) => {
          if (cur.endTime !== undefined) throw conflict(`Time entry ${String(cur.id)} is not running (it ended at ${String(cur.endTime)})`);
        };
        return recordReply(await repo.update(input.workspaceId, locator(input), { endTime }, { assert: notRunning }));
      };
    case 'start':
      // The route's entity is the favorite (404 names it); the record made is a time entry.
      return async (input) => {
        const favorite = await repository(favorites).get(input.workspaceId, locator(input));
        const startTime = text((input.body as Record<string, unknown> | undefined)?.startTime) ?? new Date().toISOString();
        const fields = Object.fromEntries(FROM_FAVORITE.filter((f) => favorite[f] !== undefined).map((f) => [f, favorite[f]]));
        return recordReply(await repository(timeEntries).create(input.workspaceId, { ...fields, startTime }));
      };
  }
}

/**
 * The Lambda handler of a resource: the one middleware stack with every route of the resource bound to
 * its entity operation, or to its own implementation in `overrides` (webhooks: shared/api/webhooks.ts). A resource's function file is `export const handler = entityHandler('<resource>')`.
 * (The OpenAPI function binds its one route with resourceHandler directly, so it bundles no data access.)
 */
export function entityHandler(resource: ResourceName, overrides: RouteImpls = {}) {
  const impls: Record<string, RouteImpl<RouteDef>> = {};
  for (const route of routeList.filter((r) => r.resource === resource)) {
    const own = (overrides as Record<string, RouteImpl<RouteDef> | undefined>)[route.id];
    const operation = entityOperation(route);
    if (!operation && !own) continue;
    impls[route.id] = async (req) => {
      const run = () => (own ? own(req) : operation!({ workspaceId: req.auth.workspaceId, params: req.params, query: req.query, body: req.body, headers: req.headers }));
      if (route.noIdempotency && req.idempotencyKey) throw invalidField('Idempotency-Key', route.noIdempotency);
      if (!req.idempotencyKey) return run();
      // With an Idempotency-Key, the operation runs once per key; repeats get the kept answer.
      const answer = await runIdempotent(
        {
          workspaceId: req.auth.workspaceId,
          key: req.idempotencyKey,
          method: route.method,
          path: req.path,
          query: req.rawQuery,
          body: req.rawBody,
          ...conditionsOf(req.headers),
        },
        req.context,
        async () => {
          const result = await run();
          const reply = result instanceof Reply ? result : new Reply(result);
          return { status: reply.status ?? route.successStatus, body: reply.body, headers: { ...reply.headers } };
        },
      );
      return new Reply(answer.body, { ...answer.headers, ...(isReplayed(answer) ? { [REPLAYED_HEADER]: 'true' } : {}) }, answer.status);
    };
  }
  return resourceHandler(resource, impls as RouteImpls);
}
