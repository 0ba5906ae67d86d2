import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { ulid } from '../domain/ids';
import { localEnqueue } from './webhooks';

/**
 * Where webhook delivery messages go: the SQS queue named by `WEBHOOK_QUEUE_URL` (AWS, set by the CDK
 * stack), else the table-backed queue of the local run (shared/data/webhooks.ts, drained by
 * local/webhooks.ts). Both keep a message until its handler finished: at least once.
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

export function deliveryQueue<T>(): Queue<T> {
  const url = process.env.WEBHOOK_QUEUE_URL;
  return url ? sqsQueue<T>(url) : { send: (messages) => localEnqueue(messages) };
}
