import * as z from 'zod/mini';
import { defineEntity, type EntityRecord } from '../entity';
import { currencyCode, LIMITS, multiLine, nameString, notesString, meta } from '../fields';

/** Client: PK `WS#<ws>`, SK `CLIENT#<id>`; name unique per workspace, any case (lock item). */
export const clients = defineEntity({
  resource: 'clients',
  kind: 'Client',
  type: 'CLIENT',
  description: 'The customers work is done for',
  fields: {
    name: { schema: meta(nameString, { example: 'Acme Corp' }), required: true },
    email: { schema: meta(z.email().check(z.maxLength(LIMITS.name)), { example: 'billing@acme.example' }) },
    address: { schema: meta(multiLine(z.string().check(z.trim(), z.maxLength(1000))), { example: '1 Market Street\nSan Francisco, CA 94105' }) },
    currency: { schema: meta(currencyCode, { example: 'USD' }) },
    notes: { schema: meta(notesString, { example: 'Net 30; invoices go to the billing address' }) },
    archived: { schema: meta(z.boolean(), { example: false }), default: false },
  },
  key: { pk: {}, sk: { prefix: 'CLIENT', composite: ['id'] } },
  unique: { name: 'CLIENTNAME', field: 'name', message: (name) => `A client named "${name}" already exists in this workspace` },
  list: { mode: 'whole', via: ['key'], bound: { maxRecords: 5_000, env: 'MAX_CLIENTS' } },
});
export type Client = EntityRecord<typeof clients>;
