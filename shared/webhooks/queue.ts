import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { ulid } from '../domain/ids';
import * as settings from '../platform/settings';

/**
 * Where webhook delivery messages go: the SQS queue named by `WEBHOOK_QUEUE_URL` (AWS, set by the CDK
 * stack), else the queue the local run installed with `useFallbackQueue` (the table-backed queue of
 * local/queue.ts, drained by local/webhooks.ts; no Lambda bundles it). Both keep a message until its
 * handler finished: at least once.
 */
export interface Queue<T> {
  send(messages: ReadonlyArray<{ body: T; delaySeconds: number }>): Promise<void>;
}

let sqs: SQSClient | undefined;
function sqsQueue<T>(url: string): Queue<T> {
  return {
    async send(messages) {
      sqs ??= new SQSClient({});
      for (let i = 0; i < messages.length; i += 10) {
        const entries = messages
          .slice(i, i + 10)
          .map((m) => ({ Id: ulid(), MessageBody: JSON.stringify(m.body), DelaySeconds: Math.min(900, Math.max(0, Math.ceil(m.delaySeconds))) }));
        const res = await sqs.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: entries }));
        if (res.Failed?.length) throw new Error(`SQS refused ${res.Failed.length} message(s): ${res.Failed[0]?.Code ?? 'unknown'}`);
      }
    },
  };
}

let fallback: Queue<unknown> | undefined;
/** The queue used without `WEBHOOK_QUEUE_URL` (local/queue.ts installs the local run's). */
export function useFallbackQueue(queue: Queue<unknown>): void {
  fallback = queue;
}

export function deliveryQueue<T>(): Queue<T> {
  const url = settings.webhookQueueUrl();
  if (url) return sqsQueue<T>(url);
  if (!fallback) throw new Error('No webhook queue: WEBHOOK_QUEUE_URL is not set (and no local queue was installed)');
  return fallback as Queue<T>;
}
