import { listChanges } from '../../shared/api/changes';
import { resourceHandler } from '../../shared/api/handler';
import { changesRoutes } from '../../shared/api/routes/changes';

/** GET /v1/changes: the workspace's change feed (shared/api/changes.ts). */
export const handler = resourceHandler(changesRoutes, {
  listChanges: async ({ auth, query }) => listChanges(auth, query),
});
