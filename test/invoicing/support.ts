import { clients, projects, tasks, timeEntries } from '../../shared/data/repositories';
import { deriveTimeEntry, type TimeEntry } from '../../shared/domain/entities/time-entries';
import { ulid } from '../../shared/domain/ids';
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { entityKey } from '../../shared/data/keys';
import { counterAttr } from '../../shared/data/record-writes';
import { REVISION_ATTRIBUTE, VERSION_ATTRIBUTE } from '../../shared/data/table';
import { clients as clientEntity } from '../../shared/domain/entities/clients';
import { projects as projectEntity } from '../../shared/domain/entities/projects';
import { tasks as taskEntity } from '../../shared/domain/entities/tasks';
import { newWorkspace } from '../support/harness';

/**
 * A workspace with one client, projects with rates (and one task each), and `count` billable, stopped
 * entries of that client in March 2026, written in bulk (usage counters, rollups as the seed writes them).
 * Entry i lasts 15 + (i % 7) * 10 minutes, on project i % projects.
 */
export interface BillableFixture {
  ws: string;
  clientId: string;
  projectIds: string[];
  taskIds: string[];
  entries: TimeEntry[];
}

export async function billableFixture(
  count: number,
  opts: { label?: string; rates?: number[]; currency?: string; projectCurrency?: Array<string | undefined> } = {},
): Promise<BillableFixture> {
  const ws = newWorkspace(opts.label ?? 'inv');
  const client = await clients.create(ws, { name: 'Acme Corp', currency: opts.currency ?? 'EUR', address: '1 Main Street\nSpringfield', email: 'billing@acme.test' });
  const rates = opts.rates ?? [100, 80.5];
  const projectIds: string[] = [];
  const taskIds: string[] = [];
  for (const [i, rate] of rates.entries()) {
    const currency = opts.projectCurrency?.[i];
    const p = await projects.create(ws, { name: `Project ${String.fromCharCode(65 + i)}`, clientId: client.id, hourlyRate: rate, ...(currency ? { currency } : {}) });
    projectIds.push(p.id);
    taskIds.push((await tasks.create(ws, { projectId: p.id, name: `Task ${i}` })).id);
  }
  const entries = makeEntries(count, client.id, projectIds, taskIds);
  await writeEntries(ws, entries);
  return { ws, clientId: client.id, projectIds, taskIds, entries };
}

/**
 * Writes entries in bulk as the repository stores them (revision 1, no event), with the usage counters
 * on the records they name; no report rollups (these tests read no rollup; the seed writes them too, and
 * they cost ~10 writes per entry, which made each crash scenario several seconds slower).
 */
export async function writeEntries(ws: string, records: readonly TimeEntry[]): Promise<void> {
  const counts = new Map<string, { entity: typeof clientEntity | typeof projectEntity | typeof taskEntity; id: string; n: number }>();
  for (const r of records) {
    for (const [entity, id] of [
      [clientEntity, r.clientId],
      [projectEntity, r.projectId],
      [taskEntity, r.taskId],
    ] as const) {
      if (typeof id !== 'string') continue;
      const c = counts.get(id) ?? { entity, id, n: 0 };
      c.n++;
      counts.set(id, c);
    }
  }
  for (const { entity, id, n } of counts.values()) {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: entityKey(entity, ws, { id }),
        UpdateExpression: 'ADD #c :n, #v :one',
        ExpressionAttributeNames: { '#c': counterAttr('TIMEENTRY'), '#v': VERSION_ATTRIBUTE },
        ExpressionAttributeValues: { ':n': n, ':one': 1 },
      }),
    );
  }
  const items = records.map((rec) => timeEntries.toItem(ws, rec, { [VERSION_ATTRIBUTE]: 1, [REVISION_ATTRIBUTE]: 1 }));
  const batches = Array.from({ length: Math.ceil(items.length / 25) }, (_, i) => items.slice(i * 25, i * 25 + 25));
  await Promise.all(
    batches.map(async (batch) => {
      let pending = batch.map((Item) => ({ PutRequest: { Item } }));
      while (pending.length > 0) {
        const res = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
        pending = (res.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
      }
    }),
  );
}

/** `count` billable stopped entries spread over March 2026 (UTC), round-robin over the projects. */
export function makeEntries(count: number, clientId: string, projectIds: string[], taskIds: string[], from = Date.UTC(2026, 2, 1, 8)): TimeEntry[] {
  const now = new Date().toISOString();
  return Array.from({ length: count }, (_, i) => {
    const start = from + Math.floor((i * 30 * 86_400_000) / Math.max(count, 1)) + (i % 60) * 1000;
    const minutes = 15 + (i % 7) * 10;
    const p = i % projectIds.length;
    return deriveTimeEntry({
      id: ulid(),
      userId: `u${i % 3}`,
      startTime: new Date(start).toISOString(),
      endTime: new Date(start + minutes * 60_000).toISOString(),
      projectId: projectIds[p],
      clientId,
      ...(i % 2 === 0 ? { taskId: taskIds[p] } : {}),
      billable: true,
      name: `Work ${i}`,
      createdAt: now,
      updatedAt: now,
    }) as TimeEntry;
  });
}

import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { readChanges } from '../../shared/data/changes';
import { db, tableName, type StoredItem } from '../../shared/data/db';
import { listJobs } from '../../shared/invoicing/store';
import { keys } from '../../shared/data/keys';
import { invoiceLines, type BillableEntry } from '../../shared/invoicing/rules';

async function queryAll(pk: string, prefix?: string): Promise<StoredItem[]> {
  const out: StoredItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: prefix ? 'PK = :pk AND begins_with(SK, :p)' : 'PK = :pk',
        ExpressionAttributeValues: { ':pk': pk, ...(prefix ? { ':p': prefix } : {}) },
        ConsistentRead: true,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    out.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
  } while (start);
  return out;
}

/** Every stored time entry and invoice of the workspace (table reads, strongly consistent). */
export async function storedState(ws: string): Promise<{ entries: StoredItem[]; invoices: StoredItem[] }> {
  const entries = await queryAll(`${keys.workspacePartition(ws)}#TE`);
  const invoices = await queryAll(keys.workspacePartition(ws), 'INVOICE#');
  return { entries, invoices };
}

/**
 * The guarantees of issue 24, item 3, checked on what is stored and in the feed (after the writers and
 * the sweep are done); returns the violations:
 * - no open job; every entry carrying an invoiceId carries that of an existing invoice (nothing half made);
 * - each invoice's entries are exactly as many as it recorded, and its lines equal the lines computed again
 *   from them (totals = the sum of its entries) when `grouping` is given;
 * - the feed: each entry's `time-entry.updated` events are a lock (no invoice -> one), a release (one ->
 *   none) or an edit of an entry on none, never a change of an entry held; each one revision up from the
 *   last (entries were written at revision 1 without events), the last one equal to the stored entry:
 *   every lock and release is exactly one event; one `invoice.created` per invoice made.
 */
export async function invoicingViolations(ws: string, opts: { rates?: Map<string, { name: string; hourlyRate: number }>; clientCurrency?: string } = {}): Promise<string[]> {
  const out: string[] = [];
  const jobs = await listJobs(ws);
  if (jobs.length) out.push(`${jobs.length} open job(s): ${jobs.map((j) => `${j.invoiceId} ${j.state} locked=${j.locked}`).join(', ')}`);
  const { entries, invoices } = await storedState(ws);
  const byInvoice = new Map<string, StoredItem[]>();
  for (const e of entries) if (typeof e.invoiceId === 'string') byInvoice.set(e.invoiceId, [...(byInvoice.get(e.invoiceId) ?? []), e]);
  const live = new Set(invoices.filter((i) => i.status !== 'void').map((i) => String(i.id)));
  for (const [id, list] of byInvoice) if (!live.has(id)) out.push(`${list.length} entries carry invoice ${id}, which is ${invoices.some((i) => i.id === id) ? 'void' : 'missing'}`);
  for (const inv of invoices) {
    if (inv.status === 'void') continue;
    const mine = byInvoice.get(String(inv.id)) ?? [];
    if (inv._entries !== undefined && mine.length !== Number(inv._entries))
      out.push(`invoice ${String(inv.number)}: ${mine.length} entries carry it, it recorded ${String(inv._entries)}`);
    if (opts.rates) {
      const lines = invoiceLines(
        mine.map((e): BillableEntry => ({ id: String(e.id), startTime: String(e.startTime), durationMinutes: Number(e.durationMinutes), projectId: String(e.projectId) })),
        { client: { name: 'x', ...(opts.clientCurrency ? { currency: opts.clientCurrency } : {}) }, projects: opts.rates, tasks: new Map() },
        'project',
      );
      const norm = (items: ReadonlyArray<Record<string, unknown>>) => JSON.stringify(items.map((li) => [li.description, li.quantity, li.unitPrice, li.amount]));
      if (norm(lines.lineItems) !== norm(inv.lineItems as Array<Record<string, unknown>>))
        out.push(`invoice ${String(inv.number)}: lines ${JSON.stringify(inv.lineItems)} != from its entries ${JSON.stringify(lines.lineItems)}`);
      if (Math.round(lines.subtotal * 100) !== Math.round(Number(inv.subtotal) * 100)) out.push(`invoice ${String(inv.number)}: subtotal`);
    }
  }
  const { events } = await readChanges(ws, { after: 0, limit: 1_000_000, maxExamined: 1_000_000 });
  const seen = new Map<string, Array<Record<string, unknown>>>();
  for (const ev of events) if (ev.type === 'time-entry.updated') seen.set(ev.resourceId, [...(seen.get(ev.resourceId) ?? []), ev.data]);
  for (const e of entries) {
    const list = seen.get(String(e.id)) ?? [];
    let held: unknown;
    list.forEach((data, k) => {
      if (data.etag !== `"${k + 2}"`) out.push(`entry ${String(e.id)}: event ${k} at revision ${String(data.etag)}, expected "${k + 2}"`);
      // a lock (none -> an invoice), a release (an invoice -> none) or an edit while on none; never invoice -> another, never an edit while held
      if (held !== undefined && data.invoiceId !== undefined) out.push(`entry ${String(e.id)}: event ${k} changes an entry held by ${String(held)}`);
      held = data.invoiceId;
    });
    if (Number(e._rv) !== list.length + 1) out.push(`entry ${String(e.id)}: revision ${String(e._rv)} after ${list.length} events`);
    const last = list[list.length - 1];
    if ((last?.invoiceId ?? undefined) !== (e.invoiceId ?? undefined))
      out.push(`entry ${String(e.id)}: last event invoiceId ${String(last?.invoiceId)} != stored ${String(e.invoiceId)}`);
  }
  const created = events.filter((e) => e.type === 'invoice.created').map((e) => e.resourceId);
  for (const inv of invoices) if (!created.includes(String(inv.id))) out.push(`invoice ${String(inv.number)} has no invoice.created event`);
  if (new Set(created).size !== created.length) out.push('an invoice.created event is repeated');
  return out;
}
