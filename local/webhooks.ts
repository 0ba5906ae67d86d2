import { dispatch, handleMessage, type DeliveryMessage } from '../shared/webhooks/delivery';
import { deliveryQueue } from '../shared/webhooks/queue';
import { directory } from '../shared/webhooks/store';
import { localAck, localReceive } from './queue';

/**
 * Webhook delivery on a local run: the AWS parts' work (stream -> dispatcher, SQS -> sender) done by one
 * loop over the same code, with the table-backed queue of shared/webhooks/store.ts. Each round
 * dispatches every workspace with webhooks, then handles the messages that are due and deletes each
 * after it was handled. A message whose handling was cut short (a crash, Ctrl-C) stays queued and is
 * handled again by the next loop: nothing pending is lost across a restart.
 */
export interface DeliveryLoop {
  stop(): Promise<void>;
}

export function startWebhookDelivery(opts: { pollMs?: number; batch?: number; onError?: (err: unknown) => void } = {}): DeliveryLoop {
  const pollMs = opts.pollMs ?? Number(process.env.WEBHOOK_POLL_MS ?? 250);
  const batch = opts.batch ?? 50;
  const onError = opts.onError ?? ((err: unknown) => console.error('webhook delivery:', (err as Error).message));
  const queue = deliveryQueue<DeliveryMessage>();
  let running = true;
  let wake: (() => void) | undefined;
  const round = async (): Promise<number> => {
    for (const ws of await directory()) await dispatch(ws, queue).catch(onError);
    const due = await localReceive<DeliveryMessage>(batch);
    await Promise.all(
      due.map(async (m) => {
        try {
          await handleMessage(m.body, queue);
          await localAck(m.id);
        } catch (err) {
          onError(err);
        }
      }),
    );
    return due.length;
  };
  const done = (async () => {
    while (running) {
      const handled = await round().catch((err: unknown) => (onError(err), 0));
      if (handled === 0 && running) await new Promise<void>((r) => ((wake = r), setTimeout(r, pollMs)));
    }
  })();
  return {
    async stop() {
      running = false;
      wake?.();
      await done;
    },
  };
}
