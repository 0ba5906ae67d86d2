import type { AnyEntity, EntityRecord } from './entity';
import { invalidField } from './errors';
import { ENTITIES, type Entity } from './registry';
import type { PING_TYPE } from './webhooks';

/**
 * The change feed's vocabulary (docs/data-model.md, "Change feed"): every create, update and delete of a
 * record through the API is one change event, `<resource>.created|updated|deleted`, where `<resource>` is
 * the entity's singular name in the path's style (`time-entry`, `client`).
 */
export const CHANGE_ACTIONS = ['created', 'updated', 'deleted'] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

/** The entities whose writes make events, as a type: all but those declared `changes: false` (webhook endpoints). */
export type ChangeEntity = Entity extends infer E ? (E extends { changes?: infer X } ? (false extends X ? never : E) : E) : never;
type Dashed<S extends string> = S extends `${infer A} ${infer B}` ? `${A}-${Dashed<B>}` : S;
/** An entity's name in change types, from its declared kind: `Time entry` -> `time-entry`. */
export type ChangeResourceOf<E extends { kind: string }> = Dashed<Lowercase<E['kind']>>;
/** The name in change types of the entities that make events: `client`, ..., `time-entry`, `invoice`. */
export type ChangeResource = ChangeResourceOf<ChangeEntity>;
/** A change type: `client.created`, ..., `invoice.deleted`. */
export type ChangeType = `${ChangeResource}.${ChangeAction}`;

/**
 * The entity's name in change types: its kind in kebab case ('Time entry' -> 'time-entry'). Typed as the
 * registry's names: the repository calls it with the entities of the registry only.
 */
export const changeResource = (e: AnyEntity): ChangeResource => e.kind.toLowerCase().replace(/ /g, '-') as ChangeResource;

/** The entities whose writes make events: all but those declared `changes: false` (webhook endpoints). */
export const CHANGE_ENTITIES: readonly AnyEntity[] = ENTITIES.filter((e: AnyEntity) => e.changes !== false);
/** Every change type, in registry order: `client.created`, ..., `invoice.deleted`. */
export const CHANGE_TYPES: readonly ChangeType[] = CHANGE_ENTITIES.flatMap((e) => CHANGE_ACTIONS.map((a): ChangeType => `${changeResource(e)}.${a}`));
/** The entity of a change resource name. */
export const entityOfChange = (resource: string): AnyEntity | undefined => CHANGE_ENTITIES.find((e) => changeResource(e) === resource);

/** The record type of each change resource, derived from the registry: `client` -> Client, `time-entry` -> TimeEntry, ... */
type ChangeRecords = { [E in ChangeEntity as ChangeResourceOf<E>]: EntityRecord<E> };
/**
 * What an event's `data` carries, per action: the record after the change as its GET returns it; for
 * `deleted`, the record's last state (a deletion carries what the record was when it went).
 */
export interface ChangeData<R extends ChangeResource> {
  created: ChangeRecords[R];
  updated: ChangeRecords[R];
  deleted: ChangeRecords[R];
}

interface EventBase {
  id: string;
  /** The id of the record that changed. */
  resourceId: string;
  occurredAt: string;
  /** Its place in the workspace's feed (set when the feed is read: GET /v1/changes and webhook deliveries). */
  position?: number;
}
/** The event of one change type: `client.created` carries a Client, `time-entry.deleted` the entry's last state. */
export type ChangeEventOf<R extends ChangeResource, A extends ChangeAction> = EventBase & {
  type: `${R}.${A}`;
  resource: R;
  data: ChangeData<R>[A];
} & (A extends 'updated' ? { /** A moved time entry: the sortKey it had before this change (`data.sortKey` is the new one). */ previousSortKey?: string } : unknown);

/** One change event as the API shows it: a union discriminated by `type` (and `resource`), one member per change type. */
export type EntityChangeEvent = { [R in ChangeResource]: { [A in ChangeAction]: ChangeEventOf<R, A> }[ChangeAction] }[ChangeResource];
/** The event of a change type, e.g. `ChangeEventFor<'invoice.created'>`. */
export type ChangeEventFor<T extends ChangeType> = Extract<EntityChangeEvent, { type: T }>;

/** The event a webhook test sends (`POST /v1/webhooks/{id}/test`): not in the feed, delivered to one endpoint. */
export interface PingEvent extends EventBase {
  type: typeof PING_TYPE;
  resource: 'webhook';
  data: { webhookId: string; url: string };
}
/** What a webhook delivers: a change event, or the ping. */
export type ChangeEvent = EntityChangeEvent | PingEvent;

/** The change a record write makes: its event without the id, resource, time and position (shared/data/changes.ts adds them). */
export type Change = EntityChangeEvent extends infer C ? (C extends EntityChangeEvent ? Omit<C, 'id' | 'resource' | 'occurredAt' | 'position'> : never) : never;

/**
 * The change of a record of `entity` (generic code such as the repository, which holds an entity and its
 * record but not their names as literal types). The one place the pair is asserted: the type is built from
 * the entity's own change resource and the record is the entity's, so each is the other's member.
 */
export function changeOf<E extends AnyEntity>(entity: E, action: ChangeAction, resourceId: string, data: EntityRecord<E>, previousSortKey?: string): Change {
  const type: ChangeType = `${changeResource(entity)}.${action}`;
  const record: EntityRecord<AnyEntity> = data;
  return { type, resourceId, data: record, ...(previousSortKey !== undefined ? { previousSortKey } : {}) } as Change;
}

/**
 * The event of a change, with its id and time (the feed's writer). Its fields in this order, which is the
 * order of the JSON the feed and the webhooks send.
 */
export function eventOf(change: Change, id: string, occurredAt: string): EntityChangeEvent {
  const resource = change.type.slice(0, change.type.indexOf('.'));
  const event = {
    id,
    type: change.type,
    resource,
    resourceId: change.resourceId,
    occurredAt,
    data: change.data,
    ...('previousSortKey' in change && change.previousSortKey !== undefined ? { previousSortKey: change.previousSortKey } : {}),
  };
  // `resource` is the type's prefix, so the event is the member of the change's type.
  return event as EntityChangeEvent;
}

/** Events are kept at least this long; older cursors and `since` values are refused (410 CURSOR_EXPIRED). */
export const CHANGE_RETENTION_DAYS = 30;
export const CHANGE_RETENTION_MS = CHANGE_RETENTION_DAYS * 86_400_000;
/** Items live one day longer than the retention promised, so a cursor still accepted never finds its next events gone. */
export const CHANGE_ITEM_LIFETIME_MS = CHANGE_RETENTION_MS + 86_400_000;

/**
 * The `types` filter: a comma list of change types, `<resource>.*` or `*`. Returns the predicate over
 * change types; an unknown type is a 400 naming it (a typo must not silently filter everything out).
 */
export function changeTypeFilter(list: string | undefined, field = 'types'): (type: string) => boolean {
  if (list === undefined) return () => true;
  return changeTypeMatcher(list.split(','), field);
}

/** The same, over a list of patterns (a webhook's `events`); `field` names the request field in a 400. */
export function changeTypeMatcher(patterns: readonly string[], field = 'events'): (type: string) => boolean {
  const wanted = new Set<string>();
  for (const raw of patterns) {
    const t = raw.trim();
    if (t === '*') return () => true;
    const wildcard = /^([a-z-]+)\.\*$/.exec(t);
    if (wildcard && entityOfChange(wildcard[1]!)) {
      for (const a of CHANGE_ACTIONS) wanted.add(`${wildcard[1]}.${a}`);
    } else if (CHANGE_TYPES.some((c) => c === t)) {
      wanted.add(t);
    } else {
      throw invalidField(field, `unknown change type "${t.slice(0, 64)}"; use ${CHANGE_TYPES[0]}, ${changeResource(CHANGE_ENTITIES[0]!)}.* or *`);
    }
  }
  return (type) => wanted.has(type);
}
