import { invoices as invoiceEntity, issueDateRange, type Invoice } from '../domain/entities/invoices';
import { type TimeEntry } from '../domain/entities/time-entries';
import { notFound } from '../domain/errors';
import { entriesOfInvoice, readInvoice } from './store';
import { type RecordPage } from '../data/repository';

import { invoices } from './common';
import { type InvoiceQuery } from './inputs';

/** Reading invoices: one, a page of them (the /v1 filters), the time entries on one. */
export async function getInvoice(workspaceId: string, id: string): Promise<Invoice> {
  return invoices().get(workspaceId, { id });
}

/** One page of invoices, newest issueDate first: the filters of GET /v1/invoices. */
export async function invoicePage(workspaceId: string, q: InvoiceQuery = {}): Promise<RecordPage<Invoice>> {
  return invoices().page(workspaceId, {
    where: { status: q.status, clientId: q.clientId },
    range: issueDateRange(q.startDate, q.endDate),
    ...(q.limit !== undefined ? { limit: q.limit } : {}),
    ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
  });
}

/** The time entries on an invoice, oldest first (the client index over the invoice's period, filter invoiceId). */
export async function invoiceEntries(workspaceId: string, id: string): Promise<TimeEntry[]> {
  const stored = await readInvoice(workspaceId, id);
  if (!stored) throw notFound(invoiceEntity.kind);
  if (!stored.making) return [];
  const read = await entriesOfInvoice(workspaceId, id, stored.invoice.clientId, stored.making);
  return read.map((r) => r.entry).sort((a, b) => String(a.sortKey).localeCompare(String(b.sortKey)));
}
