import { clients } from '../data/repositories';
import { seedDemoEntries, type DemoSeedOptions } from './seed-demo';
import { seedInvoices } from './seed-invoices';
import { seedTimeEntries } from './seed-time-entries';

/**
 * Demo data for a workspace. Each resource contributes its part; `timeEntries` and `invoices` are
 * counts the time-entry and invoice seeders honour.
 */
export interface SeedOptions {
  timeEntries?: number;
  invoices?: number;
  /** The demo of npm start: projects, tasks, tags and a few weeks of entries of three users, some running (shared/seed/seed-demo.ts). */
  demo?: boolean | DemoSeedOptions;
  /** Progress callback for long seeds (done, total). */
  progress?: (done: number, total: number) => void;
}

export interface SeedResult {
  workspaceId: string;
  clients: number;
  [resource: string]: number | string;
}

const CLIENT_NAMES = ['Acme Corporation', 'Globex', 'Initech', 'Umbrella Health', 'Stark Industries'];

export async function seedWorkspace(workspaceId: string, opts: SeedOptions = {}): Promise<SeedResult> {
  const existing = new Set((await clients.listAll(workspaceId)).map((c) => String(c.name).toLowerCase()));
  let created = 0;
  for (const name of CLIENT_NAMES) {
    if (existing.has(name.toLowerCase())) continue;
    await clients.create(workspaceId, { name, currency: 'USD', email: `billing@${name.split(' ')[0]!.toLowerCase()}.example` });
    created++;
  }
  if (opts.demo) {
    const demo = await seedDemoEntries(workspaceId, opts.demo === true ? {} : opts.demo);
    return { workspaceId, clients: created, ...demo };
  }
  return {
    workspaceId,
    clients: created,
    timeEntries: (await seedTimeEntries(workspaceId, opts.timeEntries ?? 0, { progress: opts.progress })).length,
    invoices: (await seedInvoices(workspaceId, opts.invoices ?? 0, { progress: opts.progress })).length,
  };
}
