import { Match } from 'aws-cdk-lib/assertions';
import { FUNCTION_NAMES } from '../../shared/api/routes';
import { TABLE } from '../../shared/data/table';
import { CONSOLE_DENY_MIN_REQUESTS, CONSOLE_DENY_RATE_PERCENT } from '../../lib/monitoring';
import { allFunctions, resourcesOfType, synth } from './support';

const EXPECTED_ALARMS = [
  'Api5xxRate',
  'ApiLatencyP99',
  'AuthorizerErrors',
  'ConsoleTokensRefused',
  'ConsoleKeySetUnavailable',
  'webhook-dlq',
  'webhook-stream-failures',
  'webhook-stream-iterator-age',
  'webhook-queue-oldest-message',
  ...['webhook-dispatcher', 'webhook-sender'].flatMap((n) => [`Fn-${n}-Errors`, `Fn-${n}-Throttles`]),
  ...FUNCTION_NAMES.map((n) => `Fn-${n}-Errors`),
  ...[...FUNCTION_NAMES, 'authorizer'].map((n) => `Fn-${n}-Throttles`),
  'Fn-console-Errors',
  ...['console', 'console-authorizer'].map((n) => `Fn-${n}-Throttles`),
  ...['Errors', 'Throttles'].map((m) => `Fn-console-invoice-pdf-${m}`),
  ...['Errors', 'Throttles'].map((m) => `Fn-console-keys-${m}`),
  'TableThrottles',
  'invoice-sweep-oldest-job',
  ...['Errors', 'Throttles'].map((m) => `Fn-invoice-sweep-${m}`),
  ...TABLE.indexes.map((i) => `${i.name}Throttles`),
];

describe.each(['dev', 'prod'] as const)('observability (%s)', (stage) => {
  const s = synth(stage);
  const topicId = () => resourcesOfType(s, 'AWS::SNS::Topic')[0]![0];

  test('one SNS alarm topic that only accepts TLS publishers', () => {
    s.template.resourceCountIs('AWS::SNS::Topic', 1);
    s.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  test('alarms: API 5xx rate, p99 latency, authorizer failures, errors/throttles per function, DynamoDB throttles; all notify the topic', () => {
    const alarms = resourcesOfType(s, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties!);
    const names = alarms.map((a) => a.AlarmName as string);
    expect(names.sort()).toEqual(EXPECTED_ALARMS.map((n) => `time-tracking-${stage}-${n}`).sort());
    for (const a of alarms) {
      expect(a.AlarmActions).toEqual([{ Ref: topicId() }]);
      expect(a.OKActions).toEqual([{ Ref: topicId() }]);
      expect(a.TreatMissingData).toBe('notBreaching');
      expect(typeof a.AlarmDescription).toBe('string');
    }
  });

  test('API alarms measure the deployed stage (ApiName + Stage dimensions)', () => {
    const stageId = s.logicalId(s.stack.api.deploymentStage);
    const metricStat = (stat: string, metricName: string) => ({
      Metrics: [
        Match.objectLike({
          MetricStat: {
            Metric: {
              Namespace: 'AWS/ApiGateway',
              MetricName: metricName,
              Dimensions: [
                { Name: 'ApiName', Value: `time-tracking-${stage}` },
                { Name: 'Stage', Value: { Ref: stageId } },
              ],
            },
            Period: 60,
            Stat: stat,
          },
        }),
      ],
    });
    s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: `time-tracking-${stage}-Api5xxRate`,
      Threshold: stage === 'prod' ? 0.01 : 0.05,
      ...metricStat('Average', '5XXError'),
    });
    s.template.hasResourceProperties('AWS::CloudWatch::Alarm', { AlarmName: `time-tracking-${stage}-ApiLatencyP99`, ...metricStat('p99', 'Latency') });
  });

  test('the authorizer alarm pages on a rate (failures per request over the 5xx threshold in 3 of 5 minutes), not on one event', () => {
    const [[, a]] = resourcesOfType(s, 'AWS::CloudWatch::Alarm').filter(([, r]) => r.Properties!.AlarmName === `time-tracking-${stage}-AuthorizerErrors`) as [[string, any]];
    const p = a.Properties;
    expect([p.EvaluationPeriods, p.DatapointsToAlarm, p.Threshold]).toEqual([5, 3, (stage === 'prod' ? 0.01 : 0.05) * 100]);
    const expr = p.Metrics.find((m: any) => m.Expression);
    expect(expr.Expression).toBe('100 * FILL(e, 0) / IF(n > 0, n, 1)');
    const ids = Object.fromEntries(p.Metrics.filter((m: any) => m.MetricStat).map((m: any) => [m.Id, m.MetricStat.Metric.MetricName]));
    expect(ids).toEqual({ e: 'AuthorizerErrors', n: 'Count' });
  });

  test('webhook delivery alarms: dispatcher and sender errors and throttles, the stream iterator age, the queue oldest message', () => {
    const w = s.stack.webhooks;
    const byName = (n: string) => resourcesOfType(s, 'AWS::CloudWatch::Alarm').find(([, r]) => r.Properties!.AlarmName === `time-tracking-${stage}-${n}`)![1].Properties!;
    for (const [n, f] of [
      ['webhook-dispatcher', w.dispatcher],
      ['webhook-sender', w.sender],
    ] as const) {
      for (const metric of ['Errors', 'Throttles']) {
        const a = byName(`Fn-${n}-${metric}`);
        expect([a.Namespace, a.MetricName, a.Dimensions]).toEqual(['AWS/Lambda', metric, [{ Name: 'FunctionName', Value: { Ref: s.logicalId(f.fn) } }]]);
      }
    }
    const age = byName('webhook-stream-iterator-age');
    expect([age.MetricName, age.Statistic, age.Threshold]).toEqual(['IteratorAge', 'Maximum', 5 * 60_000]);
    expect(age.Dimensions).toEqual([{ Name: 'FunctionName', Value: { Ref: s.logicalId(w.dispatcher.fn) } }]);
    const oldest = byName('webhook-queue-oldest-message');
    expect([oldest.Namespace, oldest.MetricName, oldest.Threshold]).toEqual(['AWS/SQS', 'ApproximateAgeOfOldestMessage', 30 * 60]);
    expect(oldest.Dimensions).toEqual([{ Name: 'QueueName', Value: { 'Fn::GetAtt': [s.logicalId(w.queue), 'QueueName'] } }]);
  });

  test("the console authorizer: its deny rate (401s of console API requests, once there is traffic) and the key set's unavailability page; its errors are AuthorizerErrors", () => {
    const byName = (n: string) => resourcesOfType(s, 'AWS::CloudWatch::Alarm').find(([, r]) => r.Properties!.AlarmName === `time-tracking-${stage}-${n}`)![1].Properties!;
    const deny = byName('ConsoleTokensRefused');
    expect([deny.EvaluationPeriods, deny.DatapointsToAlarm, deny.Threshold]).toEqual([5, 3, CONSOLE_DENY_RATE_PERCENT]);
    expect(deny.Metrics.find((m: any) => m.Expression).Expression).toBe(`IF(FILL(n, 0) >= ${CONSOLE_DENY_MIN_REQUESTS}, 100 * FILL(d, 0) / n, 0)`);
    const ids = Object.fromEntries(deny.Metrics.filter((m: any) => m.MetricStat).map((m: any) => [m.Id, m.MetricStat.Metric.MetricName]));
    expect(ids).toEqual({ d: 'ConsoleTokensRefused', n: 'ConsoleApiRequests' });
    const filters = resourcesOfType(s, 'AWS::Logs::MetricFilter').map(([, f]) => f.Properties!);
    const refused = filters.find((f) => f.MetricTransformations[0].MetricName === 'ConsoleTokensRefused')!;
    expect(refused.LogGroupName).toEqual({ Ref: s.logicalId(s.stack.accessLogGroup) });
    expect(refused.FilterPattern).toContain('$.resourcePath = "/console/api/*"');
    expect(refused.FilterPattern).toContain('$.status = "401"');
    const keySet = filters.find((f) => f.MetricTransformations[0].MetricName === 'ConsoleKeySetUnavailable')!;
    expect(keySet.LogGroupName).toEqual({ Ref: s.logicalId(s.stack.console.authorizerFn.logGroup) });
    expect(keySet.FilterPattern).toBe('{ $.message = "Console key set unavailable" }');
    expect(byName('ConsoleKeySetUnavailable').Threshold).toBe(1);
  });

  test('the dashboard shows every function of the stack, the webhook ones included, and the webhook alarms', () => {
    const [[, dash]] = resourcesOfType(s, 'AWS::CloudWatch::Dashboard') as [[string, any]];
    const body = JSON.stringify(dash.Properties.DashboardBody);
    for (const [name, f] of allFunctions(s)) expect([name, body.includes(s.logicalId(f.fn))]).toEqual([name, true]);
    expect(body).toContain('Webhook delivery: alarms');
    for (const a of s.stack.webhooks.alarms) expect(body).toContain(s.logicalId(a));
  });

  test('authorizer failures are counted from the JSON access log by a metric filter', () => {
    s.template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: { Ref: s.logicalId(s.stack.accessLogGroup) },
      FilterPattern: Match.stringLikeRegexp('AUTHORIZER_FAILURE.*AUTHORIZER_CONFIGURATION_ERROR'),
      MetricTransformations: [Match.objectLike({ MetricNamespace: 'TimeTracking', MetricName: 'AuthorizerErrors', Dimensions: [{ Key: 'stage', Value: '$.stage' }] })],
    });
  });

  test('one dashboard with API, Lambda, DynamoDB, handler (EMF) metrics and the alarms', () => {
    s.template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    const [[, dash]] = resourcesOfType(s, 'AWS::CloudWatch::Dashboard') as [[string, any]];
    expect(dash.Properties.DashboardName).toBe(`time-tracking-${stage}`);
    const body = JSON.stringify(dash.Properties.DashboardBody);
    for (const title of [
      'API requests and errors',
      'API latency',
      'Lambda errors and throttles',
      'DynamoDB capacity and throttles',
      'Handler metrics (EMF)',
      'Recent API errors',
    ]) {
      expect(body).toContain(title);
    }
    for (const metric of ['Requests', 'Errors', 'RateLimited', 'AuthFailed']) expect(body).toContain(`MetricName=\\\\\\"${metric}\\\\\\"`);
    expect(body).toContain('alarm');
  });

  test('no e-mail subscription unless alarmEmail is given', () => {
    s.template.resourceCountIs('AWS::SNS::Subscription', 0);
  });
});

test('alarmEmail subscribes an address to the alarm topic', () => {
  const s = synth('prod', { alarmEmail: 'ops@example.com' });
  s.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
});
