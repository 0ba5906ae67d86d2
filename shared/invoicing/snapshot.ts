import { clients as clientEntity } from '../domain/entities/clients';
import type { Invoice, InvoiceParty } from '../domain/entities/invoices';
import { repository } from '../data/repository';
import { readProfile, type BillingProfile } from './store-profile';

/**
 * What an invoice's document shows of the workspace and the client (issue 32 item 5, the snapshot): "From"
 * is the workspace's billing profile (display name, address, tax id, e-mail; the workspace's name when no
 * profile is set), "Bill to" the client (name, address, e-mail). A draft's document follows the live records;
 * sending an invoice (or voiding a draft) copies both into the invoice (`from`, `billTo`) in the same
 * transaction as its status, and from then on its document shows the copy, whatever is renamed or changed.
 * The lines, rates and tax are the invoice's own fields, which no change reaches once it is not a draft.
 */
export interface DocumentParties {
  from: InvoiceParty;
  billTo: InvoiceParty;
}

const some = <K extends string>(key: K, v: unknown): { [P in K]?: string } => (typeof v === 'string' && v.trim() !== '' ? ({ [key]: v } as { [P in K]?: string }) : {});

/** The sender of a workspace's documents: its billing profile, else `fallback`, else its name (the workspace id). */
export function senderOf(workspaceId: string, profile: BillingProfile | undefined, fallback?: InvoiceParty): InvoiceParty {
  if (!profile) return fallback ?? { name: workspaceId };
  return { name: profile.displayName, ...some('address', profile.address), ...some('taxId', profile.taxId), ...some('email', profile.email) };
}

/** "From" and "Bill to" as they are now (two GetItems at once: the profile and the client). */
export async function liveParties(workspaceId: string, clientId: string, fallbackSender?: InvoiceParty): Promise<DocumentParties> {
  const [stored, client] = await Promise.all([readProfile(workspaceId), repository(clientEntity).getItem(workspaceId, { id: clientId })]);
  const billTo: InvoiceParty = client ? { name: String(client.name), ...some('address', client.address), ...some('email', client.email) } : { name: clientId };
  return { from: senderOf(workspaceId, stored?.profile, fallbackSender), billTo };
}

/**
 * The parties an invoice's document shows: its snapshot once sent (or void), the live records for a draft (and
 * for an invoice sent before snapshots existed). `fallbackSender` stands in for a workspace with no profile.
 */
export async function documentParties(workspaceId: string, invoice: Invoice, fallbackSender?: InvoiceParty): Promise<DocumentParties> {
  if (invoice.from && invoice.billTo) return { from: invoice.from, billTo: invoice.billTo };
  const live = await liveParties(workspaceId, invoice.clientId, fallbackSender);
  return { from: invoice.from ?? live.from, billTo: invoice.billTo ?? live.billTo };
}
