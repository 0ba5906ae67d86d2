import type * as z from 'zod/mini';
import { timeEntries } from '../domain/entities/time-entries';
import type { ReportTotals, SummaryReport } from '../domain/reports';
import type { RouteId } from './routes';
import { responseSchema } from './schemas';

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

/**
 * The columns of a CSV derived from the response schema of its rows: the fields `first` names, in that
 * order, then every other field of the schema in the schema's order, less those `omitted` names. So a field
 * added to the response reaches the CSV unless it is omitted here by name; a name in `first` or `omitted`
 * that the schema lacks is an error (no column can name a field that no longer exists).
 */
export function csvColumns(schema: z.ZodMiniObject, first: readonly string[], omitted: readonly string[]): string[] {
  const fields = Object.keys(schema.shape);
  const unknown = [...first, ...omitted].filter((f) => !fields.includes(f));
  if (unknown.length) throw new Error(`CSV columns name fields the response lacks: ${unknown.join(', ')}`);
  return [...first, ...fields.filter((f) => !first.includes(f) && !omitted.includes(f))];
}

/** The time-entry CSV's leading columns, in their order (the order the CSV has had since it was made). */
const TIME_ENTRY_FIRST_COLUMNS = [
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
];
/** Fields of a time entry the CSV leaves out: `invoiceId` (read-only, added to the record with invoicing; the CSV was kept as it was). */
export const TIME_ENTRY_CSV_OMITTED: readonly string[] = ['invoiceId'];
/** The columns of a time entry in CSV, in order: from the time entry's response schema. */
export const TIME_ENTRY_COLUMNS: readonly string[] = csvColumns(responseSchema(timeEntries), TIME_ENTRY_FIRST_COLUMNS, TIME_ENTRY_CSV_OMITTED);

/**
 * A summary report as CSV: columns `level` (total, group, subgroup), per grouping its key and name
 * (`project`, `projectName`, ...), the totals, and one `amount_<currency>` column per currency of the report.
 */
function reportCsv(report: SummaryReport): string {
  const currencies = [...new Set(report.totals.amounts.map((a) => a.currency))].sort();
  const header = ['level', ...report.groupBy.flatMap((g) => [g, `${g}Name`]), 'entries', 'durationMinutes', 'billableMinutes', ...currencies.map((c) => `amount_${c}`)];
  const values = (t: ReportTotals) => [t.entries, t.durationMinutes, t.billableMinutes, ...currencies.map((c) => t.amounts.find((a) => a.currency === c)?.amount ?? 0)];
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
