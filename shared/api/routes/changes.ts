import * as s from '../schemas';
import { ANY_KEY, lazyRoutes, type RouteDef } from './define';

/** The change feed (the changes function). */
export const changesRoutes = lazyRoutes({
  listChanges: {
    method: 'GET',
    path: '/v1/changes',
    resource: 'changes',
    scope: ANY_KEY,
    summary: 'The change feed: every create, update and delete in the workspace, oldest first (paginated)',
    description: [
      'Returns the events of resources the key can read (their `:read` scope); the others are passed over, not refused.',
      "Follow `nextCursor`, which every page carries, the last one too: a poller that always passes the previous page's `nextCursor` sees every committed change exactly once, and the changes of one record in the order they were made.",
      'Without `cursor` or `since` the feed starts at its oldest kept event. Events are kept at least 30 days; an older cursor or `since` is 410 `CURSOR_EXPIRED`.',
    ].join(' '),
    query: s.changesQuery,
    response: s.changesPage,
    expiringCursor: true,
    successStatus: 200,
  },
} satisfies Record<string, RouteDef>);
