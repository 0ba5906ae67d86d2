import * as z from 'zod/mini';
import { busy } from '../domain/errors';
import { currencyCode, meta, multiLine, singleLine } from '../domain/fields';
import { auditOp, diff } from '../data/audit';
import { contentionBudget, isContention } from '../data/write';
import { PROFILE_FIELDS, readProfile, writeProfile, type BillingProfile, type StoredProfile } from './store-profile';
import { taxRateInput, visible } from './inputs';
import type { Actor } from './common';

export type { BillingProfile } from './store-profile';

/**
 * The workspace's billing profile (issue 32 item 6): who the invoices come from (display name, address, tax
 * id, e-mail: the PDF's "From") and a new invoice's defaults (currency, tax rate, payment terms, footer).
 * Owners set it in the console's Settings (PUT .../billing-profile: the whole profile), every member reads
 * it. Its texts refuse control characters (line breaks only in the address and the footer) and zero-width or
 * bidi characters, as the console's invoice fields do. Sending an invoice copies what the document shows of
 * it into the invoice (./snapshot.ts), so a later change reaches drafts and new invoices only.
 */
/** Lines of the address at most (what the PDF's "From" shows). */
export const ADDRESS_MAX_LINES = 6;
export const MAX_PAYMENT_TERMS_DAYS = 365;

const line = (max: number) => visible(singleLine(z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`))));
const block = (max: number) => visible(multiLine(z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`))));
const optional = <S extends z.ZodMiniType>(schema: S, description: string) => meta(z.optional(z.nullable(schema)), { description: `${description} (null or absent: not set)` });

/** The body of PUT .../billing-profile: the whole profile (a field absent or null is not set). */
export const billingProfileInput = z.strictObject({
  displayName: meta(line(100), { description: 'The name invoices show as their sender ("From")', example: 'Studio North GmbH' }),
  address: optional(
    block(500).check(z.refine((v) => v.split('\n').length <= ADDRESS_MAX_LINES, `must be at most ${ADDRESS_MAX_LINES} lines`)),
    `Postal address, up to ${ADDRESS_MAX_LINES} lines`,
  ),
  taxId: optional(line(50), 'Tax or VAT id, shown under the address'),
  email: optional(visible(z.email('must be an e-mail address').check(z.maxLength(254))), 'Billing e-mail, shown under the address'),
  defaultCurrency: optional(currencyCode, "A new invoice's currency when neither the project nor the client sets one"),
  defaultTaxRate: optional(taxRateInput, "A new invoice's tax rate when the create gives none"),
  paymentTermsDays: optional(
    z.int('must be a whole number of days').check(z.gte(0, 'must be 0 or more'), z.lte(MAX_PAYMENT_TERMS_DAYS, `must be at most ${MAX_PAYMENT_TERMS_DAYS}`)),
    "Days from a new invoice's issue date to its due date when the create gives no due date (default 30)",
  ),
  invoiceFooter: optional(block(2000), "A new invoice's notes when the create gives none (payment instructions, thanks)"),
});
export type BillingProfileInput = z.output<typeof billingProfileInput>;

/** The profile as the console shows it: every field (null when not set), and who set it when (null: never set). */
export interface BillingProfileView {
  displayName: string | null;
  address: string | null;
  taxId: string | null;
  email: string | null;
  defaultCurrency: string | null;
  defaultTaxRate: number | null;
  paymentTermsDays: number | null;
  invoiceFooter: string | null;
  updatedAt: string | null;
  updatedBy: string | null;
}

const view = (stored: StoredProfile | undefined): BillingProfileView => {
  const p: Partial<BillingProfile> = stored?.profile ?? {};
  return {
    displayName: p.displayName ?? null,
    address: p.address ?? null,
    taxId: p.taxId ?? null,
    email: p.email ?? null,
    defaultCurrency: p.defaultCurrency ?? null,
    defaultTaxRate: p.defaultTaxRate ?? null,
    paymentTermsDays: p.paymentTermsDays ?? null,
    invoiceFooter: p.invoiceFooter ?? null,
    updatedAt: stored?.updatedAt ?? null,
    updatedBy: stored?.updatedBy ?? null,
  };
};

/** The workspace's billing profile (every field null before an owner set one). One GetItem. */
export async function getBillingProfile(workspaceId: string): Promise<BillingProfileView> {
  return view(await readProfile(workspaceId));
}

/** The stored profile of an input: its fields set, the others left out. */
function profileOf(input: BillingProfileInput): BillingProfile {
  const out: BillingProfile = { displayName: input.displayName };
  for (const f of PROFILE_FIELDS) {
    const v = input[f];
    if (v !== null && v !== undefined) Object.assign(out, { [f]: v });
  }
  return out;
}

/**
 * Replaces the workspace's billing profile, with its audit entry (`billing-profile.updated`, target the
 * workspace, each changed field from -> to) in the same transaction. The write is guarded by the version
 * read: when another write came in between, it reads again and retries (full-jitter backoff, within the
 * write budget; past it 503), so concurrent writes apply one after the other, each audit entry naming what
 * it replaced. A write that changes nothing writes nothing (no audit entry).
 */
export async function setBillingProfile(workspaceId: string, input: BillingProfileInput, actor: Actor): Promise<BillingProfileView> {
  const next = profileOf(input);
  const budget = contentionBudget();
  for (let attempt = 0; ; attempt++) {
    const current = await readProfile(workspaceId);
    const before: Partial<Record<keyof BillingProfile, unknown>> = current?.profile ?? {};
    const changes = diff(before, next, PROFILE_FIELDS);
    if (current && Object.keys(changes).length === 0) return view(current);
    const at = new Date().toISOString();
    const audit = auditOp({ workspaceId, actor: actor.id, action: 'billing-profile.updated', target: { type: 'workspace', id: workspaceId }, changes }, new Date(at));
    try {
      return view(await writeProfile(workspaceId, next, { at, actor: actor.id }, current?.version, [audit]));
    } catch (err) {
      if (!isContention(err)) throw err;
      if (!(await budget.wait(attempt))) throw busy('Other requests kept changing the billing profile for the whole retry budget; retry after a short wait');
    }
  }
}
