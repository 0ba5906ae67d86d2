import { listTimeEntries, timeEntries } from '../../shared/domain/entities/time-entries';
import { resourceHandler } from '../../shared/api/handler';
import { crudImpls } from '../../shared/api/crud';

/**
 * Time entries: create/get/update/delete through the generic repository (get/put/delete locate the item
 * by id + sortKey), and the paginated, index-backed list (shared/entities/time-entries.ts).
 */
export const handler = resourceHandler('time-entries', {
  ...crudImpls(timeEntries, { list: 'listTimeEntries', create: 'createTimeEntry', get: 'getTimeEntry', update: 'updateTimeEntry', delete: 'deleteTimeEntry' }),
  listTimeEntries: async ({ auth, query }) => {
    const page = await listTimeEntries(auth.workspaceId, query);
    return { items: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), hasMore: page.hasMore };
  },
});
