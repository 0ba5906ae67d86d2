import { listChanges } from '../../shared/api/changes';
import { resourceHandler } from '../../shared/api/handler';

/** GET /v1/changes: the workspace's change feed (shared/api/changes.ts). */
export const handler = resourceHandler('changes', {
  listChanges: async ({ auth, query }) => listChanges(auth, query),
});
