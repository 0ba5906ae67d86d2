import { invalidField } from '../domain/errors';

/**
 * The calendar of the summary report (shared/services/reports.ts): instants and UTC days, local days,
 * ISO weeks and UTC months, and a report's period as instants in its time zone (Intl, no tz database of our own).
 */
export const DAY_MS = 86_400_000;
/** The longest period of one report (three years, leap day included): bounds the work of one request. */
export const MAX_PERIOD_DAYS = 1096;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}
/** Local wall-clock time minus UTC at instant t, in ms. */
function offsetAt(t: number, tz: string): number {
  const parts = Object.fromEntries(
    formatter(tz)
      .formatToParts(new Date(t))
      .map((p) => [p.type, p.value]),
  );
  const local = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return local - Math.floor(t / 1000) * 1000;
}
/** The local date (YYYY-MM-DD) of instant t in tz. */
export function localDay(t: number, tz: string): string {
  return new Date(t + offsetAt(t, tz)).toISOString().slice(0, 10);
}
/** The instant a local date starts in tz (its first instant when midnight falls in a DST gap). */
function startOfLocalDay(date: string, tz: string): number {
  const guess = Date.parse(`${date}T00:00:00.000Z`);
  let t = guess - offsetAt(guess, tz);
  t = guess - offsetAt(t, tz);
  return localDay(t, tz) === date ? t : t + 3_600_000;
}
export const isUtc = (tz: string | undefined) => tz === undefined || /^(Etc\/)?(UTC|UCT|GMT|Universal|Zulu|Greenwich|GMT[+-]0)$/.test(tz);
export const iso = (t: number) => new Date(t).toISOString();
export const dayOf = (t: number) => iso(t).slice(0, 10);
const nextMonth = (t: number) => {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};
export const monthStartAtOrAfter = (t: number) => {
  const d = new Date(t);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  return start === t ? t : nextMonth(t);
};
export const monthStartAtOrBefore = (t: number) => {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
};
/** The Monday (ISO week start) of a date, and the ISO week's label. */
export function weekOf(day: string): { key: string; name: string } {
  const t = Date.parse(`${day}T00:00:00.000Z`);
  const dow = (new Date(t).getUTCDay() + 6) % 7; // Monday 0
  const monday = t - dow * DAY_MS;
  const thursday = monday + 3 * DAY_MS;
  const year = new Date(thursday).getUTCFullYear();
  const week = Math.floor((thursday - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return { key: dayOf(monday), name: `${year}-W${String(week).padStart(2, '0')}` };
}

/** The period as instants [from, to): dates are whole days in the time zone, date-times inclusive. */
export function reportPeriod(startDate: string, endDate: string, tz = 'UTC'): { from: number; to: number } {
  const from = DATE_ONLY.test(startDate) ? startOfLocalDay(startDate, tz) : Date.parse(startDate);
  const to = DATE_ONLY.test(endDate) ? startOfLocalDay(dayOf(Date.parse(`${endDate}T00:00:00.000Z`) + DAY_MS), tz) : Date.parse(endDate) + 1;
  if (to <= from) throw invalidField('endDate', 'must not be before startDate');
  if (to - from > MAX_PERIOD_DAYS * DAY_MS) throw invalidField('endDate', `the period may cover at most ${MAX_PERIOD_DAYS} days; ask for several reports`);
  return { from, to };
}
