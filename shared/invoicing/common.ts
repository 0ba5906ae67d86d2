import type * as z from 'zod/mini';

import { invoices as invoiceEntity } from '../domain/entities/invoices';
import { invalidField } from '../domain/errors';
import { englishIssue } from '../domain/fields';
import { auditOp, type AuditAction, type AuditEntry } from '../data/audit';
import { type WriteOp } from '../data/write';
import { repository, type IfMatch } from '../data/repository';
import * as settings from '../platform/settings';

/** What every part of the invoicing services shares: the repositories, who acts, the budgets, the audit entry of a change. */
/** The repository of the invoices (through their entity declaration). */
export const invoices = () => repository(invoiceEntity);

/** Who acts (the console's signed-in user); recorded on the invoices they make. */
export interface Actor {
  id: string;
  role?: string;
}

/** Parses an input with one of ./inputs' shapes: 400 naming the first field it refuses. */
export function parse<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const res = schema.safeParse(input, { error: englishIssue });
  if (res.success) return res.data;
  const issue = res.error.issues[0]!;
  throw invalidField(issue.path.map(String).join('.') || 'body', issue.message);
}

/** How long an invoicing job's writer is trusted before the sweep takes the job over (INVOICE_JOB_LEASE_MS, default 15 min). */
export const jobLeaseMs = (): number => settings.invoiceJobLeaseMs();

export const today = () => new Date().toISOString().slice(0, 10);

export const chunks = <T>(list: readonly T[], size: number): T[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

export interface WriteOpts {
  ifMatch?: IfMatch;
  /** Who acts: given, the change carries its entry in the console's audit log (same transaction). */
  actor?: Actor;
}

/** The audit entry of an invoice change by `actor`, as writes that join the change (none without an actor). */
export function audited(workspaceId: string, actor: Actor | undefined, action: AuditAction, id: string, changes: AuditEntry['changes']): { also?: WriteOp[] } {
  return actor ? { also: [auditOp({ workspaceId, actor: actor.id, action, target: { type: 'invoice', id }, changes })] } : {};
}

/** How long one step works before it answers (INVOICE_STEP_BUDGET_MS, default 5 s: under the console function's 10 s timeout). */
export const stepBudgetMs = (): number => settings.invoiceStepBudgetMs();

/** A job made in steps is the sweep's when no step renewed it for this long (INVOICE_STEP_LEASE_MS, default 2 min). */
export const stepLeaseMs = (): number => settings.invoiceStepLeaseMs();
