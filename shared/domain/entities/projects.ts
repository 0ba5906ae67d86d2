import * as z from 'zod/mini';
import { defineEntity, type EntityRecord } from '../entity';
import { idOf } from '../examples';
import { colorString, currencyCode, nameString, notesString, meta } from '../fields';
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
    name: { schema: meta(nameString, { example: 'Website relaunch' }), required: true },
    clientId: { schema: idOf.client },
    color: { schema: meta(colorString, { example: '#1A73E8' }) },
    billable: { schema: meta(z.boolean(), { example: true }), default: true },
    hourlyRate: { schema: meta(z.number().check(z.gte(0), z.lte(1_000_000)), { example: 120 }) },
    currency: { schema: meta(currencyCode, { example: 'USD' }) },
    archived: { schema: meta(z.boolean(), { example: false }), default: false },
    notes: { schema: meta(notesString, { example: 'Phase 1: design and build of the new marketing site' }) },
  },
  key: { pk: {}, sk: { prefix: 'PROJECT', composite: ['id'] } },
  references: [{ field: 'clientId', target: () => clients }],
  list: { mode: 'whole', via: ['key'], bound: { maxRecords: 5_000, env: 'MAX_PROJECTS' } },
});
export type Project = EntityRecord<typeof projects>;
