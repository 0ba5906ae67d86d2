import { webhookAttemptSchema } from '../../domain/webhook-attempt';
import { EXAMPLE_IDS } from '../../domain/examples';
import { meta } from '../../domain/fields';
import * as z from 'zod/mini';
import { webhooks } from '../../domain/entities/webhooks';
import * as s from '../schemas';
import { crudRoutes, later, lazyRoutes, SECRET_NOT_KEPT, type RouteDef } from './define';

/** Webhooks (shared/domain/entities/webhooks.ts): the signing secret appears in two answers only. */
export const webhookSecretField = meta(z.string().check(z.maxLength(128)), {
  description: 'The signing secret (Standard Webhooks, `whsec_...`): shown in this answer only; store it now. Verify deliveries with it.',
  example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
});
export const webhookCreatedSchema = (item: z.ZodMiniObject) => meta(z.extend(item, { secret: webhookSecretField }), { id: 'WebhookCreated' });
export const webhookSecretSchema = meta(z.object({ id: meta(z.string().check(z.maxLength(128)), { example: EXAMPLE_IDS.webhook }), secret: webhookSecretField }), {
  id: 'WebhookSecret',
});
export const webhookPingSchema = meta(
  z.object({
    id: meta(z.string().check(z.maxLength(64)), { description: 'The event id of the ping (its webhook-id header)', example: 'evt_01JQ7ZR2B4C6D8E0F2G4H6J8K0' }),
    type: z.literal('webhook.ping'),
    queued: z.literal(true),
  }),
  { id: 'WebhookPing' },
);

/** What differs from the plain five routes of webhooks. */
export const webhooksOptions = {
  listSummary: 'List webhooks, oldest first',
  createResponse: webhookCreatedSchema,
  createNoIdempotency: SECRET_NOT_KEPT,
  updateSummary: 'Update a webhook (merge); enabled: true re-enables a disabled one (events from then on are sent)',
};
export const webhooksCrudRoutes = crudRoutes(webhooks, webhooksOptions);

/** What webhooks offer besides their five routes (shared/webhooks/routes.ts implements them). */
export const webhookRoutes = lazyRoutes({
  rotateWebhookSecret: {
    method: 'POST',
    path: '/v1/webhooks/{id}/rotate-secret',
    resource: 'webhooks',
    scope: 'webhooks:write',
    summary: 'Replace the signing secret; the new one is shown once (the old one keeps signing, beside it, for 24 hours)',
    params: s.idParamsFor('webhooks'),
    response: webhookSecretSchema,
    noIdempotency: SECRET_NOT_KEPT,
    successStatus: 200,
    kind: 'Webhook',
  },
  testWebhook: {
    method: 'POST',
    path: '/v1/webhooks/{id}/test',
    resource: 'webhooks',
    scope: 'webhooks:write',
    summary: 'Send a webhook.ping event to the endpoint (queued; see its deliveries)',
    params: s.idParamsFor('webhooks'),
    response: webhookPingSchema,
    successStatus: 200,
    kind: 'Webhook',
  },
  listWebhookDeliveries: {
    method: 'GET',
    path: '/v1/webhooks/{id}/deliveries',
    resource: 'webhooks',
    scope: 'webhooks:read',
    summary: 'Delivery attempts of a webhook, newest first (paginated)',
    params: s.idParamsFor('webhooks'),
    query: later(() => z.strictObject({ limit: s.limitParam, cursor: s.cursorParam })),
    response: later(() => s.pageOf(webhookAttemptSchema)),
    successStatus: 200,
    kind: 'Webhook',
  },
} satisfies Record<string, RouteDef>);

/** The webhooks function's routes. */
export const webhooksRoutes = { ...webhooksCrudRoutes, ...webhookRoutes };
