import type { SummaryReport, TimeEntryFilters } from '../domain/reports';
import { summaryReport } from '../services/reports';
import { CSV_FORMATS } from './csv';
import { resourceHandler } from './handler';
import { reportsRoutes } from './routes/reports';
import type { InputOf, Routes } from './routes';

/** GET /v1/reports/summary: the validated query as a report request (shared/services/reports.ts computes it). */
export async function getSummaryReport(workspaceId: string, q: InputOf<Routes['getSummaryReport']>['query']): Promise<SummaryReport> {
  const { startDate, endDate, groupBy, timeZone, ...filters } = q;
  return summaryReport(workspaceId, {
    startDate,
    endDate,
    groupBy: groupBy ?? [],
    ...(timeZone ? { timeZone } : {}),
    filters: definedOnly(filters),
  });
}

/** The filters the request sent (an absent one is no key at all). */
const definedOnly = (filters: TimeEntryFilters): TimeEntryFilters => Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined));

/** The reports function's handler (functions/reports/index.ts). */
export const reportsHandler = () =>
  resourceHandler(
    reportsRoutes,
    {
      getSummaryReport: async ({ auth, query }) => getSummaryReport(auth.workspaceId, query),
      getSummaryReportCsv: async ({ auth, query }) => getSummaryReport(auth.workspaceId, query),
    },
    { csv: CSV_FORMATS },
  );
