import { LIMITS, SORT_KEY_REGEX, timeEntryFields } from '../../api/schemas';
import { Entity, type Rec } from '../../data/repository';
import { keys } from '../../data/keys';
import { queryPage, type Expression, type PageStats } from '../../data/paging';
import type { IndexName } from '../../data/table';
import { fieldError } from '../../api/errors';
import { clients } from './clients';
import { projects, resolveProjectClientTask, tags, tasks } from './catalog';

/**
 * Time entries (docs/data-model.md, "Time entries").
 *
 * Item: PK `WS#<ws>#TE`, SK `<startTime as UTC ISO ms>#<id>`; the SK is the public `sortKey`. Every
 * index the entry appears in uses the same SK, with a partition per filter value:
 *   GSI1 by user, GSI2 by project, GSI3 by client, GSI4 by user+project, GSI5 by user+client.
 * A list is one Query per page on the most selective of those, newest first, the date range being a
 * BETWEEN on the sort key; only project+client (with or without user) adds a filter (clientId).
 */
export const TIME_ENTRY_TYPE = 'TIMEENTRY';

/** Upper end of any sort key: ids are [0-9A-Z] (ULIDs), all below `~`. */
const SK_AFTER_IDS = '~';
const MIN_INSTANT = '0000-01-01T00:00:00.000Z';
const MAX_INSTANT = '9999-12-31T23:59:59.999Z';

/**
 * An ISO 8601 date-time (any offset, any fraction) as UTC with milliseconds, so that string order of
 * sort keys is chronological order whatever offset the client sent. Sub-millisecond digits are dropped.
 */
export function normalizeInstant(value: string, field: string): string {
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw fieldError(field, 'is not a valid date-time');
  const iso = new Date(t).toISOString();
  if (!/^\d{4}-/.test(iso)) throw fieldError(field, 'must be between the years 0000 and 9999 in UTC');
  return iso;
}

/** Whole minutes between start and end, rounded to the nearest minute (a running entry has none). */
export function durationMinutes(startIso: string, endIso: string): number {
  return Math.round((Date.parse(endIso) - Date.parse(startIso)) / 60_000);
}

/** Server-computed fields: normalized instants and durationMinutes. Applied on create and after every merge. */
export function deriveTimeEntry(rec: Record<string, unknown>): Record<string, unknown> {
  const out = { ...rec };
  out.startTime = normalizeInstant(String(rec.startTime), 'startTime');
  delete out.durationMinutes;
  if (rec.endTime !== undefined && rec.endTime !== null) {
    out.endTime = normalizeInstant(String(rec.endTime), 'endTime');
    out.durationMinutes = durationMinutes(String(out.startTime), String(out.endTime));
  }
  return out;
}

/** Index attributes of an entry: one partition per filter value it can be listed by. */
export function timeEntryIndexKeys(workspaceId: string, rec: Record<string, unknown>): Record<string, string> {
  const sk = keys.timeEntrySortKey(String(rec.startTime), String(rec.id));
  const user = String(rec.userId);
  const out: Record<string, string> = { GSI1PK: keys.timeEntryByUser(workspaceId, user), GSI1SK: sk };
  if (rec.projectId) {
    out.GSI2PK = keys.timeEntryByProject(workspaceId, String(rec.projectId));
    out.GSI2SK = sk;
    out.GSI4PK = keys.timeEntryByUserProject(workspaceId, user, String(rec.projectId));
    out.GSI4SK = sk;
  }
  if (rec.clientId) {
    out.GSI3PK = keys.timeEntryByClient(workspaceId, String(rec.clientId));
    out.GSI3SK = sk;
    out.GSI5PK = keys.timeEntryByUserClient(workspaceId, user, String(rec.clientId));
    out.GSI5SK = sk;
  }
  return out;
}

/**
 * endTime not before startTime (both already normalized, so string order is time order); the project /
 * client / task rules are the catalog's shared ones (derivation on create, "a field not sent follows the
 * one sent" on update). Existence is enforced by the write itself (usage counters, attribute_exists), and
 * an update whose reference changes do not fit one transaction is refused by the repository (400).
 */
async function validateTimeEntry(workspaceId: string, rec: Record<string, unknown>, before?: Rec, patch?: Record<string, unknown>): Promise<void> {
  if (rec.endTime !== undefined && String(rec.endTime) < String(rec.startTime)) throw fieldError('endTime', 'must not be before startTime');
  await resolveProjectClientTask(workspaceId, rec, before, patch);
}

export const timeEntries = new Entity({
  kind: 'Time entry',
  type: TIME_ENTRY_TYPE,
  fields: timeEntryFields,
  key: (workspaceId, rec) => keys.timeEntry(workspaceId, String(rec.startTime), String(rec.id)),
  locate: (workspaceId, loc) => {
    const m = SORT_KEY_REGEX.exec(loc.sortKey ?? '');
    // A sortKey naming another id cannot address this entry: 404 without a read.
    if (!m || m[2] !== loc.id) return undefined;
    return keys.timeEntry(workspaceId, m[1]!, loc.id);
  },
  indexKeys: timeEntryIndexKeys,
  derive: deriveTimeEntry,
  validate: validateTimeEntry,
  // The sort key and every index key read startTime and userId; durationMinutes and the endTime rule read both times.
  coupledFields: ['userId', 'startTime', 'endTime'],
  present: (item) => ({ sortKey: item.SK }),
  references: [
    { field: 'projectId', target: () => projects },
    { field: 'clientId', target: () => clients },
    { field: 'taskId', target: () => tasks },
    { field: 'tagIds', target: () => tags, many: true },
  ],
});

// ---------------------------------------------------------------------------------------------
// Listing
// ---------------------------------------------------------------------------------------------

export interface TimeEntryFilters {
  startDate?: string;
  endDate?: string;
  userId?: string;
  projectId?: string;
  clientId?: string;
}

export interface TimeEntryQueryPlan {
  index?: IndexName;
  /** Human description (docs, benchmark). */
  access: string;
  keyCondition: Expression;
  filter?: Expression;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Sort-key bounds of a date range: startDate inclusive; endDate inclusive, a date alone meaning the whole
 * day (UTC). The values were already checked by the route's schema (calendar-valid ISO 8601).
 */
export function sortKeyRange(startDate?: string, endDate?: string): { lo: string; hi: string } {
  const from = startDate === undefined ? MIN_INSTANT : DATE_ONLY.test(startDate) ? `${startDate}T00:00:00.000Z` : normalizeInstant(startDate, 'startDate');
  const to = endDate === undefined ? MAX_INSTANT : DATE_ONLY.test(endDate) ? `${endDate}T23:59:59.999Z` : normalizeInstant(endDate, 'endDate');
  if (to < from) throw fieldError('endDate', 'must not be before startDate');
  // Every SK of the range: `<from>` sorts before `<from>#<id>`; `<to>#~` after every `<to>#<id>`.
  return { lo: from, hi: `${to}#${SK_AFTER_IDS}` };
}

/**
 * The Query for a combination of filters: the most selective index for it, the date range on the sort
 * key, and a filter only for what the index does not cover (clientId when a project is also given).
 */
export function planTimeEntryQuery(workspaceId: string, f: TimeEntryFilters): TimeEntryQueryPlan {
  const { lo, hi } = sortKeyRange(f.startDate, f.endDate);
  let index: IndexName | undefined;
  let pk: string;
  let access: string;
  let filterClient = false;
  if (f.userId && f.projectId) {
    index = 'GSI4';
    pk = keys.timeEntryByUserProject(workspaceId, f.userId, f.projectId);
    access = 'GSI4 (user+project)';
    filterClient = Boolean(f.clientId);
  } else if (f.userId && f.clientId) {
    index = 'GSI5';
    pk = keys.timeEntryByUserClient(workspaceId, f.userId, f.clientId);
    access = 'GSI5 (user+client)';
  } else if (f.userId) {
    index = 'GSI1';
    pk = keys.timeEntryByUser(workspaceId, f.userId);
    access = 'GSI1 (user)';
  } else if (f.projectId) {
    index = 'GSI2';
    pk = keys.timeEntryByProject(workspaceId, f.projectId);
    access = 'GSI2 (project)';
    filterClient = Boolean(f.clientId);
  } else if (f.clientId) {
    index = 'GSI3';
    pk = keys.timeEntryByClient(workspaceId, f.clientId);
    access = 'GSI3 (client)';
  } else {
    pk = keys.timeEntryPartition(workspaceId);
    access = 'table';
  }
  const pkAttr = index ? `${index}PK` : 'PK';
  const skAttr = index ? `${index}SK` : 'SK';
  return {
    ...(index ? { index } : {}),
    access: access + (filterClient ? ' + filter clientId' : ''),
    keyCondition: {
      expression: '#pk = :pk AND #sk BETWEEN :lo AND :hi',
      names: { '#pk': pkAttr, '#sk': skAttr },
      values: { ':pk': pk, ':lo': lo, ':hi': hi },
    },
    ...(filterClient ? { filter: { expression: '#client = :client', names: { '#client': 'clientId' }, values: { ':client': f.clientId } } } : {}),
  };
}

export interface TimeEntryListInput extends TimeEntryFilters {
  limit?: number;
  cursor?: string;
}

export async function listTimeEntries(
  workspaceId: string,
  q: TimeEntryListInput,
  opts: { returnConsumedCapacity?: boolean } = {},
): Promise<{ items: Rec[]; nextCursor?: string; hasMore: boolean; stats: PageStats; access: string }> {
  const plan = planTimeEntryQuery(workspaceId, q);
  const page = await queryPage({
    workspaceId,
    ...(plan.index ? { index: plan.index } : {}),
    keyCondition: plan.keyCondition,
    ...(plan.filter ? { filter: plan.filter } : {}),
    scanForward: false,
    limit: q.limit ?? LIMITS.pageDefault,
    ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
    ...(opts.returnConsumedCapacity ? { returnConsumedCapacity: true } : {}),
  });
  return {
    items: page.items.map((item) => timeEntries.present(item)),
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    hasMore: page.hasMore,
    stats: page.stats,
    access: plan.access,
  };
}
