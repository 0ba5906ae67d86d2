import * as z from 'zod/mini';
import { defineEntity, type EntityRecord } from '../entity';
import { invalidField } from '../errors';
import { EXAMPLE_IDS, EXAMPLE_SORT_KEY, EXAMPLE_START, idOf } from '../examples';
import { dateTimeString, idString, LIMITS, notesString, singleLine, tagIdsSchema, meta } from '../fields';
import { clients } from './clients';
import { invoiceLabel, invoices } from './invoices';
import { projects } from './projects';
import { projectClientTask } from './rules';
import { tags } from './tags';
import { tasks } from './tasks';

/**
 * Time entries (docs/data-model.md, "Time entries").
 *
 * Item: PK `WS#<ws>#TE`, SK `<startTime as UTC ISO ms>#<id>`; the SK is the public `sortKey`. Every
 * index the entry appears in uses the same SK, with a partition per filter value:
 *   GSI1 by user, GSI2 by project, GSI3 by client, GSI4 by user+project, GSI5 by user+client.
 * A list is one Query per page on the most selective of those (shared/data/query-plan.ts), newest
 * first, the date range being a BETWEEN on the sort key; only project+client (with or without user)
 * adds a filter (clientId).
 */
const BY_START = { composite: ['startTime', 'id'] } as const;

export const timeEntries = defineEntity({
  resource: 'time-entries',
  kind: 'Time entry',
  type: 'TIMEENTRY',
  description: 'Tracked time of a user; addressed by id and sortKey, listed newest first with cursor paging',
  fields: {
    userId: { schema: idOf.user, required: true },
    name: { schema: meta(singleLine(z.string().check(z.trim(), z.maxLength(LIMITS.name))), { example: 'Homepage hero section' }) },
    projectId: { schema: idOf.project },
    clientId: { schema: idOf.client },
    taskId: { schema: idOf.task },
    // keySafe: stored normalized to UTC with milliseconds (derived below), so it sorts as time.
    startTime: { schema: meta(dateTimeString, { example: EXAMPLE_START }), required: true, keySafe: true },
    endTime: { schema: meta(dateTimeString, { example: '2026-03-02T10:30:00.000Z' }) },
    notes: { schema: meta(notesString, { example: 'Three variants of the hero section, reviewed with the client' }) },
    // No fixed default: a create that does not send it takes its project's billable (rule below).
    billable: { schema: meta(z.boolean(), { example: true }) },
    tagIds: { schema: meta(tagIdsSchema, { example: [EXAMPLE_IDS.tag] }) },
  },
  computed: {
    sortKey: meta(z.string().check(z.maxLength(512)), {
      description: 'Composite sort key; pass it as the sortKey query parameter to get, update or delete this entry',
      example: EXAMPLE_SORT_KEY,
    }),
    durationMinutes: meta(z.optional(z.number()), { description: 'Computed by the server from startTime and endTime; absent while the timer runs', example: 90 }),
    invoiceId: meta(z.optional(idString), {
      example: EXAMPLE_IDS.invoice,
      description:
        'Read-only: the invoice (draft, sent or paid) this entry is billed on. While it is set, PUT, DELETE and stop of the entry are 409 naming the invoice number; voiding or deleting the invoice releases it',
    }),
  },
  sortKeyField: 'sortKey',
  key: { pk: { prefix: 'TE' }, sk: BY_START },
  indexes: {
    GSI1: { access: 'user', pk: { prefix: 'TE#U', composite: ['userId'] }, sk: BY_START },
    GSI2: { access: 'project', pk: { prefix: 'TE#P', composite: ['projectId'] }, sk: BY_START },
    GSI3: { access: 'client', pk: { prefix: 'TE#C', composite: ['clientId'] }, sk: BY_START },
    GSI4: { access: 'user+project', pk: { prefix: 'TE#UP', composite: ['userId', 'projectId'] }, sk: BY_START },
    GSI5: { access: 'user+client', pk: { prefix: 'TE#UC', composite: ['userId', 'clientId'] }, sk: BY_START },
    // Sparse: only running entries (no endTime) are in it; `?running=true` lists them (at most one per user).
    GSI6: { access: 'running', pk: { prefix: 'TE#RUN' }, sk: BY_START, only: { when: isRunning, param: 'running' } },
  },
  references: [
    { field: 'projectId', target: () => projects },
    { field: 'clientId', target: () => clients },
    { field: 'taskId', target: () => tasks },
    { field: 'tagIds', target: () => tags, many: true },
  ],
  derived: { reads: ['startTime', 'endTime'], apply: deriveTimeEntry },
  // An invoiced entry stays as it was billed (shared/invoicing/service.ts locks and releases it).
  heldBy: { field: 'invoiceId', target: () => invoices, message: heldMessage },
  rules: [
    {
      // Both instants are already normalized (derived), so string order is time order.
      reads: ['startTime', 'endTime'],
      check: (rec) => {
        if (rec.endTime !== undefined && String(rec.endTime) < String(rec.startTime)) throw invalidField('endTime', 'must not be before startTime');
      },
    },
    projectClientTask,
    {
      // After projectClientTask, which may have set the project from the task.
      reads: ['billable', 'projectId', 'taskId'],
      check: async (rec, { lookup }) => {
        if (rec.billable !== undefined) return;
        const project = typeof rec.projectId === 'string' ? await lookup(projects, rec.projectId) : undefined;
        rec.billable = project?.billable ?? false;
      },
    },
  ],
  list: {
    mode: 'paged',
    via: ['key', 'GSI1', 'GSI2', 'GSI3', 'GSI4', 'GSI5', 'GSI6'],
    range: (startDate, endDate) => sortKeyRange(startDate, endDate),
    filters: { tagId: { field: 'tagIds', op: 'contains' }, billable: { type: 'boolean' }, invoiced: { field: 'invoiceId', op: 'exists', type: 'boolean' } },
    implies: [{ param: 'taskId', target: () => tasks, field: 'projectId' }],
  },
});
export type TimeEntry = EntityRecord<typeof timeEntries>;

/** The filters of the time-entry list (and of the reports built on it). */
export interface TimeEntryFilters {
  startDate?: string;
  endDate?: string;
  userId?: string;
  projectId?: string;
  clientId?: string;
  taskId?: string;
  tagId?: string;
  billable?: 'true' | 'false';
  invoiced?: 'true' | 'false';
}

/** The 409 of a write to an invoiced entry: names the invoice's number (or says it is being made or released). */
/** What the message reads of the held entry, and of its invoice. */
interface HeldEntry {
  readonly id?: unknown;
  readonly invoiceId?: unknown;
}
interface Holder {
  readonly status?: unknown;
  readonly number?: unknown;
}
function heldMessage(rec: HeldEntry, holder: Holder | undefined): string {
  const id = String(rec.id);
  if (!holder) return `Time entry ${id} is being invoiced or released from invoice ${String(rec.invoiceId)}; retry in a moment`;
  if (holder.status === 'void') return `Time entry ${id} is being released from invoice ${invoiceLabel(holder)}, which was voided; retry in a moment`;
  return `Time entry ${id} is on invoice ${invoiceLabel(holder)} (${String(holder.status)}); void or delete that invoice to change the entry`;
}

/** A time entry without endTime is a running timer. */
export function isRunning(rec: { readonly endTime?: unknown }): boolean {
  return rec.endTime === undefined || rec.endTime === null;
}

/** Upper end of any sort key: ids are [0-9A-Z] (ULIDs), all below `~`. */
const SK_AFTER_IDS = '~';
const MIN_INSTANT = '0000-01-01T00:00:00.000Z';
const MAX_INSTANT = '9999-12-31T23:59:59.999Z';
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * An ISO 8601 date-time (any offset, any fraction) as UTC with milliseconds, so that string order of
 * sort keys is chronological order whatever offset the client sent. Sub-millisecond digits are dropped.
 */
export function normalizeInstant(value: string, field: string): string {
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw invalidField(field, 'is not a valid date-time');
  const iso = new Date(t).toISOString();
  if (!/^\d{4}-/.test(iso)) throw invalidField(field, 'must be between the years 0000 and 9999 in UTC');
  return iso;
}

/** Whole minutes between start and end, rounded to the nearest minute (a running entry has none). */
export function durationMinutes(startIso: string, endIso: string): number {
  return Math.round((Date.parse(endIso) - Date.parse(startIso)) / 60_000);
}

/** Server-computed fields: normalized instants and durationMinutes. Applied on create and after every merge. */
export function deriveTimeEntry<R extends TimeFields>(rec: R): R {
  // the fields keep their places (startTime and endTime overwritten where they are); durationMinutes comes last
  const { durationMinutes: _stale, ...rest } = rec;
  const startTime = normalizeInstant(String(rec.startTime), 'startTime');
  if (rec.endTime === undefined || rec.endTime === null) return { ...rest, startTime } as R;
  const endTime = normalizeInstant(String(rec.endTime), 'endTime');
  return { ...rest, startTime, endTime, durationMinutes: durationMinutes(startTime, endTime) } as R;
}
/** What deriveTimeEntry reads and writes of a record (a stored entry, or one being made). */
interface TimeFields {
  readonly startTime?: unknown;
  readonly endTime?: unknown;
  readonly durationMinutes?: unknown;
}

/**
 * Sort-key bounds of a date range: startDate inclusive; endDate inclusive, a date alone meaning the whole
 * day (UTC). The values were already checked by the route's schema (calendar-valid ISO 8601).
 */
export function sortKeyRange(startDate?: string, endDate?: string): { lo: string; hi: string } {
  const from = startDate === undefined ? MIN_INSTANT : DATE_ONLY.test(startDate) ? `${startDate}T00:00:00.000Z` : normalizeInstant(startDate, 'startDate');
  const to = endDate === undefined ? MAX_INSTANT : DATE_ONLY.test(endDate) ? `${endDate}T23:59:59.999Z` : normalizeInstant(endDate, 'endDate');
  if (to < from) throw invalidField('endDate', 'must not be before startDate');
  // Every SK of the range: `<from>` sorts before `<from>#<id>`; `<to>#~` after every `<to>#<id>`.
  return { lo: from, hi: `${to}#${SK_AFTER_IDS}` };
}
