import type { SweepReport } from '../shared/invoicing/service';
import { runInvoiceSweep } from '../shared/invoicing/sweep';
import * as settings from '../shared/platform/settings';

/**
 * The invoice sweep on a local run: the same sweep as functions/invoice-sweep (EventBridge, every minute,
 * in AWS) every INVOICE_SWEEP_INTERVAL_MS (default 60,000), one run at a time. So an invoice step nobody
 * continues is rolled back within INVOICE_STEP_LEASE_MS plus one interval, with no other request.
 */
export interface SweepLoop {
  stop(): Promise<void>;
}

export function startInvoiceSweep(opts: { intervalMs?: number; onError?: (err: unknown) => void; onReport?: (startedAt: number, report: SweepReport) => void } = {}): SweepLoop {
  const intervalMs = opts.intervalMs ?? settings.invoiceSweepIntervalMs();
  const onError = opts.onError ?? ((err: unknown) => console.error('invoice sweep:', (err as Error).message));
  let running = true;
  let wake: (() => void) | undefined;
  const done = (async () => {
    while (running) {
      await new Promise<void>((r) => ((wake = r), setTimeout(r, intervalMs)));
      if (!running) break;
      const startedAt = Date.now();
      await runInvoiceSweep({ budgetMs: Math.max(intervalMs, 1000) }).then((report) => opts.onReport?.(startedAt, report), onError);
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
