import { dispatcherHandler } from '../../shared/api/webhook-workers';

/** Webhook dispatcher: DynamoDB stream (new change events) -> deliveries -> SQS (shared/api/webhook-workers.ts). */
export const handler = dispatcherHandler;
