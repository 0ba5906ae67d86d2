import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { keys } from '../shared/data/keys';
import { SWEEP_METRIC } from '../shared/invoicing/sweep';
import type { StageConfig } from './config';
import { METRICS_NAMESPACE, serviceName, ServiceFunction } from './service-function';

/**
 * The invoice sweep (issue 32, item 2; shared/invoicing/sweep.ts): an EventBridge schedule runs
 * functions/invoice-sweep every minute, so an invoice step nobody continues is rolled back (and a void or
 * delete nobody continues is finished) within INVOICE_STEP_LEASE_MS plus a minute, with no other request.
 * Its role: the workspace data it releases and rewrites (entries, invoices, their locks, counters and feed:
 * PK `WS#...`, the job items included) and every open job through GSI1 (`INVOICEJOBS`); no rate counters, API keys or webhook items. An alarm
 * fires when the oldest job still open after a sweep is older than 15 minutes (a job no sweep can finish).
 */
export class InvoiceSweep extends Construct {
  readonly fn: ServiceFunction;
  /** The age of the oldest open invoicing job, in seconds (the sweep publishes it each run): Monitoring.alarmInvoiceSweep alarms on it. */
  readonly oldestJobAge: cloudwatch.Metric;

  constructor(scope: Construct, id: string, props: { config: StageConfig; table: dynamodb.Table }) {
    super(scope, id);
    const { config } = props;
    this.fn = new ServiceFunction(this, 'Fn-invoice-sweep', {
      name: 'invoice-sweep',
      config,
      tableName: props.table.tableName,
      timeout: Duration.seconds(50),
      reservedConcurrentExecutions: 1,
      description: `time-tracking ${config.stage}: the invoice sweep (every minute)`,
    });
    this.fn.bindTable(props.table, { kind: 'readWrite', leadingKeys: [keys.workspacePartition('*')] });
    // every open job: a Query of GSI1's INVOICEJOBS partition, read only (the job items themselves are in WS#<ws>#INVOICEJOBS)
    this.fn.bindTable(props.table, { kind: 'read', leadingKeys: [keys.invoiceJobsPartition] });
    new events.Rule(this, 'Schedule', {
      description: `time-tracking ${config.stage}: the invoice sweep, every minute`,
      schedule: events.Schedule.rate(Duration.minutes(1)),
      targets: [new targets.LambdaFunction(this.fn.fn, { retryAttempts: 0 })],
    });
    this.oldestJobAge = new cloudwatch.Metric({
      namespace: METRICS_NAMESPACE,
      metricName: SWEEP_METRIC,
      dimensionsMap: { service: serviceName(config.stage), resource: 'invoice-sweep' },
      statistic: cloudwatch.Stats.MAXIMUM,
      period: Duration.minutes(5),
    });
  }
}
