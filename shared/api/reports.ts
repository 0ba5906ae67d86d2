import { summaryReport, type Grouping, type ReportFilters, type SummaryReport } from '../data/reports';
import { resourceHandler } from './handler';
import type { InputOf, Routes } from './routes';

/** GET /v1/reports/summary: the validated query as a report request (shared/data/reports.ts computes it). */
export async function getSummaryReport(workspaceId: string, q: InputOf<Routes['getSummaryReport']>['query']): Promise<SummaryReport> {
  const { startDate, endDate, groupBy, timeZone, ...filters } = q;
  return summaryReport(workspaceId, {
    startDate,
    endDate,
    groupBy: (groupBy ?? []) as Grouping[],
    ...(timeZone ? { timeZone } : {}),
    filters: Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)) as ReportFilters,
  });
}

/** The reports function's handler (functions/reports/index.ts). */
export const reportsHandler = () =>
  resourceHandler('reports', {
    getSummaryReport: async ({ auth, query }) => getSummaryReport(auth.workspaceId, query),
    getSummaryReportCsv: async ({ auth, query }) => getSummaryReport(auth.workspaceId, query),
  });
