/**
 * Invoices made from billable time (issue 24): the functions the console's routes call, and the seed.
 * docs/data-model.md ("Invoices from time") and docs/decisions.md ("Invoices from time") give the design:
 *
 *   createFromTime: read the candidates -> open a job (INVOICEJOBS item, state locking) -> lock the entries
 *   in batches of 49 (each a transaction with its events and the job's count) -> compute the lines from the
 *   entries as locked -> one commit transaction (the draft, without a number unless a custom one was given, its
 *   client counter, event, job deleted if its count equals the entries on the invoice); sending numbers it.
 *
 * A failure before the commit rolls back at once (job -> releasing, entries released, job closed); a
 * crash leaves the job, and `sweepInvoiceJobs` (named retry: run by the next invoicing call of the
 * workspace, by the admin or on a schedule) rolls it back once its lease ran out. Voiding or deleting an
 * invoice opens a release job first, changes the invoice, then releases its entries; the sweep finishes
 * a release a crash interrupted. Roles are the caller's business (the console: owners and admins write).
 *
 * The room (issue 32, item 1), one file per concern, each under 500 lines: ./inputs (the request shapes,
 * parsed once at the edge), ./create (the one create algorithm, in steps), ./lifecycle (draft edits, send
 * with its number, payments, void, delete), ./release (releases in steps and the sweep), ./read, ./common
 * (repositories, budgets, the audit entry); ./store knows the items, ./rules the arithmetic. This module is
 * the wing's one entry point for its callers (the console's routes, functions, the seed).
 */
export * from './common';
export * from './inputs';
export * from './read';
export * from './create';
export * from './lifecycle';
export * from './release';
