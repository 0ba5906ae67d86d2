import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { keys } from '../data/keys';
import { deliveryQueue } from './queue';
import { logger } from '../platform/logger';
import { dispatch, handleMessage, type DeliveryMessage } from './delivery';

/**
 * The two Lambda functions of webhook delivery in AWS (lib/webhooks.ts wires them):
 * - the dispatcher, woken by the table's stream, filtered to new change-event items: it dispatches each
 *   workspace named in the batch (shared/webhooks/delivery.ts, dispatch). A failure fails the batch,
 *   which the stream retries: dispatch is idempotent (its own feed position, deliveries written once).
 * - the sender, fed by the SQS queue: one attempt per message; a message whose handling failed is
 *   reported back (partial batch response, Powertools' batch utility) and SQS delivers it again, then to
 *   the dead-letter queue. A batch whose every message failed is answered the same way (every message
 *   reported), not thrown.
 */
export const dispatcherHandler = middy(async (event: DynamoDBStreamEvent): Promise<void> => {
  const workspaces = new Set<string>();
  for (const r of event.Records) {
    const ws = keys.workspaceOfChangeLog(r.dynamodb?.Keys?.PK?.S ?? '');
    if (ws) workspaces.add(ws);
  }
  const queue = deliveryQueue<DeliveryMessage>();
  for (const ws of workspaces) {
    const { queued } = await dispatch(ws, queue);
    logger.info('Dispatched', { workspaceId: ws, queued });
  }
}).use(injectLambdaContext(logger, { resetKeys: true, logEvent: false }));

const processor = new BatchProcessor(EventType.SQS);

export const senderHandler = middy(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  const queue = deliveryQueue<DeliveryMessage>();
  const handleRecord = async (r: SQSRecord): Promise<void> => {
    try {
      await handleMessage(JSON.parse(r.body) as DeliveryMessage, queue);
    } catch (err) {
      logger.error('Webhook message failed', { messageId: r.messageId, error: (err as Error).name });
      throw err;
    }
  };
  return processPartialResponse(event, handleRecord, processor, { context, throwOnFullBatchFailure: false, processInParallel: true });
}).use(injectLambdaContext(logger, { resetKeys: true, logEvent: false }));
