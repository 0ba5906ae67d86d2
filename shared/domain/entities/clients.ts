import * as z from 'zod';
import { defineEntity, type EntityRecord } from '../entity';
import { currencyCode, LIMITS, multiLine, nameString, notesString } from '../fields';

/** Client: PK `WS#<ws>`, SK `CLIENT#<id>`; name unique per workspace, any case (lock item). */
export const clients = defineEntity({
  resource: 'clients',
  kind: 'Client',
  type: 'CLIENT',
  description: 'The customers work is done for',
  fields: {
    name: { schema: nameString.meta({ example: 'Acme Corp' }), required: true },
    email: { schema: z.email().max(LIMITS.name).meta({ example: 'billing@acme.example' }) },
    address: { schema: multiLine(z.string().trim().max(1000)).meta({ example: '1 Market Street\nSan Francisco, CA 94105' }) },
    currency: { schema: currencyCode.meta({ example: 'USD' }) },
    notes: { schema: notesString.meta({ example: 'Net 30; invoices go to the billing address' }) },
    archived: { schema: z.boolean().meta({ example: false }), default: false },
  },
  key: { pk: {}, sk: { prefix: 'CLIENT', composite: ['id'] } },
  unique: { name: 'CLIENTNAME', field: 'name', message: (name) => `A client named "${name}" already exists in this workspace` },
  list: { mode: 'whole', via: ['key'], bound: { maxRecords: 5_000, env: 'MAX_CLIENTS' } },
});
export type Client = EntityRecord<typeof clients>;
