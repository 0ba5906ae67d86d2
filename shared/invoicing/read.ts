import { invoices as invoiceEntity, issueDateRange, type Invoice } from '../domain/entities/invoices';
import { type TimeEntry } from '../domain/entities/time-entries';
import { notFound } from '../domain/errors';
import { entriesOfInvoice, makingOf } from './store';
import { type RecordPage } from '../data/repository';

import { entryRepo, invoices, parse } from './common';
import { type ListInvoicesInput, listInvoicesInput } from './inputs';

/** Reading invoices: one, a page of them (the /v1 filters), the time entries on one. */
export async function getInvoice(workspaceId: string, id: string): Promise<Invoice> {
  return invoices().get(workspaceId, { id });
}

/** One page of invoices, newest issueDate first: the filters of GET /v1/invoices. */
export async function listInvoices(workspaceId: string, query: ListInvoicesInput = {}): Promise<RecordPage<Invoice>> {
  const q = parse(listInvoicesInput, query);
  return invoices().page(workspaceId, {
    where: { status: q.status, clientId: q.clientId },
    range: issueDateRange(q.startDate, q.endDate),
    ...(q.limit !== undefined ? { limit: q.limit } : {}),
    ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
  });
}

/** The time entries on an invoice, oldest first (the client index over the invoice's period, filter invoiceId). */
export async function invoiceEntries(workspaceId: string, id: string): Promise<TimeEntry[]> {
  const item = await invoices().getItem(workspaceId, { id });
  if (!item) throw notFound(invoiceEntity.kind);
  const making = makingOf(item);
  if (!making) return [];
  const items = await entriesOfInvoice(workspaceId, id, String(item.clientId), making);
  return items.sort((a, b) => String(a.SK).localeCompare(String(b.SK))).map((i) => entryRepo().present(i));
}
