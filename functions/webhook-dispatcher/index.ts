import { dispatcherHandler } from '../../shared/services/webhook-workers';

/** Webhook dispatcher: DynamoDB stream (new change events) -> deliveries -> SQS (shared/services/webhook-workers.ts). */
export const handler = dispatcherHandler;
