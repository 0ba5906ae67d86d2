import * as z from 'zod/mini';
import { defineEntity, type EntityRecord } from '../entity';
import { singleLine, meta } from '../fields';

/**
 * Webhook endpoints: PK `WS#<ws>`, SK `WEBHOOK#<id>`; the whole list, in creation order. Not
 * time-tracking data, so their writes make no change-feed events (`changes: false`).
 *
 * Internals the API never shows (`_` attributes, written by shared/webhooks/store.ts): `_secret` (the
 * signing secret, encrypted), `_prevSecret` and `_prevSecretUntil` (the secret before a rotation, still
 * signed with for a while), `_readable` (the resources the creating key could read: the only ones whose
 * events it receives), `_activeSince` (events that occurred before are not sent: creation or
 * re-enabling) and `_failedEvents` (events in a row that exhausted their retries).
 */
export const WEBHOOK_URL_MAX = 2048;
/** Endpoints a workspace may have (`MAX_WEBHOOKS` overrides it). */
export const MAX_WEBHOOKS_DEFAULT = 20;

export const webhooks = defineEntity({
  resource: 'webhooks',
  kind: 'Webhook',
  type: 'WEBHOOK',
  description: 'Endpoints that receive change events as signed HTTP POSTs (Standard Webhooks)',
  changes: false,
  fields: {
    url: {
      schema: meta(singleLine(z.string().check(z.trim(), z.minLength(1), z.maxLength(WEBHOOK_URL_MAX))), {
        description: 'Where events are POSTed (https; http and loopback only on a local run)',
        example: 'https://hooks.acme.example/timetrack',
      }),
      required: true,
    },
    events: {
      schema: meta(z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.minLength(1), z.maxLength(100)), {
        description: 'Change types to receive: `time-entry.created`, `<resource>.*` or `*`',
        example: ['time-entry.*', 'project.deleted'],
      }),
      required: true,
    },
    description: { schema: meta(singleLine(z.string().check(z.trim(), z.maxLength(1000))), { example: 'Time entries to the billing system' }) },
    enabled: { schema: meta(z.boolean(), { description: 'false: no events are sent; set true again to resume (events from then on)', example: true }), default: true },
  },
  computed: {
    disabledReason: meta(z.optional(z.string().check(z.maxLength(1024))), {
      description: 'Why the server disabled the endpoint (absent while enabled)',
      example: 'Disabled on 2026-03-04T02:15:00.000Z: 5 events in a row exhausted their retries without a 2xx answer',
    }),
  },
  derived: {
    reads: ['enabled'],
    apply: (rec) => {
      if (rec.enabled === false) return rec;
      const { disabledReason: _gone, ...out } = rec;
      void _gone;
      return out;
    },
  },
  key: { pk: {}, sk: { prefix: 'WEBHOOK', composite: ['id'] } },
  // Bounded like every whole list, and tighter (issue 22 item 4): each endpoint is one signed POST per
  // event, so MAX_WEBHOOKS is the worst fan-out of one change (docs/capacity.md, "Webhook fan-out").
  list: { mode: 'whole', via: ['key'], order: 'created', bound: { maxRecords: MAX_WEBHOOKS_DEFAULT, env: 'MAX_WEBHOOKS' } },
});
export type WebhookRecord = EntityRecord<typeof webhooks>;
