import * as z from 'zod/mini';
import { EXAMPLE_IDS } from './examples';
import { meta } from './fields';

/*
 * Kept apart from shared/domain/webhooks.ts (the URL address rules, which import ipaddr.js): every
 * function's API schemas import this shape, and none of them should carry the address rules.
 */

/** One delivery attempt as the deliveries route lists it: the one source of its shape (the store's type is inferred). */
export const webhookAttemptSchema = meta(
  z.object({
    eventId: meta(z.string().check(z.maxLength(64)), { example: EXAMPLE_IDS.event }),
    type: meta(z.string().check(z.maxLength(64)), { description: 'The event type (a change type, or webhook.ping)', example: 'time-entry.created' }),
    attempt: meta(z.number().check(z.int()), { description: '1 for the first attempt of the event', example: 2 }),
    at: meta(meta(z.string().check(z.maxLength(64)), { format: 'date-time', description: 'When the attempt started' }), { example: '2026-03-02T10:30:11.000Z' }),
    statusCode: meta(z.optional(z.number().check(z.int())), { description: "The receiver's HTTP status (absent when no answer came)", example: 503 }),
    error: meta(z.optional(z.string().check(z.maxLength(1024))), {
      description: 'Why no answer came: timeout, refused address, connection error',
      example: 'timeout after 10000 ms',
    }),
    durationMs: meta(z.number().check(z.int()), { example: 182 }),
    nextRetryAt: meta(
      z.optional(meta(z.string().check(z.maxLength(64)), { format: 'date-time', description: 'When the event is tried again (absent: delivered, or retries exhausted)' })),
      { example: '2026-03-02T10:35:11.000Z' },
    ),
  }),
  { id: 'WebhookAttempt' },
);
export type WebhookAttempt = z.output<typeof webhookAttemptSchema>;
