import { type Client } from '../domain/entities/clients';
import { projects as projectEntity } from '../domain/entities/projects';
import { tasks as taskEntity } from '../domain/entities/tasks';
import { repository } from '../data/repository';
import { type CatalogProject, type InvoiceCatalog } from './rules';
import { type BillingProfile } from './store-profile';

/**
 * The names, rates and currencies lines are made from (the catalog of ./rules' `invoiceLines`): ONE lookup
 * for the create, its preview and the unbilled view, so an amount the view shows is the amount a create of
 * the same entries makes.
 */

/** The client as the lines name it: its name, and its currency, else the billing profile's default currency. */
export function catalogClient(client: Pick<Client, 'name' | 'currency'> | undefined, fallbackName: string, profile: BillingProfile | undefined): InvoiceCatalog['client'] {
  const currency = client?.currency ?? profile?.defaultCurrency;
  return { name: client?.name ?? fallbackName, ...(currency ? { currency } : {}) };
}

/** The names, hourly rates and currencies of these projects (one consistent GetItem each, at once; unknown ids left out). */
export async function projectCatalog(workspaceId: string, ids: Iterable<string>): Promise<Map<string, CatalogProject>> {
  const repo = repository(projectEntity);
  const found = await Promise.all([...new Set(ids)].map((id) => repo.getItem(workspaceId, { id }).then((item) => item && repo.present(item))));
  return new Map(
    found.flatMap((p) =>
      p ? [[p.id, { name: p.name, ...(p.hourlyRate !== undefined ? { hourlyRate: p.hourlyRate } : {}), ...(p.currency ? { currency: p.currency } : {}) }] as const] : [],
    ),
  );
}

/** The names of these tasks (one consistent GetItem each, at once; unknown ids left out). */
async function taskCatalog(workspaceId: string, ids: Iterable<string>): Promise<Map<string, { name: string }>> {
  const repo = repository(taskEntity);
  const found = await Promise.all([...new Set(ids)].map((id) => repo.getItem(workspaceId, { id }).then((item) => item && repo.present(item))));
  return new Map(found.flatMap((t) => (t ? [[t.id, { name: t.name }] as const] : [])));
}

/** The catalog of these entries' lines: the client as given, the projects and tasks they name (read at once). */
export async function catalogOf(
  workspaceId: string,
  client: InvoiceCatalog['client'],
  entries: ReadonlyArray<{ projectId?: string | undefined; taskId?: string | undefined }>,
): Promise<InvoiceCatalog> {
  const [projects, tasks] = await Promise.all([
    projectCatalog(
      workspaceId,
      entries.flatMap((e) => (e.projectId ? [e.projectId] : [])),
    ),
    taskCatalog(
      workspaceId,
      entries.flatMap((e) => (e.taskId ? [e.taskId] : [])),
    ),
  ]);
  return { client, projects, tasks };
}
