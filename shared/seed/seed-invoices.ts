import { clients, createInvoice, invoices } from '../data/repositories';
import type { Client } from '../domain/entities/clients';
import { cents, type Invoice, type InvoiceStatus } from '../domain/entities/invoices';
import { partiesToKeep } from '../invoicing/snapshot';
import { prng } from './random';

/**
 * `seed --invoices N`: N invoices in a workspace, written through the invoice entity (so each one takes
 * its number lock and counts on its client, exactly as the application's invoices do).
 *
 * - Statuses cycle draft, sent, paid, void (a paid one with one payment of its total): each is present as
 *   soon as N >= 4 (partially_paid is made by recording a payment: shared/invoicing/service.ts).
 * - Issue dates spread over the last two years (several per day for large N), due 30 days later.
 * - 1-4 line items (hours x rate), amounts in cents, subtotal = sum, tax at the client's rate, total =
 *   subtotal + tax (the entity re-checks this arithmetic on every write).
 * - Numbers as the application issues them: a draft has none (null); the others (sent, paid, void: issued)
 *   get INV-000001, ... continuing after the workspace's highest existing number, so seeding twice adds more
 *   rather than colliding (the sequence of sends continues past them: shared/invoicing/service.ts).
 * - Clients are the workspace's own (one is created when it has none). One writer per client runs in
 *   parallel: writers never update the same client item, so their transactions do not conflict.
 */
export interface InvoiceSeedOptions {
  progress?: (done: number, total: number) => void;
  now?: Date;
  /** PRNG seed (default 7). */
  seed?: number;
}

const DESCRIPTIONS = ['Development', 'Design', 'Project management', 'Consulting', 'QA and testing', 'Support retainer', 'Workshop'];
const RATES = [95, 120, 135.5, 150, 180];
const TAX_RATES = [0, 0.1, 0.19, 0.2];
const DAY = 86_400_000;
const SEED_STATUSES: readonly InvoiceStatus[] = ['draft', 'sent', 'paid', 'void'];

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
export const invoiceNumber = (seq: number) => `INV-${String(seq).padStart(6, '0')}`;

/** The invoice fields of seed number `i` of `count` (pure; exported for tests). */
export function seedInvoiceInput(i: number, count: number, seq: number | null, client: Client, taxRate: number, now: Date, rand: () => number) {
  const daysBack = Math.floor(((count - 1 - i) / Math.max(1, count)) * 730);
  const issue = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - daysBack * DAY;
  const lineItems = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => {
    const quantity = (1 + Math.floor(rand() * 80)) / 2; // 0.5 .. 40 hours
    const unitPrice = pick(rand, RATES);
    return { description: pick(rand, DESCRIPTIONS), quantity, unitPrice, amount: Math.round(quantity * unitPrice * 100) / 100 };
  });
  const subtotalCents = lineItems.reduce((s, li) => s + cents(li.amount), 0);
  const taxCents = Math.round(subtotalCents * taxRate);
  return {
    number: seq === null ? null : invoiceNumber(seq),
    clientId: client.id,
    status: SEED_STATUSES[i % SEED_STATUSES.length],
    issueDate: isoDate(issue),
    dueDate: isoDate(issue + 30 * DAY),
    currency: typeof client.currency === 'string' ? client.currency : 'USD',
    lineItems,
    subtotal: subtotalCents / 100,
    tax: taxCents / 100,
    total: (subtotalCents + taxCents) / 100,
    ...(SEED_STATUSES[i % SEED_STATUSES.length] === 'paid'
      ? {
          paidAt: `${isoDate(issue + 14 * DAY)}T00:00:00.000Z`,
          payments: [
            { id: `seed-payment-${seq}`, paidAt: isoDate(issue + 14 * DAY), amount: (subtotalCents + taxCents) / 100, recordedAt: new Date(issue + 14 * DAY).toISOString() },
          ],
        }
      : {}),
    ...(i % 5 === 0 ? { notes: 'Payment by bank transfer within 30 days.' } : {}),
  };
}

export async function seedInvoices(workspaceId: string, count: number, opts: InvoiceSeedOptions = {}): Promise<Invoice[]> {
  if (count <= 0) return [];
  const now = opts.now ?? new Date();
  const rand = prng(opts.seed ?? 7);
  let clientList = await clients.listAll(workspaceId);
  if (clientList.length === 0) clientList = [await clients.create(workspaceId, { name: 'Acme Corporation', currency: 'USD' })];
  const existing = await invoices.listAll(workspaceId);
  const highest = existing.reduce((max, inv) => Math.max(max, Number(/^INV-(\d+)$/.exec(String(inv.number))?.[1] ?? 0)), 0);

  // Inputs are built up front (deterministic order), then grouped by client: one writer per client.
  const byClient = new Map<string, Array<ReturnType<typeof seedInvoiceInput>>>();
  let issued = highest;
  for (let i = 0; i < count; i++) {
    const ci = i % clientList.length;
    const client = clientList[ci]!;
    const draft = SEED_STATUSES[i % SEED_STATUSES.length] === 'draft';
    const input = seedInvoiceInput(i, count, draft ? null : ++issued, client, TAX_RATES[ci % TAX_RATES.length]!, now, rand);
    byClient.set(client.id, [...(byClient.get(client.id) ?? []), input]);
  }
  const created: Invoice[] = [];
  await Promise.all(
    [...byClient.entries()].map(async ([clientId, inputs]) => {
      // what a send snapshots (issue 32 item 5): an issued invoice keeps its parties as they were when made
      const parties = await partiesToKeep(workspaceId, clientId);
      for (const input of inputs) {
        created.push(await createInvoice(workspaceId, input.status === 'draft' ? input : { ...input, ...parties }));
        opts.progress?.(created.length, count);
      }
    }),
  );
  return created;
}
