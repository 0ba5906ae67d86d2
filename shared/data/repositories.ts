import { clients as clientEntity } from '../domain/entities/clients';
import { favorites as favoriteEntity } from '../domain/entities/favorites';
import { invoices as invoiceEntity, parseInvoice } from '../domain/entities/invoices';
import { projects as projectEntity } from '../domain/entities/projects';
import { tags as tagEntity } from '../domain/entities/tags';
import { tasks as taskEntity } from '../domain/entities/tasks';
import { timeEntries as timeEntryEntity } from '../domain/entities/time-entries';
import type { EntityRecord } from '../domain/entity';
import { repository } from './repository';

/** The repository of every entity, named like its declaration (shared/domain/entities/*). */
export const clients = repository(clientEntity);
export const projects = repository(projectEntity);
export const tasks = repository(taskEntity);
export const tags = repository(tagEntity);
export const timeEntries = repository(timeEntryEntity);
export const favorites = repository(favoriteEntity);
export const invoices = repository(invoiceEntity);

/** Creates an invoice (the application's path: admin CLI, seed): checks its fields, then its totals on write. */
export async function createInvoice(workspaceId: string, input: unknown): Promise<EntityRecord<typeof invoiceEntity>> {
  return invoices.create(workspaceId, parseInvoice(input));
}
