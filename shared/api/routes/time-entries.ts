import { EXAMPLE_SORT_KEY, EXAMPLE_START } from '../../domain/examples';
import { dateOrDateTime, dateTimeString, meta } from '../../domain/fields';
import { timeEntryFilters } from '../../domain/time-entry-filters';
import { userIdQuery } from './favorites';
import * as z from 'zod/mini';
import { favorites } from '../../domain/entities/favorites';
import { timeEntries } from '../../domain/entities/time-entries';
import * as s from '../schemas';
import { crudRoutes, later, lazyRoutes, type RouteDef } from './define';

/**
 * The time-entry list's query: its range, the time-entry filters (one schema, shared with the summary
 * report: shared/domain/reports.ts) and `running` (paging parameters are added by the route table).
 */
export const timeEntryListQuery = z.strictObject({
  startDate: meta(z.optional(dateOrDateTime), { description: 'Entries starting at or after this date (inclusive)' }),
  endDate: meta(z.optional(dateOrDateTime), { description: 'Entries starting at or before this date (inclusive; a date alone covers the whole day)' }),
  ...timeEntryFilters.shape,
  running: meta(z.optional(z.literal('true')), { description: 'true: only running entries (no endTime; at most one per user)' }),
});
/** A time entry's sortKey: `<startTime, UTC, ms>#<id>` (shared/domain/entities/time-entries.ts). */
export const SORT_KEY_REGEX = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)#([^#]{1,128})$/;
export const sortKeyQuery = z.strictObject({
  sortKey: meta(
    z
      .string()
      .check(
        z.maxLength(512),
        z.regex(SORT_KEY_REGEX, 'must be the sortKey returned with the entry, e.g. 2026-01-31T09:00:00.000Z#01JB2Z3Y4X5W6V7T8S9R0Q1P2N (URL-encode # as %23)'),
      ),
    { description: "The entry's sortKey, as returned with it (URL-encode # as %23)", example: EXAMPLE_SORT_KEY },
  ),
});
/** POST /v1/time-entries/{id}/stop: the optional body. */
export const stopBody = z.strictObject({
  endTime: meta(z.optional(dateTimeString), { description: 'When the timer stopped (default: now); not before its startTime', example: '2026-03-02T10:30:00.000Z' }),
});
/** POST /v1/favorites/{id}/start: the optional body. */
export const startBody = z.strictObject({ startTime: meta(z.optional(dateTimeString), { description: 'When the timer started (default: now)', example: EXAMPLE_START }) });

/** What differs from the plain five routes of time entries. */
export const timeEntriesOptions = {
  listQuery: timeEntryListQuery,
  idQuery: sortKeyQuery,
  listSummary: 'List time entries, newest startTime first (paginated); as CSV: GET /v1/time-entries.csv',
  listCsv: true,
  updateSummary: 'Update a time entry (merge); changing startTime moves it and returns a new sortKey',
};
export const timeEntriesCrudRoutes = crudRoutes(timeEntries, timeEntriesOptions);

/** Timers: stop a running time entry; start one from a favorite (served by the time-entries function, bound as its overrides: shared/api/timers.ts). */
export const timerRoutes = lazyRoutes({
  stopTimeEntry: {
    entity: timeEntries,
    method: 'POST',
    path: '/v1/time-entries/{id}/stop',
    resource: 'time-entries',
    scope: 'time-entries:write',
    summary: 'Stop a running time entry (409 when it is not running)',
    description: "Sets `endTime` (the body's, default now; not before `startTime`) on an entry that has none. The body is optional.",
    params: later(() => s.idParamsFor(timeEntries.resource)),
    // Addressed as the entity's other id routes are.
    query: timeEntriesOptions.idQuery,
    body: stopBody,
    bodyOptional: true,
    response: later(() => s.responseSchema(timeEntries)),
    successStatus: 200,
    conflict: true,
    etag: true,
    kind: timeEntries.kind,
  },
  startFavorite: {
    entity: favorites,
    // what its 201 made (the Location header names a time entry, not a favorite)
    creates: timeEntries,
    method: 'POST',
    path: '/v1/favorites/{id}/start',
    resource: 'time-entries',
    scope: 'time-entries:write',
    // It reads the favorite (its name and notes are in the answer; 404 vs 201 tells whether it exists).
    alsoScopes: ['favorites:read'],
    summary: "Start a timer from a favorite: a new running time entry with the favorite's fields",
    description:
      "Creates a running time entry (no `endTime`) for the favorite's user with its name, project, client, task, tags, billable and notes, starting at the body's `startTime` (default now). The user's running entry, if any, is stopped at that instant in the same write (409 when it started later). The body is optional.",
    params: later(() => s.idParamsFor(favorites.resource)),
    query: userIdQuery,
    body: startBody,
    bodyOptional: true,
    response: later(() => s.responseSchema(timeEntries)),
    successStatus: 201,
    conflict: true,
    etag: true,
    kind: favorites.kind,
  },
} satisfies Record<string, RouteDef>);

/**
 * CSV as operations of their own (shared/api/csv.ts): the JSON route's answer as RFC 4180 CSV, whatever
 * the Accept header says. `Accept: text/csv` on the JSON route gives the same CSV.
 */
const CSV_TYPE = 'text/csv; charset=utf-8' as const;
export const timeEntriesCsvRoutes = lazyRoutes({
  listTimeEntriesCsv: {
    entity: timeEntries,
    operation: 'list',
    method: 'GET',
    path: '/v1/time-entries.csv',
    resource: 'time-entries',
    scope: 'time-entries:read',
    summary: 'List time entries as CSV, newest startTime first (paginated: the next cursor in the Next-Cursor header)',
    description:
      'The page of `GET /v1/time-entries` with the same parameters, as RFC 4180 CSV: a header row, then one row per entry (`tagIds` joined with `;`, an absent value empty). The next page: pass the `Next-Cursor` header as `cursor`; no header on the last page.',
    query: later(() => z.strictObject({ limit: s.limitParam, cursor: s.cursorParam, ...timeEntryListQuery.shape })),
    response: s.textSchema,
    produces: CSV_TYPE,
    csvOf: 'listTimeEntries',
    successStatus: 200,
  },
} satisfies Record<string, RouteDef>);

/** The time-entries function's routes: the five of its entity, the timers, the list as CSV. */
export const timeEntriesRoutes = { ...timeEntriesCrudRoutes, ...timerRoutes, ...timeEntriesCsvRoutes };
