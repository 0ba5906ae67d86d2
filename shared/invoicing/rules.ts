import { conflict, invalidField } from '../domain/errors';
import { cents, invoiceLabel, type InvoiceStatus, type LineItem } from '../domain/entities/invoices';

/**
 * The arithmetic and rules of invoices made from billable time (no I/O; shared/invoicing/service.ts
 * reads the entries, locks them and writes the invoice):
 * - lines: one per project (default), per project and task, or per entry; `minutes` = the group's exact
 *   minutes, quantity = their hours shown to 2 decimals (display only), unit price = the project's hourlyRate,
 *   amount = unit price x minutes / 60 rounded once, half up, to cents (integers: `lineAmountMinor`), so
 *   grouping the same entries otherwise moves the total by at most half a cent per line (issue 32);
 * - currency: the project's, else the client's, else the billing profile's default; one invoice has one currency;
 * - tax: taxRate is a percentage of the subtotal, rounded once, half up, to cents; total = subtotal + tax
 *   (integer cents throughout, never float sums); quantities and amounts past the document's maxima are 400;
 * - numbers: INV-000001, INV-000002, ... per workspace, given when a draft is sent (a draft has none unless a
 *   custom one was set); dueDate defaults to issueDate + 30 days;
 * - status transitions: draft -> sent -> (partially_paid ->) paid, draft|sent -> void; delete draft|void.
 */
export const LINE_GROUPINGS = ['project', 'task', 'entry'] as const;
export type LineGrouping = (typeof LINE_GROUPINGS)[number];
export const DEFAULT_DUE_DAYS = 30;
export const MAX_LINE_ITEMS = 200;
/** The most entries one invoice covers (docs/data-model.md, "Invoices from time"). */
export const MAX_INVOICE_ENTRIES = 5000;

/** The number the sequence gives: `INV-` and at least 6 digits. */
export const invoiceNumberOf = (n: number): string => `INV-${String(n).padStart(6, '0')}`;
/** The sequence value of a number the sequence could have given, else undefined. */
export function sequenceOf(number: string): number | undefined {
  const m = /^INV-(\d{6,})$/i.exec(number.trim());
  return m ? Number(m[1]) : undefined;
}

/** A calendar date plus days (UTC). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** What the lines need of a time entry: its final (locked) values. */
export interface BillableEntry {
  id: string;
  startTime: string;
  durationMinutes: number;
  projectId?: string;
  taskId?: string;
  name?: string;
  notes?: string;
}
export interface CatalogProject {
  name: string;
  hourlyRate?: number;
  currency?: string;
}
/** The names and rates the lines are made from. */
export interface InvoiceCatalog {
  client: { name: string; currency?: string };
  projects: ReadonlyMap<string, CatalogProject>;
  tasks: ReadonlyMap<string, { name: string }>;
}
export interface InvoiceLines {
  currency: string;
  lineItems: LineItem[];
  /** The entries (ids) of each line, in line order. */
  lineEntries: string[][];
  subtotal: number;
  minutes: number;
}

const projectLabel = (catalog: InvoiceCatalog, id: string | undefined) => (id ? (catalog.projects.get(id)?.name ?? id) : '(no project)');

/**
 * The invoice lines of a set of entries. 409 when nothing is to be invoiced, when billable entries have
 * no rate (naming their projects), or when the projects' currencies differ (naming each project and its
 * currency); 400 when the grouping makes more lines than an invoice holds.
 */
export function invoiceLines(entries: readonly BillableEntry[], catalog: InvoiceCatalog, grouping: LineGrouping = 'project'): InvoiceLines {
  if (entries.length === 0) throw conflict('Nothing to invoice: the client has no billable, stopped, not yet invoiced time entry in that period');
  const noRate = new Set<string>();
  const currencies = new Map<string, Set<string>>();
  for (const e of entries) {
    const project = e.projectId ? catalog.projects.get(e.projectId) : undefined;
    if (project?.hourlyRate === undefined) {
      noRate.add(projectLabel(catalog, e.projectId));
      continue;
    }
    const currency = project.currency ?? catalog.client.currency;
    if (!currency) {
      noRate.add(`${project.name} (no currency on the project, the client or the billing profile)`);
      continue;
    }
    currencies.set(currency, (currencies.get(currency) ?? new Set()).add(project.name));
  }
  if (noRate.size > 0) throw conflict(`Billable time without an hourly rate cannot be invoiced: set the rate of ${[...noRate].sort().join(', ')}, or mark that time not billable`);
  if (currencies.size > 1) {
    const list = [...currencies].map(([c, names]) => `${c}: ${[...names].sort().join(', ')}`).join('; ');
    throw conflict(`An invoice has one currency, and these projects bill in several (${list}); invoice them separately`);
  }
  const currency = [...currencies.keys()][0]!;

  const groups = new Map<string, { description: string; rate: number; minutes: number; ids: string[]; order: string }>();
  for (const e of entries) {
    const project = catalog.projects.get(e.projectId!)!;
    const key = grouping === 'project' ? e.projectId! : grouping === 'task' ? `${e.projectId!}#${e.taskId ?? ''}` : e.id;
    let g = groups.get(key);
    if (!g) {
      const description =
        grouping === 'project'
          ? project.name
          : grouping === 'task'
            ? `${project.name} / ${e.taskId ? (catalog.tasks.get(e.taskId)?.name ?? e.taskId) : '(no task)'}`
            : `${e.startTime.slice(0, 10)} ${project.name}${e.name ? `: ${e.name}` : e.notes ? `: ${e.notes.split('\n')[0]}` : ''}`.slice(0, 1000);
      g = { description, rate: project.hourlyRate!, minutes: 0, ids: [], order: grouping === 'entry' ? `${e.startTime}#${e.id}` : description };
      groups.set(key, g);
    }
    g.minutes += e.durationMinutes;
    g.ids.push(e.id);
  }
  if (groups.size > MAX_LINE_ITEMS) throw invalidField('lines', `this grouping makes ${groups.size} lines; an invoice holds at most ${MAX_LINE_ITEMS}: group by project or task`);
  const sorted = [...groups.values()].filter((g) => g.minutes > 0).sort((a, b) => a.order.localeCompare(b.order));
  const lineItems: LineItem[] = sorted.map((g, i) => {
    // the hours are shown rounded, never used rounded: the amount is the rate times the exact minutes, rounded once
    const quantity = hoursShown(g.minutes);
    const amountMinor = lineAmountMinor(g.rate, g.minutes);
    if (quantity > MAX_QUANTITY) {
      throw invalidField(`lineItems.${i}.quantity`, `would be ${quantity} hours; an invoice line holds at most ${MAX_QUANTITY.toLocaleString('en-US')}: invoice a shorter period`);
    }
    if (amountMinor > MAX_MONEY_MINOR)
      throw invalidField(`lineItems.${i}.amount`, `would be ${amountMinor / 100}; an amount is at most ${MAX_MONEY_MINOR / 100}: invoice a shorter period`);
    return { description: g.description, quantity, unitPrice: g.rate, amount: amountMinor / 100, minutes: g.minutes };
  });
  const subtotalMinor = lineItems.reduce((s, li) => s + cents(li.amount), 0);
  return {
    currency,
    lineItems,
    lineEntries: sorted.map((g) => g.ids),
    subtotal: subtotalMinor / 100,
    minutes: entries.reduce((s, e) => s + e.durationMinutes, 0),
  };
}

/** The most hours one line shows, and the most money an amount or total holds (the invoice document's maxima). */
export const MAX_QUANTITY = 1_000_000;
export const MAX_MONEY_MINOR = 1_000_000_000 * 100;

/** n / d rounded half up, for non-negative integers (exact: BigInt). */
const divHalfUp = (n: bigint, d: bigint): bigint => (n * 2n + d) / (2n * d);

/** The hours of some minutes as a line shows them: 2 decimals, half up. Display only. */
export const hoursShown = (minutes: number): number => Number(divHalfUp(BigInt(minutes) * 100n, 60n)) / 100;

/**
 * A line's amount in minor units (cents): the hourly rate times the exact minutes / 60, rounded once, half up.
 * The rate is taken to its millionth (rates have at most 2 decimals in practice), all in integers.
 */
export function lineAmountMinor(rate: number, minutes: number): number {
  return Number(divHalfUp(BigInt(Math.round(rate * 1_000_000)) * BigInt(minutes), 60n * 10_000n));
}

/** The tax in minor units: taxRate % (at most 4 decimals) of the subtotal, rounded once, half up. */
export function taxMinor(subtotalMinor: number, taxRate: number): number {
  return Number(divHalfUp(BigInt(subtotalMinor) * BigInt(Math.round(taxRate * 10_000)), 1_000_000n));
}

/** Subtotal, tax (taxRate % of it, rounded once) and total of a set of lines: sums of integer minor units. 400 `total` past the maximum. */
export function invoiceTotals(lineItems: readonly LineItem[], taxRate = 0): { subtotal: number; tax: number; total: number } {
  const subtotalMinor = lineItems.reduce((s, li) => s + cents(li.amount), 0);
  const tax = taxMinor(subtotalMinor, taxRate);
  if (subtotalMinor + tax > MAX_MONEY_MINOR)
    throw invalidField('total', `would be ${(subtotalMinor + tax) / 100}; a total is at most ${MAX_MONEY_MINOR / 100}: invoice a shorter period`);
  return { subtotal: subtotalMinor / 100, tax: tax / 100, total: (subtotalMinor + tax) / 100 };
}

export const INVOICE_ACTIONS = ['update', 'send', 'pay', 'void', 'delete'] as const;
export type InvoiceAction = (typeof INVOICE_ACTIONS)[number];
/** From which statuses each action is allowed, and the status it leaves (delete leaves none). */
const TRANSITIONS: Record<InvoiceAction, { from: readonly InvoiceStatus[]; to?: InvoiceStatus }> = {
  update: { from: ['draft'], to: 'draft' },
  send: { from: ['draft'], to: 'sent' },
  pay: { from: ['sent', 'partially_paid'], to: 'paid' },
  void: { from: ['draft', 'sent'], to: 'void' },
  delete: { from: ['draft', 'void'] },
};

/** 409 naming the status when the action is not allowed from it. */
export function assertTransition(invoice: { id?: unknown; number?: unknown; status?: unknown; releasing?: unknown }, action: InvoiceAction): void {
  if (invoice.releasing === true) throw conflict(`Invoice ${invoiceLabel(invoice)} is still releasing its entries; retry in a moment`);
  const t = TRANSITIONS[action];
  const status = String(invoice.status) as InvoiceStatus;
  if (t.from.includes(status)) return;
  const verb = action === 'update' ? 'changed' : action === 'pay' ? 'paid' : action === 'send' ? 'sent' : action === 'void' ? 'voided' : 'deleted';
  throw conflict(`Invoice ${invoiceLabel(invoice)} is ${status}; only ${t.from.join(' or ')} invoices can be ${verb}`);
}
