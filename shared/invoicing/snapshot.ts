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
  const kept = await partiesToKeep(workspaceId, clientId);
  return { from: kept.from ?? fallbackSender ?? { name: workspaceId }, billTo: kept.billTo };
}

/**
 * What a send (or the void of a draft) copies into the invoice: `billTo` always, `from` only when the
 * workspace has a billing profile. Without one the document names the workspace itself, which is never
 * stored in an invoice (no answer carries a workspace id: test/hygiene/secrets.test.ts); a billing profile
 * set later does not reach an invoice sent before it (`documentParties`).
 */
export async function partiesToKeep(workspaceId: string, clientId: string): Promise<KeptParties> {
  const clients = repository(clientEntity);
  const [stored, client] = await Promise.all([readProfile(workspaceId), clients.getItem(workspaceId, { id: clientId }).then((item) => item && clients.present(item))]);
  const billTo: InvoiceParty = client ? { name: client.name, ...some('address', client.address), ...some('email', client.email) } : { name: clientId };
  return { ...(stored ? { from: senderOf(workspaceId, stored.profile) } : {}), billTo };
}

/** The parties a send keeps: `from` absent when the workspace had no billing profile then. */
export interface KeptParties {
  from?: InvoiceParty;
  billTo: InvoiceParty;
}

/**
 * The parties an invoice's document shows: its snapshot once sent (or void; `billTo` marks it, and a snapshot
 * without `from` was taken without a billing profile: the workspace, never a profile set later), the live
 * records for a draft (and for an invoice sent before snapshots existed). `fallbackSender` stands in for the
 * workspace with no profile.
 */
export async function documentParties(workspaceId: string, invoice: Invoice, fallbackSender?: InvoiceParty): Promise<DocumentParties> {
  if (invoice.billTo) return { from: invoice.from ?? fallbackSender ?? { name: workspaceId }, billTo: invoice.billTo };
  const live = await liveParties(workspaceId, invoice.clientId, fallbackSender);
  return { from: invoice.from ?? live.from, billTo: live.billTo };
}
