import { Match } from 'aws-cdk-lib/assertions';
import { SENDER_TIMEOUT, WEBHOOK_MAX_RECEIVES } from '../../lib/webhooks';
import { asArray, resourcesOfType, statementsOfRole, synth } from './support';

/**
 * Webhook delivery in the template (lib/webhooks.ts): the table's stream, filtered to new change-event
 * items, wakes the dispatcher; an encrypted SQS queue with a dead-letter queue feeds the sender (partial
 * batch failures); least privilege for both; alarms on both dead-letter queues.
 */
describe.each(['dev', 'prod'] as const)('webhook delivery (%s)', (stage) => {
  const s = synth(stage);
  const w = s.stack.webhooks;
  const id = (c: Parameters<typeof s.logicalId>[0]) => s.logicalId(c);

  test('the table streams new images; the dispatcher reads it filtered to inserted change events, retried, bisected, failures to a queue', () => {
    s.template.hasResourceProperties('AWS::DynamoDB::Table', { StreamSpecification: { StreamViewType: 'NEW_IMAGE' } });
    const mappings = resourcesOfType(s, 'AWS::Lambda::EventSourceMapping').map(([, m]) => m.Properties!);
    const stream = mappings.find((m) => m.EventSourceArn?.['Fn::GetAtt']?.[1] === 'StreamArn')!;
    expect(stream.FunctionName).toEqual({ Ref: id(w.dispatcher.fn) });
    expect(JSON.parse(stream.FilterCriteria.Filters[0].Pattern)).toEqual({ eventName: ['INSERT'], dynamodb: { NewImage: { _type: { S: ['CHANGE'] } } } });
    expect(stream).toEqual(expect.objectContaining({ StartingPosition: 'TRIM_HORIZON', BisectBatchOnFunctionError: true, MaximumRetryAttempts: 10 }));
    expect(stream.DestinationConfig.OnFailure.Destination).toEqual({ 'Fn::GetAtt': [id(w.streamFailures), 'Arn'] });
  });

  test('the queue: SSE, TLS only, visibility 6x the sender timeout, dead-letter queue after 5 receives; the sender reports partial batch failures', () => {
    s.template.hasResourceProperties('AWS::SQS::Queue', {
      SqsManagedSseEnabled: true,
      VisibilityTimeout: SENDER_TIMEOUT.toSeconds() * 6,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [id(w.deadLetterQueue), 'Arn'] }, maxReceiveCount: WEBHOOK_MAX_RECEIVES },
    });
    for (const [, q] of resourcesOfType(s, 'AWS::SQS::Queue')) expect(q.Properties!.SqsManagedSseEnabled).toBe(true);
    const policies = resourcesOfType(s, 'AWS::SQS::QueuePolicy');
    expect(policies).toHaveLength(3);
    for (const [, p] of policies) {
      expect(p.Properties!.PolicyDocument.Statement).toEqual(
        expect.arrayContaining([expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      );
    }
    const mappings = resourcesOfType(s, 'AWS::Lambda::EventSourceMapping').map(([, m]) => m.Properties!);
    const fromQueue = mappings.find((m) => m.FunctionName?.Ref === id(w.sender.fn))!;
    expect(fromQueue).toEqual(expect.objectContaining({ EventSourceArn: { 'Fn::GetAtt': [id(w.queue), 'Arn'] }, FunctionResponseTypes: ['ReportBatchItemFailures'] }));
  });

  test('least privilege: dispatcher and sender get Query/GetItem/PutItem/UpdateItem on workspace items only (and read API keys by id), SQS send on the queue; only the sender reads the webhook key ring, neither the cursor secret', () => {
    for (const [fn, queues] of [
      [w.dispatcher, [w.queue, w.streamFailures]],
      [w.sender, [w.queue]],
    ] as const) {
      const statements = statementsOfRole(s, id(fn.role));
      const onStream = (st: Record<string, any>) => st.Resource?.['Fn::GetAtt']?.[1] === 'StreamArn' || asArray(st.Action).includes('dynamodb:ListStreams');
      const table = statements.filter((st) => !onStream(st) && asArray(st.Action).some((a: string) => a.startsWith('dynamodb:')));
      expect(table).toEqual([
        {
          Effect: 'Allow',
          Action: ['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
          Resource: { 'Fn::GetAtt': [id(s.stack.table), 'Arn'] },
          Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['WS#*'] } },
        },
        // a webhook delivers only what its API key may read now (shared/webhooks/key-power.ts): the key by id, read only
        expect.objectContaining({
          Effect: 'Allow',
          Action: ['dynamodb:GetItem', 'dynamodb:Query'],
          Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['APIKEY#*', 'APIKEYID#*'] } },
        }),
      ]);
      // its own queue(s) only: the dispatcher also sends failed stream batches to their queue
      const sends = statements.filter((st) => asArray(st.Action).includes('sqs:SendMessage')).map((st) => st.Resource);
      expect(sends).toHaveLength(queues.length);
      expect(sends).toEqual(expect.arrayContaining(queues.map((q) => ({ 'Fn::GetAtt': [id(q), 'Arn'] }))));
      const secretReads = statements.filter((st) => asArray(st.Action).includes('secretsmanager:GetSecretValue')).map((st) => st.Resource);
      expect(secretReads).toEqual(fn === w.sender ? [{ Ref: id(w.keyRing) }] : []);
      expect(statements.flatMap((st) => asArray(st.Action)).some((a: string) => a === '*' || a.endsWith(':*'))).toBe(false);
    }
    // the stream's read actions go to the dispatcher alone
    const streamReaders = resourcesOfType(s, 'AWS::IAM::Policy').filter(([, p]) =>
      (p.Properties!.PolicyDocument.Statement as Array<Record<string, any>>).some((st) => asArray(st.Action).includes('dynamodb:GetRecords')),
    );
    expect(streamReaders.map(([, p]) => p.Properties!.Roles)).toEqual([[{ Ref: id(w.dispatcher.role) }]]);
  });

  test('the webhooks API function queues pings: WEBHOOK_QUEUE_URL and sqs:SendMessage', () => {
    const api = s.stack.functions.webhooks;
    s.template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: Match.absent(),
      Environment: { Variables: Match.objectLike({ WEBHOOK_QUEUE_URL: { Ref: id(w.queue) } }) },
      Role: { 'Fn::GetAtt': [id(api.role), 'Arn'] },
    });
    expect(statementsOfRole(s, id(api.role)).some((st) => asArray(st.Action).includes('sqs:SendMessage'))).toBe(true);
  });

  test('alarms: any message in either dead-letter queue notifies the topic', () => {
    for (const q of [w.deadLetterQueue, w.streamFailures]) {
      s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Namespace: 'AWS/SQS',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [id(q), 'QueueName'] } }],
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
    }
  });
});
