import { senderHandler } from '../../shared/services/webhook-workers';

/** Webhook sender: SQS -> one signed POST per message (shared/services/webhook-workers.ts). */
export const handler = senderHandler;
