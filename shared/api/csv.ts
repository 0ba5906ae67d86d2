import type { RouteId } from './routes';

/**
 * CSV answers (`Accept: text/csv`) of the routes declared `csv` in the route table: RFC 4180 (fields
 * separated by commas, records by CRLF, a header row first; a field containing a comma, a double quote,
 * CR or LF is enclosed in double quotes, its quotes doubled). Lists (tagIds) are joined with `;`, an
 * absent value is an empty field.
 *
 * Formula injection (OWASP "CSV Injection"): a text cell beginning with `=`, `+`, `-`, `@`, tab or CR
 * would be run as a formula by a spreadsheet, so it is written with a leading `'` (then quoted as any
 * other). Numbers are written as they are: a negative amount stays a number. Every CSV the API writes
 * goes through this one writer.
 */
export function toCsv(rows: ReadonlyArray<readonly unknown[]>): string {
  return rows.map((row) => row.map(field).join(',') + '\r\n').join('');
}

const FORMULA_START = /^[=+\-@\t\r]/;

function field(v: unknown): string {
  const raw = v === undefined || v === null ? '' : Array.isArray(v) ? v.join(';') : String(v);
  const s = typeof v === 'number' || typeof v === 'boolean' || !FORMULA_START.test(raw) ? raw : `'${raw}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The columns of a time entry in CSV, in order. */
export const TIME_ENTRY_COLUMNS = [
  'id',
  'sortKey',
  'userId',
  'name',
  'projectId',
  'clientId',
  'taskId',
  'startTime',
  'endTime',
  'durationMinutes',
  'billable',
  'tagIds',
  'notes',
  'createdAt',
  'updatedAt',
  'etag',
] as const;

interface Totals {
  entries: number;
  durationMinutes: number;
  billableMinutes: number;
  amounts: Array<{ currency: string; amount: number }>;
}
interface Group extends Totals {
  key: string | null;
  name: string | null;
  groups?: Group[];
}
interface Report {
  groupBy: string[];
  totals: Totals;
  groups: Group[];
}

/**
 * A summary report as CSV: columns `level` (total, group, subgroup), per grouping its key and name
 * (`project`, `projectName`, ...), the totals, and one `amount_<currency>` column per currency of the report.
 */
function reportCsv(report: Report): string {
  const currencies = [...new Set(report.totals.amounts.map((a) => a.currency))].sort();
  const header = ['level', ...report.groupBy.flatMap((g) => [g, `${g}Name`]), 'entries', 'durationMinutes', 'billableMinutes', ...currencies.map((c) => `amount_${c}`)];
  const values = (t: Totals) => [t.entries, t.durationMinutes, t.billableMinutes, ...currencies.map((c) => t.amounts.find((a) => a.currency === c)?.amount ?? 0)];
  const blank = (n: number) => Array.from({ length: n * 2 }, () => '');
  const rows: unknown[][] = [header, ['total', ...blank(report.groupBy.length), ...values(report.totals)]];
  for (const g of report.groups) {
    rows.push(['group', g.key, g.name, ...blank(report.groupBy.length - 1), ...values(g)]);
    for (const sub of g.groups ?? []) rows.push(['subgroup', g.key, g.name, sub.key, sub.name, ...values(sub)]);
  }
  return toCsv(rows);
}

function timeEntriesCsv(page: { items: Array<Record<string, unknown>> }): string {
  return toCsv([[...TIME_ENTRY_COLUMNS], ...page.items.map((item) => TIME_ENTRY_COLUMNS.map((c) => item[c]))]);
}

/** The CSV form of a route's JSON answer. */
export const CSV_FORMATS: Partial<Record<RouteId, (body: never) => string>> = {
  listTimeEntries: timeEntriesCsv,
  getSummaryReport: reportCsv,
};
