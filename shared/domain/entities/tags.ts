import * as z from 'zod/mini';
import { defineEntity, type EntityRecord } from '../entity';
import { nameString, meta } from '../fields';

/** Tag: PK `WS#<ws>`, SK `TAG#<id>`; name unique per workspace, any case. */
export const tags = defineEntity({
  resource: 'tags',
  kind: 'Tag',
  type: 'TAG',
  description: 'Labels for time entries and favorites',
  fields: {
    name: { schema: meta(nameString, { example: 'Design' }), required: true },
    archived: { schema: meta(z.boolean(), { example: false }), default: false },
  },
  key: { pk: {}, sk: { prefix: 'TAG', composite: ['id'] } },
  unique: { name: 'TAGNAME', field: 'name', message: (name) => `A tag named "${name}" already exists in this workspace` },
  list: { mode: 'whole', via: ['key'], bound: { maxRecords: 5_000, env: 'MAX_TAGS' } },
});
export type Tag = EntityRecord<typeof tags>;
