import { pluralLabel, type AnyEntity, type IndexesOf } from './entity';
import { clients } from './entities/clients';
import { favorites } from './entities/favorites';
import { invoices } from './entities/invoices';
import { projects } from './entities/projects';
import { tags } from './entities/tags';
import { tasks } from './entities/tasks';
import { timeEntries } from './entities/time-entries';
import { webhooks } from './entities/webhooks';

/**
 * Every entity of the API, in the order the API lists its resources. What is derived over all of them
 * lives here: the resource names (and so the scopes), and `usedBy` (the inverse of the references).
 */
export const ENTITIES = [clients, projects, tasks, tags, timeEntries, favorites, invoices, webhooks] as const;
export type Entity = (typeof ENTITIES)[number];
export type ResourceName = Entity['resource'];
/** Index names the entities declare (the table also has those of the API-key items: shared/data/table.ts). */
export type EntityIndexName = IndexesOf<Entity>;

export const RESOURCES = ENTITIES.map((e) => e.resource) as ResourceName[];

/**
 * The entities whose references keep a usage counter on `target`, each with how a 409 names its records
 * ("time entry(ies)"): inverted from every entity's references, so it cannot fall out of step with them.
 */
export function usedBy(target: AnyEntity, registry: readonly AnyEntity[] = ENTITIES): Array<{ type: string; label: string; entity: AnyEntity; fields: string[] }> {
  return registry
    .filter((e) => (e.references ?? []).some((r) => r.target() === target))
    .map((e) => ({
      type: e.type,
      label: pluralLabel(e),
      entity: e,
      fields: (e.references ?? []).filter((r) => r.target() === target).map((r) => r.field),
    }));
}
