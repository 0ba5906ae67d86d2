import { dispatcherHandler } from '../../shared/webhooks/workers';

/** Webhook dispatcher: DynamoDB stream (new change events) -> deliveries -> SQS (shared/webhooks/workers.ts). */
export const handler = dispatcherHandler;
