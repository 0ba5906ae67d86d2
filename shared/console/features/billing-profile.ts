import * as z from 'zod/mini';
import { meta } from '../../domain/fields';
import { billingProfileInput, getBillingProfile, setBillingProfile } from '../../invoicing/profile';
import { consoleRoute } from '../route-table';
import * as s from '../schemas';

/**
 * The Settings section (issue 32 item 6): the workspace's billing profile. Every member reads it; owners
 * replace it (PUT: the whole profile; Idempotency-Key like the console's POSTs; its audit entry
 * `billing-profile.updated` in the same transaction). shared/invoicing/profile.ts holds the rules.
 */
const TAG = 'Settings';
const path = '/console/api/workspaces/{workspaceId}/billing-profile';

const text = z.nullable(z.string());
export const billingProfileSchema = meta(
  z.object({
    displayName: meta(text, { description: 'The sender the invoices show ("From"); null before an owner set the profile (the documents then show the workspace id)' }),
    address: text,
    taxId: text,
    email: text,
    defaultCurrency: text,
    defaultTaxRate: z.nullable(z.number()),
    paymentTermsDays: z.nullable(z.int()),
    invoiceFooter: text,
    updatedAt: meta(z.nullable(z.iso.datetime({ offset: true })), { description: 'When it was last set (null: never)' }),
    updatedBy: meta(text, { description: 'Who last set it (null: never)' }),
  }),
  { id: 'ConsoleBillingProfile' },
);

export const billingProfileRoutes = {
  getConsoleBillingProfile: consoleRoute(
    {
      method: 'GET',
      path,
      access: 'viewer',
      tag: TAG,
      summary: "The workspace's billing profile: the invoices' sender and a new invoice's defaults (every field null before it is set)",
      params: s.workspaceParams,
      response: billingProfileSchema,
      successStatus: 200,
    },
    async ({ params }) => getBillingProfile(params.workspaceId),
  ),
  putConsoleBillingProfile: consoleRoute(
    {
      method: 'PUT',
      path,
      access: 'owner',
      tag: TAG,
      summary: "Replace the workspace's billing profile (owners)",
      description:
        'The whole profile: a field absent or null is not set. It is the PDF\'s "From" of drafts and of invoices sent from now on (a sent invoice keeps the profile it was sent with), and a new invoice\'s defaults: currency (when neither the project nor the client sets one), tax rate, due date (issue date + paymentTermsDays; 30 when not set) and notes (the footer). Texts refuse control characters (line breaks only in address and invoiceFooter) and zero-width or bidi characters: 400 naming the field. Idempotency-Key: the same key and body within 24 hours answers the first answer again. Audit log: billing-profile.updated, each changed field from -> to (a PUT that changes nothing writes nothing).',
      params: s.workspaceParams,
      body: billingProfileInput,
      response: billingProfileSchema,
      successStatus: 200,
    },
    async ({ params, body, person }) => setBillingProfile(params.workspaceId, body, { id: person.email }),
  ),
};
