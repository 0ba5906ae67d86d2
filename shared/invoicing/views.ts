import * as z from 'zod/mini';
import { clients as clientEntity } from '../domain/entities/clients';
import { projects as projectEntity } from '../domain/entities/projects';
import { sortKeyRange } from '../domain/entities/time-entries';
import { DomainError, invalidField } from '../domain/errors';
import { dateString, englishIssue, LIMITS, meta } from '../domain/fields';
import { repository } from '../data/repository';
import { invoiceLines, MAX_INVOICE_ENTRIES, type CatalogProject } from './rules';
import { invoiceEntryPage, unbilledEntries, type EntryPage, type UnbilledEntry } from './store-reads';

/**
 * What the Invoices page reads besides the invoices (issue 32, items 7 and 8): the time left to bill per
 * client, and an invoice's time entries by page. docs/data-model.md, "Unbilled time", gives the reads.
 */

/** The query of GET .../invoices/unbilled: the period the entries start in (days inclusive, UTC; default: all time). */
export const unbilledInput = z.strictObject({
  startDate: meta(z.optional(dateString), { description: 'Count entries starting on or after this date (default: no lower bound)' }),
  endDate: meta(z.optional(dateString), { description: 'Count entries starting on or before this date (default: no upper bound)' }),
});
export type UnbilledInput = z.input<typeof unbilledInput>;

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

function parse<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const res = schema.safeParse(input, { error: englishIssue });
  if (res.success) return res.data;
  const issue = res.error.issues[0]!;
  throw invalidField(issue.path.map(String).join('.') || 'query', issue.message);
}

/**
 * Per client with billable, stopped, not yet invoiced time (entries on a draft, a sent or a paid invoice, running
 * timers and non-billable time excluded): entries, minutes, the amount an invoice of them would total before
 * tax (the create's rules: one line per project, rate x exact minutes / 60 rounded once per line), the oldest
 * and newest entry date. Clients by name. The read is bounded (store-reads.ts, UNBILLED_MAX_PAGES).
 */
export async function unbilledTime(workspaceId: string, query: UnbilledInput = {}, bound: { maxPages?: number; pageItems?: number } = {}): Promise<UnbilledTime> {
  const q = parse(unbilledInput, query);
  const read = await unbilledEntries(workspaceId, sortKeyRange(q.startDate, q.endDate), bound);
  const byClient = new Map<string, UnbilledEntry[]>();
  for (const e of read.entries) byClient.set(e.clientId, [...(byClient.get(e.clientId) ?? []), e]);
  const [clients, projects] = await Promise.all([
    byClient.size ? repository(clientEntity).listAll(workspaceId) : [],
    projectCatalog(workspaceId, [...new Set(read.entries.flatMap((e) => (e.projectId ? [e.projectId] : [])))]),
  ]);
  const items = [...byClient].map(([clientId, entries]): UnbilledClient => {
    const client = clients.find((c) => c.id === clientId);
    const name = client?.name ?? clientId;
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
      const lines = invoiceLines(entries, { client: { name, ...(client?.currency ? { currency: client.currency } : {}) }, projects, tasks: new Map() }, 'project');
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

/** The names, rates and currencies of these projects (one GetItem each, at once). */
async function projectCatalog(workspaceId: string, ids: readonly string[]): Promise<Map<string, CatalogProject>> {
  const repo = repository(projectEntity);
  const found = await Promise.all(ids.map(async (id) => repo.getItem(workspaceId, { id }).then((item) => (item ? repo.present(item) : undefined))));
  return new Map(
    found.flatMap((p) =>
      p ? [[p.id, { name: p.name, ...(p.hourlyRate !== undefined ? { hourlyRate: p.hourlyRate } : {}), ...(p.currency ? { currency: p.currency } : {}) }] as const] : [],
    ),
  );
}

/** The page query of an invoice's entries: `limit` (default 50, at most 200) and the previous page's `cursor`. */
export const entryPageInput = z.strictObject({
  limit: z.optional(z.number().check(z.int(), z.gte(1), z.lte(LIMITS.pageMax))),
  cursor: z.optional(z.string().check(z.maxLength(4096))),
});

/** One page of an invoice's time entries, oldest first (every page under Lambda's 6 MB: shared/data/paging.ts). 404 for an unknown invoice. */
export async function invoiceEntriesPage(workspaceId: string, invoiceId: string, query: z.input<typeof entryPageInput> = {}): Promise<EntryPage> {
  const q = parse(entryPageInput, query);
  return invoiceEntryPage(workspaceId, invoiceId, { limit: q.limit ?? LIMITS.pageDefault, ...(q.cursor !== undefined ? { cursor: q.cursor } : {}) });
}
