import { ITEM_TYPES } from '../../shared/data/item-types';
import { keys } from '../../shared/data/keys';
import { ENTITIES } from '../../shared/domain/registry';

/**
 * The item-type registry (shared/data/item-types.ts) against the entity declarations: every `_type` of the
 * table names one kind of item, and no entity's type, or sort-key prefix in the workspace partition,
 * collides with an item that is not an entity.
 */
const itemTypes = Object.values(ITEM_TYPES);
const entityTypes = ENTITIES.map((e) => e.type);

test('every item type is distinct, and no entity takes one', () => {
  expect(new Set(itemTypes).size).toBe(itemTypes.length);
  expect(new Set(entityTypes).size).toBe(entityTypes.length);
  expect(entityTypes.filter((t) => (itemTypes as readonly string[]).includes(t))).toEqual([]);
});

test("no entity's sort keys in the workspace partition can be taken for a lock, a running timer or the invoice sequence", () => {
  // the items that are not entities but live in the partition WS#<ws>, next to the entities of `pk: {}`
  const others = [keys.uniqueLock('w', 'name', 'x').SK, keys.runningTimer('w', 'u').SK, keys.invoiceSequence('w').SK].map((sk) => sk.split('#')[0]!);
  expect(others).toEqual(['UNIQUE', 'RUNNING', 'INVOICESEQ']);
  const prefixes = ENTITIES.filter((e) => !e.key.pk.prefix).map((e) => e.key.sk.prefix);
  expect(prefixes.length).toBeGreaterThan(0);
  // an entity's list reads begins_with(SK, '<prefix>#'): a collision is an item whose SK starts the same way
  expect(prefixes.filter((p) => others.includes(p!))).toEqual([]);
});
