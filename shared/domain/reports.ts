import * as z from 'zod/mini';
import { EXAMPLE_IDS } from './examples';
import { dateOrDateTime, meta } from './fields';
import { timeEntryFilters, type TimeEntryFilters } from './time-entry-filters';

/**
 * The summary report's shapes, declared once (GET /v1/reports/summary and its CSV): the time-entry
 * filters (shared by the time-entry list and the report), the request (the route's query), the engine's
 * input and the answer. The engine (shared/services/reports.ts), the route (shared/api/reports.ts), the
 * CSV writer (shared/api/csv.ts) and the OpenAPI document take their types from here (z.infer), so a
 * field added here reaches all of them, and a filter the engine does not place is a type error there.
 */

export { TIME_ENTRY_FILTERS, timeEntryFilters, type TimeEntryFilter, type TimeEntryFilters } from './time-entry-filters';

export const REPORT_GROUPINGS = ['user', 'project', 'client', 'task', 'tag', 'day', 'week', 'month'] as const;
export type ReportGrouping = (typeof REPORT_GROUPINGS)[number];
const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};
export const reportQuery = z.strictObject({
  startDate: meta(dateOrDateTime, { description: 'First day (or instant) of the period, on startTime (inclusive)' }),
  endDate: meta(dateOrDateTime, {
    description: 'Last day (or instant) of the period, on startTime (inclusive; a date alone covers the whole day); at most 1,096 days after startDate',
  }),
  groupBy: meta(
    z.optional(
      z
        // typed as groupings here, checked to be groupings by the refinements that follow (a 400 otherwise)
        .pipe(
          z.string().check(z.maxLength(64)),
          z.transform((v) => v.split(',').map((g) => g.trim()) as ReportGrouping[]),
        )
        .check(
          z.refine((gs) => gs.length >= 1 && gs.length <= 2, 'one or two groupings, comma separated'),
          z.refine((gs) => gs.every((g) => (REPORT_GROUPINGS as readonly string[]).includes(g)), `each grouping must be one of ${REPORT_GROUPINGS.join(', ')}`),
          z.refine((gs) => new Set(gs).size === gs.length, 'the two groupings must differ'),
        ),
    ),
    { description: `One or two of ${REPORT_GROUPINGS.join(', ')}, comma separated (e.g. project,user); none: totals only`, example: 'project,user' },
  ),
  ...timeEntryFilters.shape,
  invoiced: meta(timeEntryFilters.shape.invoiced, { description: 'Only invoiced (true) or only not invoiced (false) entries; read from the entries, not the rollups' }),
  timeZone: meta(z.optional(z.string().check(z.maxLength(64), z.refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin'))), {
    description: 'IANA time zone of the dates and of the day, week and month groups (default UTC)',
    example: 'Europe/Berlin',
  }),
});

export const reportAmount = z.object({ currency: meta(z.string().check(z.maxLength(3)), { example: 'USD' }), amount: meta(z.number(), { example: 5400 }) });
/** Bounds declared for clients (no report comes near them: groups are bounded by the workspace's records and the 1,096-day range). */
const MAX_REPORT_GROUPS = 100_000;
const MAX_CURRENCIES = 200;
const reportTotalsShape = {
  entries: meta(z.number().check(z.int()), { example: 42 }),
  durationMinutes: meta(z.number().check(z.int()), { example: 3150 }),
  billableMinutes: meta(z.number().check(z.int()), { example: 2700 }),
  amounts: meta(z.array(reportAmount).check(z.maxLength(MAX_CURRENCIES)), { description: "Billable minutes times the project's hourlyRate, per currency (rounded to cents)" }),
};
const groupFields = {
  key: meta(z.nullable(z.string().check(z.maxLength(512))), {
    description: 'The id (user, project, client, task, tag), the date (day), the Monday of the ISO week (week) or YYYY-MM (month); null: entries without one',
    example: EXAMPLE_IDS.project,
  }),
  name: meta(z.nullable(z.string().check(z.maxLength(512))), {
    description: "The record's name, the day's date, the week (2026-W10) or the month; null when the key is",
    example: 'Website relaunch',
  }),
};
/** Totals of a report, of a group and of a subgroup. */
export const reportTotals = z.object(reportTotalsShape);
export const reportSubGroup = meta(
  z.object({ key: meta(groupFields.key, { example: EXAMPLE_IDS.user }), name: meta(groupFields.name, { example: EXAMPLE_IDS.user }), ...reportTotalsShape }),
  { id: 'ReportSubGroup' },
);
export const reportGroup = meta(z.object({ ...groupFields, ...reportTotalsShape, groups: z.optional(z.array(reportSubGroup).check(z.maxLength(MAX_REPORT_GROUPS))) }), {
  id: 'ReportGroup',
});
export const summaryReportSchema = meta(
  z.object({
    startDate: meta(z.string().check(z.maxLength(64)), { description: 'The period as asked', example: '2026-03-01' }),
    endDate: meta(z.string().check(z.maxLength(64)), { example: '2026-03-31' }),
    groupBy: meta(z.array(z.enum(REPORT_GROUPINGS)).check(z.maxLength(2)), { example: ['project', 'user'] }),
    timeZone: meta(z.optional(z.string().check(z.maxLength(64))), { example: 'Europe/Berlin' }),
    totals: reportTotals,
    groups: z.array(reportGroup).check(z.maxLength(MAX_REPORT_GROUPS)),
    runningEntries: meta(z.number().check(z.int()), { description: 'Running entries that started in the period (not counted above)', example: 1 }),
  }),
  { id: 'SummaryReport' },
);

/** What the engine computes: the route's query, its filters gathered (shared/api/reports.ts). */
export interface ReportRequest {
  startDate: string;
  endDate: string;
  groupBy: ReportGrouping[];
  timeZone?: string;
  filters: TimeEntryFilters;
}
export type Amount = z.output<typeof reportAmount>;
export type ReportTotals = z.output<typeof reportTotals>;
export type ReportSubGroup = z.output<typeof reportSubGroup>;
export type ReportGroup = z.output<typeof reportGroup>;
export type SummaryReport = z.output<typeof summaryReportSchema>;
