import * as z from 'zod';
import { EXAMPLE_IDS } from './examples';

/*
 * Kept apart from shared/domain/webhooks.ts (the URL address rules, which import ipaddr.js): every
 * function's API schemas import this shape, and none of them should carry the address rules.
 */

/** One delivery attempt as the deliveries route lists it: the one source of its shape (the store's type is inferred). */
export const webhookAttemptSchema = z
  .object({
    eventId: z.string().max(64).meta({ example: EXAMPLE_IDS.event }),
    type: z.string().max(64).meta({ description: 'The event type (a change type, or webhook.ping)', example: 'time-entry.created' }),
    attempt: z.number().int().meta({ description: '1 for the first attempt of the event', example: 2 }),
    at: z.string().max(64).meta({ format: 'date-time', description: 'When the attempt started' }).meta({ example: '2026-03-02T10:30:11.000Z' }),
    statusCode: z.number().int().optional().meta({ description: "The receiver's HTTP status (absent when no answer came)", example: 503 }),
    error: z.string().max(1024).optional().meta({ description: 'Why no answer came: timeout, refused address, connection error', example: 'timeout after 10000 ms' }),
    durationMs: z.number().int().meta({ example: 182 }),
    nextRetryAt: z
      .string()
      .max(64)
      .meta({ format: 'date-time', description: 'When the event is tried again (absent: delivered, or retries exhausted)' })
      .optional()
      .meta({ example: '2026-03-02T10:35:11.000Z' }),
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttempt = z.output<typeof webhookAttemptSchema>;
