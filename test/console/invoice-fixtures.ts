import { clients, projects, tasks } from '../../shared/data/repositories';
import { createFromTime, sendInvoice } from '../../shared/invoicing/service';
import { makeEntries, writeEntries } from '../invoicing/support';

/** Billable time of a new client of `ws` (its own project at 100 EUR/h, one task), March 2026. */
export async function billableClient(ws: string, count = 3, label = 'Client') {
  const client = await clients.create(ws, { name: `${label} ${Math.random().toString(36).slice(2, 8)}`, currency: 'EUR', address: '1 Main Street', email: 'billing@client.test' });
  const project = await projects.create(ws, { name: `Project of ${client.name}`, clientId: client.id, hourlyRate: 100 });
  const task = await tasks.create(ws, { projectId: project.id, name: 'Design' });
  const entries = makeEntries(count, client.id, [project.id], [task.id]);
  await writeEntries(ws, entries);
  return { clientId: client.id, clientName: client.name, projectId: project.id, entries };
}

export const MARCH = { startDate: '2026-03-01', endDate: '2026-03-31' } as const;

/** A draft (or a sent invoice) of a new client of `ws`, made by the engine. */
export async function draftOf(ws: string, count = 3) {
  const c = await billableClient(ws, count);
  return { ...c, invoice: await createFromTime({ workspaceId: ws, clientId: c.clientId, ...MARCH }) };
}
export async function sentOf(ws: string) {
  const d = await draftOf(ws);
  return { ...d, invoice: await sendInvoice(ws, d.invoice.id) };
}
