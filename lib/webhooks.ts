import { Duration, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cwActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { keys } from '../shared/data/keys';
import type { StageConfig } from './config';
import { ServiceFunction } from './service-function';

/** The item type of change events (shared/data/changes.ts): the only stream records that wake the dispatcher. */
export const CHANGE_EVENT_TYPE = 'CHANGE';
/** A message is tried this many times by the sender before SQS moves it to the dead-letter queue. */
export const WEBHOOK_MAX_RECEIVES = 5;
/** The sender's timeout: one POST (WEBHOOK_TIMEOUT_MS, 10 s) per message of a batch in parallel, plus the table calls. */
export const SENDER_TIMEOUT = Duration.seconds(30);
/** The dispatcher's alarm on how far it is behind the stream. */
export const STREAM_ITERATOR_AGE_ALARM = Duration.minutes(5);
/**
 * The queue's alarm on its oldest message. A message's age counts from when it was sent, and a retry is a
 * message sent with a delay of up to 15 minutes (SQS's maximum: MAX_DELAY_SECONDS): so 30 minutes means
 * a message has waited at least 15 minutes past its due time.
 */
export const QUEUE_AGE_ALARM = Duration.minutes(30);
/** The key id of the key ring's first key (generated at deploy time). */
export const INITIAL_KEY_ID = 'k1';

export interface WebhookDeliveryProps {
  readonly config: StageConfig;
  readonly table: dynamodb.Table;
  /** The webhooks API function: queues pings, encrypts secrets. */
  readonly api: ServiceFunction;
  readonly alarmTopic: sns.Topic;
}

/**
 * Webhook delivery in AWS, from managed parts (docs/webhooks.md): the table's stream, filtered to new
 * change-event items -> the dispatcher function -> an SQS queue (with a dead-letter queue) -> the sender
 * function. Both functions run the code `npm start` runs locally (shared/webhooks/delivery.ts).
 * Least privilege: each function gets only the table actions it calls, SQS send where it queues, and
 * the webhook key ring (the keys encrypting the stored `whsec_` secrets; shared/data/secrets.ts) only
 * where secrets are sealed (the webhooks API function) or opened to sign (the sender). The cursor secret
 * plays no part in webhook delivery: rotating it leaves every delivery working.
 */
export class WebhookDelivery extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly streamFailures: sqs.Queue;
  readonly dispatcher: ServiceFunction;
  readonly sender: ServiceFunction;
  readonly dlqAlarm: cloudwatch.Alarm;
  /** Every alarm of webhook delivery. */
  readonly alarms: cloudwatch.Alarm[] = [];
  /** The webhook key ring: `{"current":"k1","k1":"<generated>"}` at deploy time; rotated by adding a key (docs/operations.md). */
  readonly keyRing: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    const { config, table } = props;
    // prod keeps its queues (and the messages in them, dead letters included) when the stack is deleted.
    const queueDefaults = { enforceSSL: true, encryption: sqs.QueueEncryption.SQS_MANAGED, retentionPeriod: Duration.days(14), removalPolicy: config.removalPolicy };

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', queueDefaults);
    this.queue = new sqs.Queue(this, 'Queue', {
      ...queueDefaults,
      retentionPeriod: Duration.days(4),
      visibilityTimeout: Duration.seconds(SENDER_TIMEOUT.toSeconds() * 6),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: WEBHOOK_MAX_RECEIVES },
    });
    // Stream batches the dispatcher failed on after its retries (the next change of the workspace catches up anyway).
    this.streamFailures = new sqs.Queue(this, 'StreamFailures', queueDefaults);
    for (const q of [this.deadLetterQueue, this.streamFailures]) {
      Validations.of(q).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'This queue is itself a dead-letter queue (failed webhook messages, failed stream batches).' });
    }

    this.keyRing = new secretsmanager.Secret(this, 'KeyRing', {
      description: `time-tracking ${config.stage}: key ring encrypting the webhook signing secrets stored in the table ({"current":"<id>","<id>":"<key>"})`,
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ current: INITIAL_KEY_ID }),
        generateStringKey: INITIAL_KEY_ID,
        passwordLength: 64,
        excludePunctuation: true,
        includeSpace: false,
      },
      removalPolicy: config.removalPolicy,
    });
    Validations.of(this.keyRing).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'A rotation of the webhook key ring adds a key and makes it current while every older key stays until `admin webhooks reencrypt` has sealed every stored secret under the new one: a multi-step runbook (docs/operations.md), not a single-value rotation Lambda.',
    });
    const env = { WEBHOOK_QUEUE_URL: this.queue.queueUrl };
    this.dispatcher = new ServiceFunction(this, 'Fn-webhook-dispatcher', {
      name: 'webhook-dispatcher',
      config,
      tableName: table.tableName,
      timeout: Duration.seconds(60),
      ...(config.webhookConcurrency.dispatcherReserved !== undefined ? { reservedConcurrentExecutions: config.webhookConcurrency.dispatcherReserved } : {}),
      description: `time-tracking ${config.stage}: webhook dispatcher (stream -> deliveries -> SQS)`,
      environment: env,
    });
    // Reads webhooks and the feed (Query, GetItem), writes deliveries, voids and its position (PutItem, UpdateItem): workspace items only.
    this.dispatcher.bindTable(table, {
      kind: 'items',
      actions: ['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      leadingKeys: [`${keys.workspacePartition('*')}`],
    });
    // A webhook delivers only what its API key may read now (shared/webhooks/key-power.ts): the key by id, read only.
    this.dispatcher.bindTable(table, { kind: 'read', leadingKeys: [keys.apiKey('*').PK, keys.apiKeyById('*').GSI2PK] });
    this.dispatcher.fn.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(0),
        retryAttempts: 10,
        bisectBatchOnError: true,
        onFailure: new SqsDlq(this.streamFailures),
        filters: [
          lambda.FilterCriteria.filter({
            eventName: lambda.FilterRule.isEqual('INSERT'),
            dynamodb: { NewImage: { _type: { S: lambda.FilterRule.isEqual(CHANGE_EVENT_TYPE) } } },
          }),
        ],
      }),
    );
    this.queue.grantSendMessages(this.dispatcher.role);
    Validations.of(this.dispatcher.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'The DynamoDB stream event source needs dynamodb:ListStreams, which has no resource-level permissions (AWS requires Resource "*" for it, and only it); the stream read actions are limited to this table\'s stream.',
    });

    this.sender = new ServiceFunction(this, 'Fn-webhook-sender', {
      name: 'webhook-sender',
      config,
      tableName: table.tableName,
      timeout: SENDER_TIMEOUT,
      ...(config.webhookConcurrency.senderReserved !== undefined ? { reservedConcurrentExecutions: config.webhookConcurrency.senderReserved } : {}),
      description: `time-tracking ${config.stage}: webhook sender (SQS -> signed POST)`,
      environment: { ...env, WEBHOOK_KEYS_SECRET_ARN: this.keyRing.secretArn },
    });
    // Reads deliveries and webhooks, writes attempts and states, counts failures, disables an endpoint; a 'dispatch' message dispatches.
    this.sender.bindTable(table, {
      kind: 'items',
      actions: ['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      leadingKeys: [`${keys.workspacePartition('*')}`],
    });
    // A webhook delivers only what its API key may read now (shared/webhooks/key-power.ts): the key by id, read only.
    this.sender.bindTable(table, { kind: 'read', leadingKeys: [keys.apiKey('*').PK, keys.apiKeyById('*').GSI2PK] });
    // At most senderMaxConcurrency senders at once, whatever the backlog (SQS maximum concurrency: messages
    // wait in the queue instead of being throttled back into it), within the sender's reserved concurrency.
    this.sender.fn.addEventSource(new SqsEventSource(this.queue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: config.webhookConcurrency.senderMaxConcurrency }));
    this.queue.grantSendMessages(this.sender.role);
    // Secrets are sealed by the webhooks API function (create, rotate-secret) and opened by the sender (to sign): no one else reads the ring.
    for (const fn of [this.sender, props.api]) this.keyRing.grantRead(fn.role);

    // The API's webhooks function queues pings and seals secrets.
    this.queue.grantSendMessages(props.api.role);
    props.api.fn.addEnvironment('WEBHOOK_QUEUE_URL', this.queue.queueUrl);
    props.api.fn.addEnvironment('WEBHOOK_KEYS_SECRET_ARN', this.keyRing.secretArn);

    const action = new cwActions.SnsAction(props.alarmTopic);
    this.dlqAlarm = new cloudwatch.Alarm(this, 'DeadLetterAlarm', {
      alarmName: `time-tracking-${config.stage}-webhook-dlq`,
      alarmDescription: 'Webhook messages the sender failed on 5 times (not receiver failures, which are retried on the schedule): look at the sender logs',
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.dlqAlarm.addAlarmAction(action);
    this.dlqAlarm.addOkAction(action);
    const streamAlarm = new cloudwatch.Alarm(this, 'StreamFailureAlarm', {
      alarmName: `time-tracking-${config.stage}-webhook-stream-failures`,
      alarmDescription: 'Stream batches the webhook dispatcher failed on after its retries',
      metric: this.streamFailures.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    streamAlarm.addAlarmAction(action);
    streamAlarm.addOkAction(action);
    this.alarms.push(this.dlqAlarm, streamAlarm);

    const alarm = (alarmId: string, metric: cloudwatch.IMetric, threshold: number, description: string) => {
      const a = new cloudwatch.Alarm(this, alarmId, {
        alarmName: `time-tracking-${config.stage}-${alarmId}`,
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      a.addAlarmAction(action);
      a.addOkAction(action);
      this.alarms.push(a);
      return a;
    };
    const fiveMinutes = Duration.minutes(5);
    for (const [name, f] of [
      ['webhook-dispatcher', this.dispatcher],
      ['webhook-sender', this.sender],
    ] as const) {
      alarm(
        `Fn-${name}-Errors`,
        f.fn.metricErrors({ period: fiveMinutes, statistic: cloudwatch.Stats.SUM }),
        1,
        `The ${name} function failed (unhandled error or timeout): /time-tracking/${config.stage}/lambda/${name}.`,
      );
      alarm(
        `Fn-${name}-Throttles`,
        f.fn.metricThrottles({ period: fiveMinutes, statistic: cloudwatch.Stats.SUM }),
        1,
        `The ${name} function was throttled (its reserved concurrency, or the account's, exhausted).`,
      );
    }
    alarm(
      'webhook-stream-iterator-age',
      this.dispatcher.fn.metric('IteratorAge', { period: Duration.minutes(1), statistic: cloudwatch.Stats.MAXIMUM }),
      STREAM_ITERATOR_AGE_ALARM.toMilliseconds(),
      `The dispatcher is more than ${STREAM_ITERATOR_AGE_ALARM.toMinutes()} minutes behind the table's stream (failing, throttled or too slow): deliveries are late, and records older than 24 h leave the stream.`,
    );
    alarm(
      'webhook-queue-oldest-message',
      this.queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1), statistic: cloudwatch.Stats.MAXIMUM }),
      QUEUE_AGE_ALARM.toSeconds(),
      `A webhook message is ${QUEUE_AGE_ALARM.toMinutes()} minutes old (at least 15 past its due time): the senders are at their concurrency cap, throttled or failing.`,
    );
  }
}
