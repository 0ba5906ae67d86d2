import * as z from 'zod/mini';
import { idOf } from './examples';
import { booleanParam, meta } from './fields';

/**
 * The time-entry filters: the list's (GET /v1/time-entries) and the report's (shared/domain/reports.ts),
 * one schema; a module of their own so that the time-entries function carries them without the report's
 * shapes (issue 35).
 */
export const timeEntryFilters = z.strictObject({
  userId: z.optional(idOf.user),
  projectId: z.optional(idOf.project),
  clientId: z.optional(idOf.client),
  taskId: meta(z.optional(idOf.task), { description: "Entries of this task (read through the task's project)" }),
  tagId: meta(z.optional(idOf.tag), { description: 'Entries carrying this tag' }),
  billable: meta(z.optional(booleanParam), { description: 'Only billable (true) or only non-billable (false) entries' }),
  invoiced: meta(z.optional(booleanParam), { description: 'Only entries on an invoice (true: `invoiceId` set) or only entries on none (false)' }),
});
export type TimeEntryFilters = z.output<typeof timeEntryFilters>;
export type TimeEntryFilter = keyof TimeEntryFilters;
export const TIME_ENTRY_FILTERS = z.keyof(timeEntryFilters).options;
