import { reportsHandler } from '../../shared/api/reports';

/** GET /v1/reports/summary (shared/api/reports.ts). */
export const handler = reportsHandler();
