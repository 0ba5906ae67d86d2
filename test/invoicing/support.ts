import { clients, projects, tasks } from '../../shared/data/repositories';
import { deriveTimeEntry, type TimeEntry } from '../../shared/domain/entities/time-entries';
import { ulid } from '../../shared/domain/ids';
import { writeTimeEntries } from '../../shared/seed/seed-time-entries';
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

export async function billableFixture(count: number, opts: { label?: string; rates?: number[]; currency?: string; projectCurrency?: Array<string | undefined> } = {}): Promise<BillableFixture> {
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
  await writeTimeEntries(ws, entries);
  return { ws, clientId: client.id, projectIds, taskIds, entries };
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
