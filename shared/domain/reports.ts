import * as z from 'zod';
import { EXAMPLE_IDS, idOf } from './examples';
import { booleanParam, dateOrDateTime } from './fields';

/**
 * The summary report's shapes, declared once (GET /v1/reports/summary and its CSV): the time-entry
 * filters (shared by the time-entry list and the report), the request (the route's query), the engine's
 * input and the answer. The engine (shared/services/reports.ts), the route (shared/api/reports.ts), the
 * CSV writer (shared/api/csv.ts) and the OpenAPI document take their types from here (z.infer), so a
 * field added here reaches all of them, and a filter the engine does not place is a type error there.
 */

/** The time-entry filters: the list's (GET /v1/time-entries) and the report's, one schema. */
export const timeEntryFilters = z.strictObject({
  userId: idOf.user.optional(),
  projectId: idOf.project.optional(),
  clientId: idOf.client.optional(),
  taskId: idOf.task.optional().meta({ description: "Entries of this task (read through the task's project)" }),
  tagId: idOf.tag.optional().meta({ description: 'Entries carrying this tag' }),
  billable: booleanParam.optional().meta({ description: 'Only billable (true) or only non-billable (false) entries' }),
  invoiced: booleanParam.optional().meta({ description: 'Only entries on an invoice (true: `invoiceId` set) or only entries on none (false)' }),
});
export type TimeEntryFilters = z.output<typeof timeEntryFilters>;
export type TimeEntryFilter = keyof TimeEntryFilters;
export const TIME_ENTRY_FILTERS = timeEntryFilters.keyof().options;

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
  startDate: dateOrDateTime.meta({ description: 'First day (or instant) of the period, on startTime (inclusive)' }),
  endDate: dateOrDateTime.meta({
    description: 'Last day (or instant) of the period, on startTime (inclusive; a date alone covers the whole day); at most 1,096 days after startDate',
  }),
  groupBy: z
    .string()
    .max(64)
    // typed as groupings here, checked to be groupings by the refinements that follow (a 400 otherwise)
    .transform((v) => v.split(',').map((g) => g.trim()) as ReportGrouping[])
    .refine((gs) => gs.length >= 1 && gs.length <= 2, 'one or two groupings, comma separated')
    .refine((gs) => gs.every((g) => (REPORT_GROUPINGS as readonly string[]).includes(g)), `each grouping must be one of ${REPORT_GROUPINGS.join(', ')}`)
    .refine((gs) => new Set(gs).size === gs.length, 'the two groupings must differ')
    .optional()
    .meta({ description: `One or two of ${REPORT_GROUPINGS.join(', ')}, comma separated (e.g. project,user); none: totals only`, example: 'project,user' }),
  ...timeEntryFilters.shape,
  invoiced: timeEntryFilters.shape.invoiced.meta({ description: 'Only invoiced (true) or only not invoiced (false) entries; read from the entries, not the rollups' }),
  timeZone: z
    .string()
    .max(64)
    .refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin')
    .optional()
    .meta({ description: 'IANA time zone of the dates and of the day, week and month groups (default UTC)', example: 'Europe/Berlin' }),
});

export const reportAmount = z.object({ currency: z.string().max(3).meta({ example: 'USD' }), amount: z.number().meta({ example: 5400 }) });
/** Bounds declared for clients (no report comes near them: groups are bounded by the workspace's records and the 1,096-day range). */
const MAX_REPORT_GROUPS = 100_000;
const MAX_CURRENCIES = 200;
const reportTotalsShape = {
  entries: z.number().int().meta({ example: 42 }),
  durationMinutes: z.number().int().meta({ example: 3150 }),
  billableMinutes: z.number().int().meta({ example: 2700 }),
  amounts: z.array(reportAmount).max(MAX_CURRENCIES).meta({ description: "Billable minutes times the project's hourlyRate, per currency (rounded to cents)" }),
};
const groupFields = {
  key: z.string().max(512).nullable().meta({
    description: 'The id (user, project, client, task, tag), the date (day), the Monday of the ISO week (week) or YYYY-MM (month); null: entries without one',
    example: EXAMPLE_IDS.project,
  }),
  name: z
    .string()
    .max(512)
    .nullable()
    .meta({ description: "The record's name, the day's date, the week (2026-W10) or the month; null when the key is", example: 'Website relaunch' }),
};
/** Totals of a report, of a group and of a subgroup. */
export const reportTotals = z.object(reportTotalsShape);
export const reportSubGroup = z
  .object({ key: groupFields.key.meta({ example: EXAMPLE_IDS.user }), name: groupFields.name.meta({ example: EXAMPLE_IDS.user }), ...reportTotalsShape })
  .meta({ id: 'ReportSubGroup' });
export const reportGroup = z.object({ ...groupFields, ...reportTotalsShape, groups: z.array(reportSubGroup).max(MAX_REPORT_GROUPS).optional() }).meta({ id: 'ReportGroup' });
export const summaryReportSchema = z
  .object({
    startDate: z.string().max(64).meta({ description: 'The period as asked', example: '2026-03-01' }),
    endDate: z.string().max(64).meta({ example: '2026-03-31' }),
    groupBy: z
      .array(z.enum(REPORT_GROUPINGS))
      .max(2)
      .meta({ example: ['project', 'user'] }),
    timeZone: z.string().max(64).optional().meta({ example: 'Europe/Berlin' }),
    totals: reportTotals,
    groups: z.array(reportGroup).max(MAX_REPORT_GROUPS),
    runningEntries: z.number().int().meta({ description: 'Running entries that started in the period (not counted above)', example: 1 }),
  })
  .meta({ id: 'SummaryReport' });

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
