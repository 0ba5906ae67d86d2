import type { AnyEntity } from './entity';
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
/** The name in change types of the entities that make events: `client`, ..., `time-entry`, `invoice`. */
export type ChangeResource = Dashed<Lowercase<ChangeEntity['kind']>>;
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

/** One change event as the API shows it. `data` is the record after the change (for `deleted`, its last state). */
export interface ChangeEvent {
  id: string;
  /** A change type, or the ping a webhook test sends. */
  type: ChangeType | typeof PING_TYPE;
  resource: string;
  resourceId: string;
  occurredAt: string;
  /** Its place in the workspace's feed (set when the feed is read: GET /v1/changes and webhook deliveries). */
  position?: number;
  data: Record<string, unknown>;
  /** A moved time entry: the sortKey it had before this change (`data.sortKey` is the new one). */
  previousSortKey?: string;
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
