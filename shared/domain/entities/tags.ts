import * as z from 'zod';
import { defineEntity, type EntityRecord } from '../entity';
import { nameString } from '../fields';

/** Tag: PK `WS#<ws>`, SK `TAG#<id>`; name unique per workspace, any case. */
export const tags = defineEntity({
  resource: 'tags',
  kind: 'Tag',
  type: 'TAG',
  description: 'Labels for time entries and favorites',
  fields: {
    name: { schema: nameString.meta({ example: 'Design' }), required: true },
    archived: { schema: z.boolean().meta({ example: false }), default: false },
  },
  key: { pk: {}, sk: { prefix: 'TAG', composite: ['id'] } },
  unique: { name: 'TAGNAME', field: 'name', message: (name) => `A tag named "${name}" already exists in this workspace` },
  list: { mode: 'whole', via: ['key'], bound: { maxRecords: 5_000, env: 'MAX_TAGS' } },
});
export type Tag = EntityRecord<typeof tags>;
