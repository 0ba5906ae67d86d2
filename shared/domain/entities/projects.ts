import * as z from 'zod';
import { defineEntity, type EntityRecord } from '../entity';
import { colorString, currencyCode, idString, nameString, notesString } from '../fields';
import { clients } from './clients';

/**
 * Project: PK `WS#<ws>`, SK `PROJECT#<id>`, optionally of a client (a usage counter on the client). No
 * name lock: product.md makes client, tag and (per project) task names unique, not project names (two
 * clients may each have a "Website" project).
 */
export const projects = defineEntity({
  resource: 'projects',
  kind: 'Project',
  type: 'PROJECT',
  description: 'Projects, optionally of a client',
  fields: {
    name: { schema: nameString, required: true },
    clientId: { schema: idString },
    color: { schema: colorString },
    billable: { schema: z.boolean(), default: true },
    hourlyRate: { schema: z.number().min(0).max(1_000_000) },
    currency: { schema: currencyCode },
    archived: { schema: z.boolean(), default: false },
    notes: { schema: notesString },
  },
  key: { pk: {}, sk: { prefix: 'PROJECT', composite: ['id'] } },
  references: [{ field: 'clientId', target: () => clients }],
  list: { mode: 'whole', via: ['key'], bound: { maxRecords: 5_000, env: 'MAX_PROJECTS' } },
});
export type Project = EntityRecord<typeof projects>;
