import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger } from '../platform/logger';
import { metricsOptions } from '../platform/metrics';
import { sweepInvoiceJobs, type SweepReport } from './service';

/**
 * The scheduled invoice sweep (issue 32, item 2): what functions/invoice-sweep runs every minute in AWS
 * (EventBridge) and `npm start` every INVOICE_SWEEP_INTERVAL_MS (local/invoice-sweep.ts). It finishes every
 * job whose lease ran out (a create no step continued: rolled back; a void or delete no step continued:
 * finished) within `budgetMs`, logs its report and publishes the age of the oldest job still open
 * (`OldestOpenInvoiceJobAgeSeconds`, the alarm's metric: a job that no sweep can finish grows it).
 */
export const SWEEP_METRIC = 'OldestOpenInvoiceJobAgeSeconds';
const metrics = new Metrics(metricsOptions('invoice-sweep'));

export async function runInvoiceSweep(opts: { budgetMs: number }): Promise<SweepReport> {
  const report = await sweepInvoiceJobs({ budgetMs: opts.budgetMs });
  logger.info('Invoice sweep', { ...report });
  metrics.addMetric(SWEEP_METRIC, MetricUnit.Seconds, Math.round(report.oldestOpenMs / 1000));
  metrics.publishStoredMetrics();
  return report;
}
