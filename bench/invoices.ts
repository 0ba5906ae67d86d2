import { clients, projects, tasks } from '../shared/data/repositories';
import { deriveTimeEntry, type TimeEntry } from '../shared/domain/entities/time-entries';
import { ulid } from '../shared/domain/ids';
import { writeTimeEntries } from '../shared/seed/seed-time-entries';
import { createFromTime, type CreateStats } from '../shared/invoicing/service';
import type { DynamoCounter } from './lib/dynamo-counter';
import { markdownTable, table, type Target } from './lib/report';
import { fmt } from './lib/stats';

/**
 * Section 10 of `npm run bench`: making an invoice from time (shared/invoicing/service.ts) of 100 and of
 * 5,000 billable entries. Per size, a fresh workspace (one client, two projects with rates and a task each,
 * the entries written in bulk over one month); one invoice made with the DynamoDB counter on (calls and
 * capacity computed from item sizes, bench/lib/dynamo-counter.ts) and one on another such workspace
 * with the counter off (time alone: the counter reads every written item before and after). Prints calls,
 * RCU, WCU, time, and each per entry; the target: the cost per entry of 5,000 is at most 1.1x that of 100.
 * Self-contained and bounded: its own workspaces, no waiting on anything but its own calls.
 */
export interface InvoiceRun {
  entries: number;
  calls: number;
  byCommand: Record<string, number>;
  rcu: number;
  wcu: number;
  ms: number;
  countedMs: number;
  lockBatches: number;
  lines: number;
}
export interface InvoiceBench {
  runs: InvoiceRun[];
}

async function workspaceWith(label: string, count: number): Promise<{ ws: string; clientId: string }> {
  const ws = `bench-inv-${label}-${count}-${Date.now().toString(36)}`;
  const client = await clients.create(ws, { name: 'Acme Corp', currency: 'EUR' });
  const ps = [
    await projects.create(ws, { name: 'Website', clientId: client.id, hourlyRate: 120 }),
    await projects.create(ws, { name: 'Support', clientId: client.id, hourlyRate: 85.5 }),
  ];
  const ts = await Promise.all(ps.map((p) => tasks.create(ws, { projectId: p.id, name: 'Build' })));
  const now = new Date().toISOString();
  const from = Date.UTC(2026, 2, 1, 8);
  const records = Array.from({ length: count }, (_, i) => {
    const start = from + Math.floor((i * 30 * 86_400_000) / count) + (i % 60) * 1000;
    const minutes = 15 + (i % 7) * 10;
    return deriveTimeEntry({
      id: ulid(),
      userId: `u${i % 5}`,
      startTime: new Date(start).toISOString(),
      endTime: new Date(start + minutes * 60_000).toISOString(),
      projectId: ps[i % 2]!.id,
      clientId: client.id,
      ...(i % 2 === 0 ? { taskId: ts[i % 2]!.id } : {}),
      billable: true,
      name: `Work item ${i}`,
      createdAt: now,
      updatedAt: now,
    }) as TimeEntry;
  });
  await writeTimeEntries(ws, records, { concurrency: 8 });
  return { ws, clientId: client.id };
}

export async function measureInvoices(counter: DynamoCounter, opts: { sizes?: number[]; progress?: (s: string) => void } = {}): Promise<InvoiceBench> {
  const runs: InvoiceRun[] = [];
  for (const n of opts.sizes ?? [100, 5000]) {
    opts.progress?.(`invoice of ${n} entries: seeding two workspaces`);
    const counted = await workspaceWith('counted', n);
    const timed = await workspaceWith('timed', n);
    const input = { startDate: '2026-03-01', endDate: '2026-03-31' };

    opts.progress?.(`invoice of ${n} entries: timed`);
    counter.enabled = false;
    const t0 = performance.now();
    const stats: CreateStats = { candidates: 0, locked: 0, lockBatches: 0, relocked: 0 };
    const inv = await createFromTime({ workspaceId: timed.ws, clientId: timed.clientId, ...input, stats });
    const ms = performance.now() - t0;
    if (stats.locked !== n) throw new Error(`invoice of ${n}: ${stats.locked} entries locked`);

    opts.progress?.(`invoice of ${n} entries: counted`);
    counter.reset();
    counter.enabled = true;
    const t1 = performance.now();
    await createFromTime({ workspaceId: counted.ws, clientId: counted.clientId, ...input });
    const countedMs = performance.now() - t1;
    counter.enabled = false;
    const calls = counter.reset().filter((c) => !c.rate);
    const byCommand: Record<string, number> = {};
    for (const c of calls) byCommand[c.command] = (byCommand[c.command] ?? 0) + 1;
    runs.push({
      entries: n,
      calls: calls.length,
      byCommand,
      rcu: calls.reduce((s, c) => s + c.rcu, 0),
      wcu: calls.reduce((s, c) => s + c.wcu, 0),
      ms,
      countedMs,
      lockBatches: stats.lockBatches,
      lines: inv.lineItems.length,
    });
  }
  return { runs };
}

/** DynamoDB on-demand list prices (us-east-1, docs/capacity.md): dollars per write and per read request unit. */
export const PRICE_PER_WRU = 0.625 / 1e6;
export const PRICE_PER_RRU = 0.125 / 1e6;
/** DynamoDB cost of one run in dollars (its WCU and RCU at on-demand prices). */
export const dollarsOf = (r: { wcu: number; rcu: number }) => r.wcu * PRICE_PER_WRU + r.rcu * PRICE_PER_RRU;

export function formatInvoices(b: InvoiceBench, targets: Target[]): { text: string; markdown: string } {
  const header = ['entries', 'lock batches', 'DynamoDB calls', 'by command', 'RCU', 'WCU', 'ms', 'calls / entry', 'RCU / entry', 'WCU / entry', 'ms / entry', '$ / 1,000 entries'];
  const rows = b.runs.map((r) => [
    String(r.entries),
    String(r.lockBatches),
    String(r.calls),
    Object.entries(r.byCommand)
      .map(([k, v]) => `${k} ${v}`)
      .join(', '),
    fmt(r.rcu, 1),
    fmt(r.wcu, 1),
    fmt(r.ms, 0),
    fmt(r.calls / r.entries, 3),
    fmt(r.rcu / r.entries, 3),
    fmt(r.wcu / r.entries, 2),
    fmt(r.ms / r.entries, 2),
    fmt((dollarsOf(r) / r.entries) * 1000, 5),
  ]);
  const small = b.runs[0];
  const large = b.runs[b.runs.length - 1];
  if (small && large && large !== small) {
    for (const [name, f] of [
      ['DynamoDB calls per entry', (r: InvoiceRun) => r.calls / r.entries],
      ['WCU per entry', (r: InvoiceRun) => r.wcu / r.entries],
      ['RCU per entry', (r: InvoiceRun) => r.rcu / r.entries],
      ['DynamoDB cost ($) per entry', (r: InvoiceRun) => dollarsOf(r) / r.entries],
    ] as const) {
      const ratio = f(large) / f(small);
      const digits = name.startsWith('DynamoDB cost') ? 8 : 3;
      targets.push({
        section: '10 invoices',
        name: `${name}, ${large.entries} vs ${small.entries} entries`,
        figure: `${fmt(f(large), digits)} vs ${fmt(f(small), digits)} (x${fmt(ratio, 2)})`,
        target: '<= 1.1x (does not grow)',
        met: ratio <= 1.1,
      });
    }
  }
  const note =
    "One invoice per row (lines by project), on a fresh workspace: its entries read through the client index (Query, pages of 1 MB), locked 49 per transaction (each entry + its time-entry.updated event + the job count: 99 actions), one commit transaction. WCU computed from item sizes (transactional: 2 per KB per item and index copy); ms from a second, uncounted run on an identical workspace. $ = DynamoDB on-demand list price of the WCU and RCU ($0.625 per million WRU, $0.125 per million RRU: docs/capacity.md), per 1,000 entries invoiced. Target: no per-entry figure of the larger invoice above 1.1x the smaller one's (the work is per entry: pages of the client index, lock transactions of 49 entries).";
  return { text: `${table(header, rows)}\n${note}`, markdown: `${markdownTable(header, rows)}\n\n${note}` };
}
