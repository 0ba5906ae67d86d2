import { clientFields } from '../../api/schemas';
import { Entity, uniqueIgnoringCase } from '../../data/repository';

/** Client: PK WS#<ws>, SK CLIENT#<id>; name unique per workspace, case-insensitive (lock item). */
export const clients = new Entity({
  kind: 'Client',
  type: 'CLIENT',
  fields: clientFields,
  unique: uniqueIgnoringCase('CLIENTNAME', 'name', (name) => `A client named "${name}"`),
  usedBy: { PROJECT: 'project(s)', TIMEENTRY: 'time entry(ies)', FAVORITE: 'favorite(s)', INVOICE: 'invoice(s)' },
});
