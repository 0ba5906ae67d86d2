import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { invoices as invoiceEntity } from '../domain/entities/invoices';
import { timeEntries as timeEntryEntity, type TimeEntry } from '../domain/entities/time-entries';
import { notFound } from '../domain/errors';
import { db } from '../data/db';
import { readEntry, readInvoice } from './store';
import { queryPage } from '../data/paging';
import { planQuery, queryInputOf } from '../data/query-plan';

/**
 * The invoicing wing's reads for the Invoices page besides the invoices themselves (docs/data-model.md,
 * "Invoices from time", "Unbilled time" and "An invoice's entries, by page"):
 * - `unbilledEntries`: the workspace's billable, not yet invoiced time entries, newest first, from the time
 *   entries' own partition (`WS#<ws>#TE`, filter billable and no invoiceId), bounded by a number of Query
 *   pages (each at most 1 MB read): past the bound the answer says where its counting stopped;
 * - `invoiceEntryPage`: one page of the entries that carry an invoice's id, oldest first (GSI3 over the
 *   invoice's period, filter invoiceId), through the paging of every list (signed cursor, byte bound).
 */

/** What the unbilled view needs of an entry (an entry that can go on an invoice: stopped, of a client). */
export interface UnbilledEntry {
  id: string;
  clientId: string;
  projectId?: string;
  startTime: string;
  durationMinutes: number;
}
export interface UnbilledRead {
  entries: UnbilledEntry[];
  /** False when the page bound was reached before the range's oldest entry. */
  complete: boolean;
  /** When not complete: every entry starting at or after this instant was read (and only those are returned). */
  countedFrom?: string;
  /** Query calls made and items DynamoDB read (before the filter). */
  calls: number;
  scanned: number;
}

/** Query pages (at most 1 MB read each) one unbilled read makes at most: 8 MB of entries, at most 1,024 read units. */
export const UNBILLED_MAX_PAGES = 8;

/**
 * The billable, stopped, not yet invoiced entries of the workspace that have a client, newest first over the
 * sort-key range, until `maxPages` Query pages were read (`pageItems`: DynamoDB's Limit per call, for tests
 * of the bound). Read eventually consistent: a lock or a release a moment old may not be seen yet.
 */
export async function unbilledEntries(workspaceId: string, range: { lo: string; hi: string }, opts: { maxPages?: number; pageItems?: number } = {}): Promise<UnbilledRead> {
  const maxPages = opts.maxPages ?? UNBILLED_MAX_PAGES;
  const input = queryInputOf(planQuery(timeEntryEntity, workspaceId, { billable: 'true', invoiced: 'false' }, range));
  const read: TimeEntry[] = [];
  let start: Record<string, unknown> | undefined;
  let calls = 0;
  let scanned = 0;
  do {
    const res = await db().send(
      new QueryCommand({
        ...input,
        ScanIndexForward: false,
        ...(opts.pageItems ? { Limit: opts.pageItems } : {}),
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    calls++;
    scanned += res.ScannedCount ?? 0;
    read.push(...(res.Items ?? []).flatMap(readEntry).map((r) => r.entry));
    start = res.LastEvaluatedKey;
  } while (start && calls < maxPages);
  let kept = read;
  let countedFrom: string | undefined;
  if (start) {
    // stopped inside the range: entries starting at the last instant read may have unread siblings (same
    // instant, lower id), so the answer counts only those starting after it, and says so
    const boundary = String(start.SK).split('#')[0]!;
    countedFrom = new Date(Date.parse(boundary) + 1).toISOString();
    kept = read.filter((e) => e.startTime >= countedFrom!);
  }
  const entries = kept.flatMap(({ id, clientId, projectId, startTime, durationMinutes }): UnbilledEntry[] =>
    clientId !== undefined && durationMinutes !== undefined && durationMinutes > 0
      ? [{ id, clientId, ...(projectId !== undefined ? { projectId } : {}), startTime, durationMinutes }]
      : [],
  );
  return { entries, complete: start === undefined, ...(countedFrom ? { countedFrom } : {}), calls, scanned };
}

export interface EntryPage {
  items: TimeEntry[];
  hasMore: boolean;
  nextCursor?: string;
}

/**
 * One page of the time entries on an invoice, oldest first: GSI3 (the client) over the invoice's period,
 * filter invoiceId, through shared/data/paging.ts (a signed cursor bound to the workspace and this query,
 * so to this invoice; a page ends early before 5 MiB). 404 when the invoice does not exist.
 */
export async function invoiceEntryPage(workspaceId: string, invoiceId: string, page: { limit: number; cursor?: string }): Promise<EntryPage> {
  const stored = await readInvoice(workspaceId, invoiceId);
  if (!stored) throw notFound(invoiceEntity.kind);
  if (!stored.making) return { items: [], hasMore: false };
  const plan = planQuery(timeEntryEntity, workspaceId, { clientId: stored.invoice.clientId, invoiceId }, stored.making);
  const res = await queryPage({
    workspaceId,
    ...(plan.index ? { index: plan.index } : {}),
    keyCondition: plan.keyCondition,
    ...(plan.filter ? { filter: plan.filter } : {}),
    scanForward: true,
    limit: page.limit,
    ...(page.cursor !== undefined ? { cursor: page.cursor } : {}),
  });
  return {
    items: res.items.flatMap(readEntry).map((r) => r.entry),
    hasMore: res.hasMore,
    ...(res.nextCursor ? { nextCursor: res.nextCursor } : {}),
  };
}
