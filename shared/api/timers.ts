import { repository } from '../data/repository';
import { favorites, FROM_FAVORITE } from '../domain/entities/favorites';
import { timeEntries, type TimeEntry } from '../domain/entities/time-entries';
import { conflict } from '../domain/errors';
import { pickFields } from '../domain/fields';
import { locator, recordReply } from './crud';
import type { RouteImpls } from './handler';

/**
 * The timer routes, bound as overrides of the time-entries function (as webhooks bind theirs): stop a
 * running entry, start one from a favorite. The running-timer rule itself (one running entry per user,
 * the previous one stopped in the same write) is the time entries' companion, shared/services/timers.ts.
 */
export const timerOperations: RouteImpls = {
  // A merge of endTime into an entry that must still be running when read (the write is guarded by that read).
  stopTimeEntry: async ({ auth, params, query, body }) => {
    const endTime = body.endTime ?? new Date().toISOString();
    const notRunning = (cur: TimeEntry) => {
      if (cur.endTime !== undefined) throw conflict(`Time entry ${cur.id} is not running (it ended at ${cur.endTime})`);
    };
    return recordReply(await repository(timeEntries).update(auth.workspaceId, locator({ params, query }), { endTime }, { assert: notRunning }));
  },
  // The route's entity is the favorite (404 names it); the record made is a time entry.
  startFavorite: async ({ auth, params, query, body }) => {
    const favorite = await repository(favorites).get(auth.workspaceId, locator({ params, query }));
    const startTime = body.startTime ?? new Date().toISOString();
    return recordReply(await repository(timeEntries).create(auth.workspaceId, { ...pickFields(favorite, FROM_FAVORITE), startTime }));
  },
};
