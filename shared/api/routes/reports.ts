import { reportQuery, summaryReportSchema } from '../../domain/reports';
import * as s from '../schemas';
import { lazyRoutes, type RouteDef } from './define';

export const reportRoutes = lazyRoutes({
  getSummaryReport: {
    method: 'GET',
    path: '/v1/reports/summary',
    resource: 'reports',
    scope: 'time-entries:read',
    summary: 'Totals of tracked time over a period, grouped by one or two of user, project, client, task, tag, day, week, month',
    description: [
      'Counts finished time entries whose `startTime` falls in `startDate`..`endDate` (both required, inclusive; a date alone is the whole day, in `timeZone` when given, UTC otherwise). Running entries are left out and counted in `runningEntries`.',
      "`amounts` are billable minutes times the project's `hourlyRate`, per currency (the project's, else its client's; `XXX` when neither has one); entries of projects without a rate add none.",
      'An entry with several tags counts once in each `tag` group; entries without a project, client, task or tag are in the group whose `key` is null.',
      'As CSV: `GET /v1/reports/summary.csv` (or `Accept: text/csv` here).',
    ].join(' '),
    query: reportQuery,
    response: summaryReportSchema,
    csv: true,
    successStatus: 200,
  },
} satisfies Record<string, RouteDef>);

const CSV_TYPE = 'text/csv; charset=utf-8' as const;
/** The summary report as CSV (shared/api/csv.ts). */
export const reportCsvRoutes = lazyRoutes({
  getSummaryReportCsv: {
    method: 'GET',
    path: '/v1/reports/summary.csv',
    resource: 'reports',
    scope: 'time-entries:read',
    summary: 'The summary report as CSV',
    description:
      "The report of `GET /v1/reports/summary` with the same parameters, as RFC 4180 CSV: a header row; a `level` column (`total`, `group`, `subgroup`), each grouping's key and name, `entries`, `durationMinutes`, `billableMinutes`, and one `amount_<currency>` column per currency.",
    query: reportQuery,
    response: s.textSchema,
    produces: CSV_TYPE,
    csvOf: 'getSummaryReport',
    successStatus: 200,
  },
} satisfies Record<string, RouteDef>);

/** The reports function's routes. */
export const reportsRoutes = { ...reportRoutes, ...reportCsvRoutes };
