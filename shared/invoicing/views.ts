import { clients as clientEntity } from '../domain/entities/clients';
import { sortKeyRange } from '../domain/entities/time-entries';
import { DomainError } from '../domain/errors';
import { LIMITS } from '../domain/fields';
import { repository } from '../data/repository';
import { catalogClient, projectCatalog } from './catalog';
import { invoiceLines, MAX_INVOICE_ENTRIES } from './rules';
import { invoiceEntryPage, unbilledEntries, type EntryPage, type UnbilledEntry } from './store-reads';
import { readProfile } from './store-profile';
import { type EntryPageQuery, type UnbilledQuery } from './inputs';

/**
 * What the Invoices page reads besides the invoices (issue 32, items 7 and 8): the time left to bill per
 * client, and an invoice's time entries by page. docs/data-model.md, "Unbilled time", gives the reads. The
 * queries are parsed at the edge (the console's routes declare these schemas); the functions take them parsed.
 */

/** One client's unbilled time. */
export interface UnbilledClient {
  clientId: string;
  clientName: string;
  entries: number;
  minutes: number;
  /** What an invoice of these entries (lines by project) would total before tax; null when it cannot be made (see `problem`). */
  amount: number | null;
  currency: string | null;
  /** The dates (UTC) of the oldest and the newest entry's start: the period that invoices all of them. */
  oldestDate: string;
  newestDate: string;
  /** Why "New invoice" of that period would be refused (no rate, several currencies, over 5,000 entries), when it would. */
  problem?: string;
}
export interface UnbilledTime {
  items: UnbilledClient[];
  /** False when the read stopped at its bound (8 MB of entries): only entries starting at or after `countedFrom` are counted. */
  complete: boolean;
  countedFrom?: string;
}

/**
 * Per client with billable, stopped, not yet invoiced time (entries on a draft, a sent or a paid invoice, running
 * timers and non-billable time excluded): entries, minutes, the amount an invoice of them would total before
 * tax (the create's rules and catalog, ./catalog: one line per project, rate x exact minutes / 60 rounded once
 * per line; the currency the project's, else the client's, else the billing profile's), the oldest and newest
 * entry date. Clients by name. The read is bounded (store-reads.ts, UNBILLED_MAX_PAGES).
 */
export async function unbilledTime(workspaceId: string, q: UnbilledQuery = {}, bound: { maxPages?: number; pageItems?: number } = {}): Promise<UnbilledTime> {
  const read = await unbilledEntries(workspaceId, sortKeyRange(q.startDate, q.endDate), bound);
  const byClient = new Map<string, UnbilledEntry[]>();
  for (const e of read.entries) byClient.set(e.clientId, [...(byClient.get(e.clientId) ?? []), e]);
  const [clients, projects, profile] = await Promise.all([
    byClient.size ? repository(clientEntity).listAll(workspaceId) : [],
    projectCatalog(
      workspaceId,
      read.entries.flatMap((e) => (e.projectId ? [e.projectId] : [])),
    ),
    byClient.size ? readProfile(workspaceId) : undefined,
  ]);
  const items = [...byClient].map(([clientId, entries]): UnbilledClient => {
    const client = catalogClient(
      clients.find((c) => c.id === clientId),
      clientId,
      profile?.profile,
    );
    const name = client.name;
    const starts = entries.map((e) => e.startTime).sort();
    const out = {
      clientId,
      clientName: name,
      entries: entries.length,
      minutes: entries.reduce((s, e) => s + e.durationMinutes, 0),
      oldestDate: starts[0]!.slice(0, 10),
      newestDate: starts[starts.length - 1]!.slice(0, 10),
    };
    try {
      const lines = invoiceLines(entries, { client, projects, tasks: new Map() }, 'project');
      const problem = entries.length > MAX_INVOICE_ENTRIES ? `${entries.length} entries: one invoice covers at most ${MAX_INVOICE_ENTRIES}; invoice a shorter period` : undefined;
      return { ...out, amount: lines.subtotal, currency: lines.currency, ...(problem ? { problem } : {}) };
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return { ...out, amount: null, currency: null, problem: err.message };
    }
  });
  items.sort((a, b) => a.clientName.localeCompare(b.clientName) || a.clientId.localeCompare(b.clientId));
  return { items, complete: read.complete, ...(read.countedFrom ? { countedFrom: read.countedFrom } : {}) };
}

/** One page of an invoice's time entries, oldest first (every page under Lambda's 6 MB: shared/data/paging.ts). 404 for an unknown invoice. */
export async function invoiceEntriesPage(workspaceId: string, invoiceId: string, q: EntryPageQuery = {}): Promise<EntryPage> {
  return invoiceEntryPage(workspaceId, invoiceId, { limit: q.limit ?? LIMITS.pageDefault, ...(q.cursor !== undefined ? { cursor: q.cursor } : {}) });
}
