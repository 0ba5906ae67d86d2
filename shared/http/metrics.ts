import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/**
 * Powertools metrics (CloudWatch EMF, written to the log: no API call on the request path), in
 * namespace TimeTracking with dimensions service + resource. One flush per request, every counter
 * present (0 or 1) so dashboards and alarms see continuous series. Disabled locally and in tests by
 * POWERTOOLS_METRICS_DISABLED=true.
 */
export const METRICS_NAMESPACE = 'TimeTracking';
export type Outcome = { status: number; rateLimited?: boolean };

export function createMetrics(resource: string): Metrics {
  return new Metrics({
    namespace: METRICS_NAMESPACE,
    serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'timetrack-api',
    defaultDimensions: { resource },
  });
}

export function recordOutcome(metrics: Metrics, outcome: Outcome): void {
  metrics.addMetric('Requests', MetricUnit.Count, 1);
  metrics.addMetric('Errors', MetricUnit.Count, outcome.status >= 500 ? 1 : 0);
  metrics.addMetric('ClientErrors', MetricUnit.Count, outcome.status >= 400 && outcome.status < 500 ? 1 : 0);
  metrics.addMetric('RateLimited', MetricUnit.Count, outcome.rateLimited ? 1 : 0);
  metrics.addMetric('AuthFailed', MetricUnit.Count, outcome.status === 401 ? 1 : 0);
  metrics.publishStoredMetrics();
}
