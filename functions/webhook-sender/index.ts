import { senderHandler } from '../../shared/api/webhook-workers';

/** Webhook sender: SQS -> one signed POST per message (shared/api/webhook-workers.ts). */
export const handler = senderHandler;
