import { senderHandler } from '../../shared/webhooks/workers';

/** Webhook sender: SQS -> one signed POST per message (shared/webhooks/workers.ts). */
export const handler = senderHandler;
