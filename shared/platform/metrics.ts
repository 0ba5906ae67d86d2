import { Console } from 'node:console';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import * as settings from './settings';

/**
 * Powertools metrics (CloudWatch EMF, written to the log: no API call on the request path), in
 * namespace TimeTracking with dimensions service + resource. One record per request, every counter
 * present (0 or 1) so dashboards and alarms see continuous series. Disabled locally and in tests by
 * POWERTOOLS_METRICS_DISABLED=true.
 *
 * The record has the same layout on every request of a container: only the timestamp and the five
 * values change. So Powertools resolves the configuration (namespace, service, POWERTOOLS_METRICS_DISABLED
 * and POWERTOOLS_DEV) and serializes the layout ONCE, when the function is loaded, and each request
 * writes that layout with its own timestamp and values: the same line `publishStoredMetrics()` would
 * write (test/observability/metrics.test.ts compares them), without its per-call validation, metric
 * store bookkeeping and environment lookups (~50 µs per request, most of the warm overhead budget).
 */
export const METRICS_NAMESPACE = 'TimeTracking';
export type Outcome = { status: number; rateLimited?: boolean };

/** The counters of every record, in the order they are written. */
export const OUTCOME_METRICS = ['Requests', 'Errors', 'ClientErrors', 'RateLimited', 'AuthFailed'] as const;
type OutcomeValues = Record<(typeof OUTCOME_METRICS)[number], number>;

export function outcomeValues(outcome: Outcome): OutcomeValues {
  return {
    Requests: 1,
    Errors: outcome.status >= 500 ? 1 : 0,
    ClientErrors: outcome.status >= 400 && outcome.status < 500 ? 1 : 0,
    RateLimited: outcome.rateLimited ? 1 : 0,
    AuthFailed: outcome.status === 401 ? 1 : 0,
  };
}

export function metricsOptions(resource: string) {
  return {
    namespace: METRICS_NAMESPACE,
    serviceName: settings.serviceName(),
    defaultDimensions: { resource },
  };
}

/**
 * Where Powertools writes EMF (outside POWERTOOLS_DEV, where metrics are off anyway): a Console of its
 * own on stdout, not the global console that the Lambda runtime patches.
 */
const emfOut = new Console({ stdout: process.stdout, stderr: process.stderr, colorMode: false });

/** The members of a JSON object as text, each after a comma (`,"a":1,"b":2`; empty for none). */
const membersAfterComma = (o: Record<string, unknown>): string => (Object.keys(o).length ? `,${JSON.stringify(o).slice(1, -1)}` : '');

export class OutcomeMetrics extends Metrics {
  readonly enabled: boolean;
  /**
   * What every record of this container repeats, as JSON text: the EMF metric directives after the
   * timestamp, and the dimensions. A request's line is these with its timestamp and counters in between
   * (no object built and serialized per request).
   */
  readonly #directives: string;
  readonly #dimensions: string;

  constructor(resource: string) {
    super(metricsOptions(resource));
    this.enabled = !this.isDisabled();
    // Powertools' own record (`{ _aws: { Timestamp, CloudWatchMetrics }, ...dimensions, ...counters }`), once.
    for (const name of OUTCOME_METRICS) this.addMetric(name, MetricUnit.Count, 0);
    const { _aws, ...dimensionsAndCounters } = this.serializeMetrics();
    this.clearMetrics();
    const { Timestamp: _timestamp, ...directives } = _aws;
    this.#directives = membersAfterComma(directives);
    this.#dimensions = membersAfterComma(Object.fromEntries(Object.entries(dimensionsAndCounters).filter(([k]) => !(OUTCOME_METRICS as readonly string[]).includes(k))));
  }

  /** The EMF line of one request's outcome (the same layout, this request's timestamp and counters). */
  line(outcome: Outcome, timestamp = Date.now()): string {
    const v = outcomeValues(outcome);
    let counters = '';
    for (const name of OUTCOME_METRICS) counters += `,"${name}":${v[name]}`;
    return `{"_aws":{"Timestamp":${timestamp}${this.#directives}}${this.#dimensions}${counters}}`;
  }
}

export function createMetrics(resource: string): OutcomeMetrics {
  return new OutcomeMetrics(resource);
}

export function recordOutcome(metrics: OutcomeMetrics, outcome: Outcome): void {
  if (metrics.enabled) emfOut.log(metrics.line(outcome));
}
