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
  readonly consoleFunctions?: { console: ServiceFunction; invoicePdf: ServiceFunction; keys: ServiceFunction; authorizer: ServiceFunction };
  readonly authorizerFunction: ServiceFunction;
  readonly accessLogGroup: logs.ILogGroup;
}

/** The console deny-rate alarm: this share of console API requests refused 401 ... */
export const CONSOLE_DENY_RATE_PERCENT = 25;
/** ... once there are this many console API requests a minute. */
export const CONSOLE_DENY_MIN_REQUESTS = 20;

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
  private readonly config: StageConfig;
  /** Console API requests refused 401 by the console authorizer, as a percentage (the ConsoleTokensRefused alarm). */
  readonly consoleDenyRate: cw.MathExpression;
  private readonly alarmAction: cwActions.SnsAction;

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
    const action = (this.alarmAction = new cwActions.SnsAction(this.alarmTopic));
    this.config = config;

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

    // The console authorizer's refusals (401 to a console route): a rate, once there is traffic (20 requests a
    // minute). A burst means a broken sign-in (issuer or client id wrong, tokens older than the verifier allows) or
    // someone trying tokens; the key set failing is AuthorizerErrors (503), never this.
    const consoleFilter = (filterId: string, metricName: string, pattern: logs.IFilterPattern) => {
      new logs.MetricFilter(this, filterId, {
        logGroup: props.accessLogGroup,
        metricNamespace: METRICS_NAMESPACE,
        metricName,
        filterPattern: pattern,
        metricValue: '1',
        dimensions: { stage: '$.stage' },
        unit: cw.Unit.COUNT,
      });
      return new cw.Metric({ namespace: METRICS_NAMESPACE, metricName, dimensionsMap: { stage: config.stage }, statistic: cw.Stats.SUM, period: oneMinute });
    };
    const consoleApi = logs.FilterPattern.stringValue('$.resourcePath', '=', '/console/api/*');
    const consoleRequests = consoleFilter('ConsoleApiRequestsFilter', 'ConsoleApiRequests', consoleApi);
    const consoleDenied = consoleFilter(
      'ConsoleTokensRefusedFilter',
      'ConsoleTokensRefused',
      logs.FilterPattern.all(consoleApi, logs.FilterPattern.stringValue('$.status', '=', '401')),
    );
    this.consoleDenyRate = new cw.MathExpression({
      expression: `IF(FILL(n, 0) >= ${CONSOLE_DENY_MIN_REQUESTS}, 100 * FILL(d, 0) / n, 0)`,
      usingMetrics: { d: consoleDenied, n: consoleRequests },
      label: 'Console tokens refused (% of console API requests)',
      period: oneMinute,
    });
    alarm('ConsoleTokensRefused', this.consoleDenyRate, {
      threshold: CONSOLE_DENY_RATE_PERCENT,
      evaluationPeriods: 5,
      datapointsToAlarm: 3,
      description: `More than ${CONSOLE_DENY_RATE_PERCENT}% of console API requests (at ${CONSOLE_DENY_MIN_REQUESTS} a minute or more) were refused 401 by the console authorizer in 3 of the last 5 minutes: /time-tracking/${config.stage}/lambda/console-authorizer ("Console authorization failed", reason).`,
    });
    // The issuer's key set unavailable (the authorizer's "Console key set unavailable"): a token needing a new key got 503.
    if (props.consoleFunctions) {
      const keySetFailures = new logs.MetricFilter(this, 'ConsoleKeySetUnavailableFilter', {
        logGroup: props.consoleFunctions.authorizer.logGroup,
        metricNamespace: METRICS_NAMESPACE,
        metricName: 'ConsoleKeySetUnavailable',
        filterPattern: logs.FilterPattern.stringValue('$.message', '=', 'Console key set unavailable'),
        metricValue: '1',
        unit: cw.Unit.COUNT,
      });
      alarm('ConsoleKeySetUnavailable', keySetFailures.metric({ statistic: cw.Stats.SUM, period: fiveMinutes }), {
        threshold: 1,
        description: `The console authorizer could not fetch the issuer's key set (JWKS) for a token naming a key it lacked (callers got 503; signed-in people keep working on the last good set): /time-tracking/${config.stage}/lambda/console-authorizer.`,
      });
    }

    const authorizers: ServiceFunction[] = [props.authorizerFunction, ...(props.consoleFunctions ? [props.consoleFunctions.authorizer] : [])];
    const allFunctions: Array<[string, ServiceFunction]> = [
      ...Object.entries(props.functions),
      ['authorizer', props.authorizerFunction],
      ...(props.consoleFunctions
        ? ([
            ['console', props.consoleFunctions.console],
            ['console-invoice-pdf', props.consoleFunctions.invoicePdf],
            ['console-keys', props.consoleFunctions.keys],
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

  /**
   * Functions made outside this construct (the webhook dispatcher and sender): a dashboard row with their
   * invocations, errors and throttles, duration, and the status of their alarms.
   */
  addFunctionsToDashboard(title: string, functions: Array<[string, ServiceFunction]>, alarms: cw.IAlarm[]): void {
    const fiveMinutes = Duration.minutes(5);
    const of = (metric: (f: ServiceFunction) => cw.IMetric) => functions.map(([, f]) => metric(f));
    this.dashboard.addWidgets(
      new cw.GraphWidget({ title: `${title}: invocations`, width: 6, left: of((f) => f.fn.metricInvocations({ period: fiveMinutes })) }),
      new cw.GraphWidget({
        title: `${title}: errors and throttles`,
        width: 6,
        left: of((f) => f.fn.metricErrors({ period: fiveMinutes })),
        right: of((f) => f.fn.metricThrottles({ period: fiveMinutes })),
      }),
      new cw.GraphWidget({ title: `${title}: duration p99 (ms)`, width: 6, left: of((f) => f.fn.metricDuration({ statistic: cw.Stats.p(99), period: fiveMinutes })) }),
      new cw.AlarmStatusWidget({ title: `${title}: alarms`, alarms, width: 6, height: 6 }),
    );
  }

  /**
   * THE HOOK for the invoice sweep (issue 32's scheduled function, e.g. `invoice-sweep`): call it once that
   * function exists, with the metric of its oldest unfinished job's age in seconds. It adds the alarm
   * `invoice-sweep-oldest-job` (the job older than `thresholdSeconds`, default 30 minutes: the sweep is failing or
   * behind), the function's errors and throttles alarms, and a dashboard row.
   */
  alarmInvoiceSweep(sweep: ServiceFunction, oldestJobAgeSeconds: cw.IMetric, thresholdSeconds = 30 * 60): cw.Alarm[] {
    const prefix = `time-tracking-${this.config.stage}`;
    const fiveMinutes = Duration.minutes(5);
    const made = (
      [
        [
          'invoice-sweep-oldest-job',
          oldestJobAgeSeconds,
          thresholdSeconds,
          `An invoicing job is more than ${thresholdSeconds / 60} minutes old: the invoice sweep is failing, throttled or behind (entries may stay locked to a draft).`,
        ],
        ['Fn-invoice-sweep-Errors', sweep.fn.metricErrors({ period: fiveMinutes, statistic: cw.Stats.SUM }), 1, 'The invoice sweep function failed (unhandled error or timeout).'],
        ['Fn-invoice-sweep-Throttles', sweep.fn.metricThrottles({ period: fiveMinutes, statistic: cw.Stats.SUM }), 1, 'The invoice sweep function was throttled.'],
      ] as const
    ).map(([alarmId, metric, threshold, description]) => {
      const a = new cw.Alarm(this, alarmId, {
        alarmName: `${prefix}-${alarmId}`,
        alarmDescription: description,
        metric,
        threshold,
        comparisonOperator: cw.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cw.TreatMissingData.NOT_BREACHING,
      });
      a.addAlarmAction(this.alarmAction);
      a.addOkAction(this.alarmAction);
      this.alarms.push(a);
      return a;
    });
    this.addFunctionsToDashboard('Invoice sweep', [['invoice-sweep', sweep]], made);
    return made;
  }
}
