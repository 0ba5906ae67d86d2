import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as cw from 'aws-cdk-lib/aws-cloudwatch';
import * as cwActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subs from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { TABLE } from '../shared/data/table';
import type { StageConfig } from './config';
import { METRICS_NAMESPACE, serviceName, type ServiceFunction } from './service-function';

export interface MonitoringProps {
  readonly config: StageConfig;
  readonly api: apigw.RestApi;
  readonly table: dynamodb.Table;
  /** Resource functions and openapi, by name. */
  readonly functions: Record<string, ServiceFunction>;
  /** The console's functions (errors and throttles alarmed) and its authorizer (throttles: its errors are refused tokens). */
  readonly consoleFunctions?: { console: ServiceFunction; invoicePdf: ServiceFunction; authorizer: ServiceFunction };
  readonly authorizerFunction: ServiceFunction;
  readonly accessLogGroup: logs.ILogGroup;
}

/** EMF metrics the handlers emit (Powertools Metrics, dimension `resource`). */
export const HANDLER_METRICS = ['Requests', 'Errors', 'RateLimited', 'AuthFailed'] as const;

/**
 * Alarms (to one SNS topic) and one dashboard:
 * - API: 5xx rate, p99 latency; authorizer failures (from the access log, see below).
 * - Every function: Lambda errors and throttles. The authorizer's Lambda `Errors` count every rejected key
 *   (it throws 'Unauthorized' by protocol), so its failures are alarmed from the access log instead:
 *   responses of type AUTHORIZER_FAILURE / AUTHORIZER_CONFIGURATION_ERROR.
 * - DynamoDB: read/write throttle events of the table and of each index of shared/data/table.ts.
 */
export class Monitoring extends Construct {
  readonly alarmTopic: sns.Topic;
  readonly dashboard: cw.Dashboard;
  readonly alarms: cw.Alarm[] = [];

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { config, api, table } = props;
    const prefix = `time-tracking-${config.stage}`;
    const stage = api.deploymentStage;
    const oneMinute = Duration.minutes(1);
    const fiveMinutes = Duration.minutes(5);

    this.alarmTopic = new sns.Topic(this, 'AlarmTopic', {
      displayName: `${prefix} alarms`,
      enforceSSL: true,
    });
    if (config.alarms.email) this.alarmTopic.addSubscription(new subs.EmailSubscription(config.alarms.email));
    const action = new cwActions.SnsAction(this.alarmTopic);

    const alarm = (alarmId: string, metric: cw.IMetric, opts: { threshold: number; description: string; evaluationPeriods?: number; datapointsToAlarm?: number }) => {
      const a = new cw.Alarm(this, alarmId, {
        alarmName: `${prefix}-${alarmId}`,
        alarmDescription: opts.description,
        metric,
        threshold: opts.threshold,
        comparisonOperator: cw.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: opts.evaluationPeriods ?? 1,
        datapointsToAlarm: opts.datapointsToAlarm ?? opts.evaluationPeriods ?? 1,
        treatMissingData: cw.TreatMissingData.NOT_BREACHING,
      });
      a.addAlarmAction(action);
      a.addOkAction(action);
      this.alarms.push(a);
      return a;
    };

    // ------------------------------------------------------------ API
    const serverErrorRate = stage.metricServerError({ statistic: cw.Stats.AVERAGE, period: oneMinute, label: '5xx rate' });
    alarm('Api5xxRate', serverErrorRate, {
      threshold: config.alarms.serverErrorRate,
      evaluationPeriods: 5,
      datapointsToAlarm: 3,
      description: `More than ${config.alarms.serverErrorRate * 100}% of API responses were 5xx in 3 of the last 5 minutes.`,
    });
    const latencyP99 = stage.metricLatency({ statistic: cw.Stats.p(99), period: oneMinute, label: 'Latency p99' });
    alarm('ApiLatencyP99', latencyP99, {
      threshold: config.alarms.latencyP99Ms,
      evaluationPeriods: 5,
      datapointsToAlarm: 3,
      description: `API p99 latency at or above ${config.alarms.latencyP99Ms} ms in 3 of the last 5 minutes.`,
    });

    // Authorizer failures, counted from the JSON access log (field names: ACCESS_LOG_FIELDS of the stack).
    new logs.MetricFilter(this, 'AuthorizerErrorsFilter', {
      logGroup: props.accessLogGroup,
      metricNamespace: METRICS_NAMESPACE,
      metricName: 'AuthorizerErrors',
      filterPattern: logs.FilterPattern.any(
        logs.FilterPattern.stringValue('$.errorResponseType', '=', 'AUTHORIZER_FAILURE'),
        logs.FilterPattern.stringValue('$.errorResponseType', '=', 'AUTHORIZER_CONFIGURATION_ERROR'),
      ),
      metricValue: '1',
      dimensions: { stage: '$.stage' },
      unit: cw.Unit.COUNT,
    });
    const authorizerErrors = new cw.Metric({
      namespace: METRICS_NAMESPACE,
      metricName: 'AuthorizerErrors',
      dimensionsMap: { stage: config.stage },
      statistic: cw.Stats.SUM,
      period: fiveMinutes,
      label: 'Authorizer failures',
    });
    // A rate, not one event: the share of requests answered AUTHORIZER_* over the 5xx threshold in 3 of 5 minutes.
    const authorizerErrorRate = new cw.MathExpression({
      expression: '100 * FILL(e, 0) / IF(n > 0, n, 1)',
      usingMetrics: {
        e: authorizerErrors.with({ period: oneMinute }),
        n: stage.metricCount({ statistic: cw.Stats.SUM, period: oneMinute }),
      },
      label: 'Authorizer failures (% of requests)',
      period: oneMinute,
    });
    alarm('AuthorizerErrors', authorizerErrorRate, {
      threshold: config.alarms.serverErrorRate * 100,
      evaluationPeriods: 5,
      datapointsToAlarm: 3,
      description: `More than ${config.alarms.serverErrorRate * 100}% of requests were answered AUTHORIZER_FAILURE or AUTHORIZER_CONFIGURATION_ERROR in 3 of the last 5 minutes: the authorizer threw, timed out or was throttled (callers got 500/503).`,
    });

    const authorizers: ServiceFunction[] = [props.authorizerFunction, ...(props.consoleFunctions ? [props.consoleFunctions.authorizer] : [])];
    const allFunctions: Array<[string, ServiceFunction]> = [
      ...Object.entries(props.functions),
      ['authorizer', props.authorizerFunction],
      ...(props.consoleFunctions
        ? ([
            ['console', props.consoleFunctions.console],
            ['console-invoice-pdf', props.consoleFunctions.invoicePdf],
            ['console-authorizer', props.consoleFunctions.authorizer],
          ] as Array<[string, ServiceFunction]>)
        : []),
    ];
    for (const [name, f] of allFunctions) {
      if (!authorizers.includes(f)) {
        alarm(`Fn-${name}-Errors`, f.fn.metricErrors({ period: fiveMinutes, statistic: cw.Stats.SUM }), {
          threshold: 1,
          description: `The ${name} function failed (unhandled error or timeout): its log group is /time-tracking/${config.stage}/lambda/${name}.`,
        });
      }
      alarm(`Fn-${name}-Throttles`, f.fn.metricThrottles({ period: fiveMinutes, statistic: cw.Stats.SUM }), {
        threshold: 1,
        description: `The ${name} function was throttled (account or reserved concurrency exhausted).`,
      });
    }

    // ------------------------------------------------------------ DynamoDB
    const throttleEvents = (indexName?: string) => {
      // Ids must be unique across a graph that shows several of these expressions.
      const suffix = (indexName ?? 'table').toLowerCase();
      return new cw.MathExpression({
        expression: `r_${suffix} + w_${suffix}`,
        usingMetrics: Object.fromEntries(
          (['r', 'w'] as const).map((k) => [
            `${k}_${suffix}`,
            new cw.Metric({
              namespace: 'AWS/DynamoDB',
              metricName: k === 'r' ? 'ReadThrottleEvents' : 'WriteThrottleEvents',
              dimensionsMap: { TableName: table.tableName, ...(indexName ? { GlobalSecondaryIndexName: indexName } : {}) },
              statistic: cw.Stats.SUM,
              period: fiveMinutes,
            }),
          ]),
        ),
        label: indexName ? `${indexName} throttle events` : 'Table throttle events',
        period: fiveMinutes,
      });
    };
    const tableThrottles = throttleEvents();
    alarm('TableThrottles', tableThrottles, { threshold: 1, description: 'DynamoDB throttled reads or writes on the table.' });
    const indexThrottles = TABLE.indexes.map((i) => {
      const m = throttleEvents(i.name);
      alarm(`${i.name}Throttles`, m, { threshold: 1, description: `DynamoDB throttled reads or writes on index ${i.name} (writes to the table are throttled with it).` });
      return m;
    });

    // ------------------------------------------------------------ dashboard
    this.dashboard = new cw.Dashboard(this, 'Dashboard', {
      dashboardName: prefix,
      defaultInterval: Duration.hours(3),
    });
    const width = 8;
    const fnMetrics = (metric: (f: ServiceFunction) => cw.IMetric) => allFunctions.map(([, f]) => metric(f));
    const service = serviceName(config.stage);
    const handlerMetric = (metricName: string) =>
      new cw.MathExpression({
        // Every dimension set of the metric for this service (the handlers add `resource`; Powertools adds `service`).
        expression: `SEARCH('Namespace="${METRICS_NAMESPACE}" MetricName="${metricName}" service="${service}"', 'Sum', 300)`,
        usingMetrics: {},
        label: metricName,
        period: fiveMinutes,
      });

    this.dashboard.addWidgets(new cw.AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24, height: 4 }));
    this.dashboard.addWidgets(
      new cw.GraphWidget({
        title: 'API requests and errors',
        width,
        left: [
          stage.metricCount({ statistic: cw.Stats.SUM, period: oneMinute, label: 'Requests' }),
          stage.metricClientError({ statistic: cw.Stats.SUM, period: oneMinute, label: '4xx' }),
          stage.metricServerError({ statistic: cw.Stats.SUM, period: oneMinute, label: '5xx' }),
        ],
      }),
      new cw.GraphWidget({
        title: 'API latency (ms)',
        width,
        left: [
          stage.metricLatency({ statistic: cw.Stats.p(50), period: oneMinute, label: 'p50' }),
          stage.metricLatency({ statistic: cw.Stats.p(90), period: oneMinute, label: 'p90' }),
          latencyP99,
          stage.metricIntegrationLatency({ statistic: cw.Stats.p(99), period: oneMinute, label: 'Integration p99' }),
        ],
        leftAnnotations: [{ value: config.alarms.latencyP99Ms, label: 'p99 alarm' }],
      }),
      new cw.GraphWidget({
        title: '5xx rate and authorizer failures',
        width,
        left: [serverErrorRate],
        right: [authorizerErrors],
        leftAnnotations: [{ value: config.alarms.serverErrorRate, label: '5xx alarm' }],
      }),
    );
    this.dashboard.addWidgets(
      new cw.GraphWidget({ title: 'Lambda invocations', width, left: fnMetrics((f) => f.fn.metricInvocations({ period: fiveMinutes })) }),
      new cw.GraphWidget({
        title: 'Lambda errors and throttles',
        width,
        left: fnMetrics((f) => f.fn.metricErrors({ period: fiveMinutes })),
        right: fnMetrics((f) => f.fn.metricThrottles({ period: fiveMinutes })),
      }),
      new cw.GraphWidget({ title: 'Lambda duration p99 (ms)', width, left: fnMetrics((f) => f.fn.metricDuration({ statistic: cw.Stats.p(99), period: fiveMinutes })) }),
    );
    this.dashboard.addWidgets(
      new cw.GraphWidget({
        title: 'Handler metrics (EMF): requests and errors by resource',
        width,
        left: [handlerMetric('Requests')],
        right: [handlerMetric('Errors')],
      }),
      new cw.GraphWidget({
        title: 'Handler metrics (EMF): rate-limited and auth failures',
        width,
        left: [handlerMetric('RateLimited')],
        right: [handlerMetric('AuthFailed')],
      }),
      new cw.GraphWidget({
        title: 'DynamoDB capacity and throttles',
        width,
        left: [
          table.metricConsumedReadCapacityUnits({ statistic: cw.Stats.SUM, period: fiveMinutes, label: 'Consumed RCU' }),
          table.metricConsumedWriteCapacityUnits({ statistic: cw.Stats.SUM, period: fiveMinutes, label: 'Consumed WCU' }),
        ],
        right: [tableThrottles, ...indexThrottles],
      }),
    );
    this.dashboard.addWidgets(
      new cw.LogQueryWidget({
        title: 'Recent API errors (access log)',
        width: 24,
        logGroupNames: [props.accessLogGroup.logGroupName],
        queryLines: [
          'fields @timestamp, status, httpMethod, resourcePath, errorResponseType, errorMessage, authorizerError, integrationError, requestId, keyId',
          'filter status like /^[45]/',
          'sort @timestamp desc',
          'limit 50',
        ],
      }),
    );
  }
}
