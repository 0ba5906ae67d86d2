import { clientFields } from '../schemas';
import { Entity } from '../data/repository';

/** Client: PK WS#<ws>, SK CLIENT#<id>; name unique per workspace, case-insensitive (lock item). */
export const clients = new Entity({
  kind: 'Client',
  type: 'CLIENT',
  fields: clientFields,
  unique: {
    name: 'CLIENTNAME',
    value: (rec) => String(rec.name).trim().toLowerCase(),
    message: (rec) => `A client named "${String(rec.name)}" already exists in this workspace`,
  },
  usedByLabel: { PROJECT: 'project(s)', TIMEENTRY: 'time entry(ies)', FAVORITE: 'favorite(s)', INVOICE: 'invoice(s)' },
});
