import { CfnOutput, Duration, RemovalPolicy, Size, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as backup from 'aws-cdk-lib/aws-backup';
import * as events from 'aws-cdk-lib/aws-events';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { keys } from '../shared/data/keys';
import { RESOURCES, pathTemplates, routeList, type FunctionName } from '../shared/api/routes';
import { TABLE } from '../shared/data/table';
import type { StageConfig } from './config';
import { API_KEY_HEADER, MIN_COMPRESSION_BYTES } from '../shared/api/gateway-edge';
import { DOCS_SCRIPT } from '../shared/api/routes';
import { addGatewayErrors, GatewayEdgeMethods } from './gateway-responses';
import { Monitoring } from './monitoring';
import { InvoiceSweep } from './invoice-sweep';
import { ServiceFunction } from './service-function';
import { WebhookDelivery } from './webhooks';
import { Console } from './console';
import { BINARY_MEDIA_TYPES, consoleRouteList } from '../shared/console/routes';
import { EdgeFirewall } from './waf';

export interface TimeTrackingStackProps extends StackProps {
  readonly config: StageConfig;
}

/**
 * Functions whose handlers sign and verify pagination cursors, and so read the cursor secret: derived from
 * the route table (every function serving a route with a `cursor` query parameter).
 */
export const CURSOR_FUNCTIONS: readonly FunctionName[] = [...new Set(routeList.filter((r) => r.query !== undefined && 'cursor' in r.query.shape).map((r) => r.resource))];

/** The partitions of a workspace's data (`WS#<ws>...`, table and index keys alike) and the rate counters (`RATE#<key id>`). */
export const WORKSPACE_DATA_KEYS: readonly string[] = [keys.workspacePartition('*'), keys.rateCounter('*', '').PK];

/** The routes anyone may call without a key (scope null): their own method throttling. */
export const PUBLIC_ROUTES = routeList.filter((r) => r.scope === null);
/** The console's public routes (its page, assets, config, OpenAPI document): each with the public method throttle too. */
export const CONSOLE_PUBLIC_ROUTES = consoleRouteList.filter((r) => r.access === null);

/** Cache time of the authorizer (identity source: API_KEY_HEADER): the cache is why revocation takes up to 5 minutes. */
export const AUTHORIZER_CACHE_TTL = Duration.minutes(5);

/**
 * The whole service: the single table, one function per resource (plus openapi and the authorizer),
 * the REST API derived from shared/api/routes.ts, and its monitoring.
 */
export class TimeTrackingStack extends Stack {
  readonly table: dynamodb.Table;
  readonly api: apigw.RestApi;
  readonly functions: Record<FunctionName, ServiceFunction>;
  readonly authorizerFunction: ServiceFunction;
  readonly cursorSecret: secretsmanager.Secret;
  readonly accessLogGroup: logs.LogGroup;
  readonly executionLogGroup: logs.LogGroup;
  /** The AWS WAF web ACLs (API stage, user pool): prod always, dev with `-c waf=true`. */
  readonly firewall?: EdgeFirewall;
  /** The AWS Backup plan of the table (prod: kept backupRetentionDays, the audit log's 400). */
  readonly backupPlan?: backup.BackupPlan;
  readonly webhooks: WebhookDelivery;
  readonly console: Console;
  readonly invoiceSweep: InvoiceSweep;

  constructor(scope: Construct, id: string, props: TimeTrackingStackProps) {
    super(scope, id, props);
    const { config } = props;

    // ---------------------------------------------------------------- table (from shared/data/table.ts)
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TABLE.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TABLE.ttlAttribute,
      // Wakes the webhook dispatcher (lib/webhooks.ts); new images only (the dispatcher reads the feed itself).
      stream: dynamodb.StreamViewType.NEW_IMAGE,
      // CloudWatch Contributor Insights: the most accessed and most throttled keys (a hot workspace shows by name).
      contributorInsightsSpecification: { enabled: true },
      pointInTimeRecoverySpecification: {
        pointInTimeRecoveryEnabled: config.pointInTimeRecovery,
        ...(config.pointInTimeRecovery ? { recoveryPeriodInDays: config.pitrRecoveryPeriodDays } : {}),
      },
      deletionProtection: config.deletionProtection,
      removalPolicy: config.removalPolicy,
    });
    for (const index of TABLE.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }
    // Backups beyond point-in-time recovery's 35 days: the audit log promises 400 days (shared/data/audit.ts).
    if (config.backupRetentionDays !== undefined) {
      const vault = new backup.BackupVault(this, 'BackupVault', { backupVaultName: `time-tracking-${config.stage}`, removalPolicy: RemovalPolicy.RETAIN });
      this.backupPlan = new backup.BackupPlan(this, 'BackupPlan', {
        backupPlanName: `time-tracking-${config.stage}`,
        backupVault: vault,
        backupPlanRules: [
          new backup.BackupPlanRule({
            ruleName: 'Daily',
            scheduleExpression: events.Schedule.cron({ hour: '3', minute: '0' }),
            deleteAfter: Duration.days(config.backupRetentionDays),
          }),
        ],
      });
      const selection = this.backupPlan.addSelection('Table', { resources: [backup.BackupResource.fromDynamoDbTable(this.table)] });
      Validations.of(selection).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]',
        reason:
          "AWS Backup's role for this plan's selection uses AWS's purpose-built AWSBackupServiceRolePolicyForBackup, as the AWS Backup documentation prescribes; it only backs up the resources selected (the table).",
      });
    }
    if (!config.pointInTimeRecovery) {
      Validations.of(this.table).acknowledge({
        id: 'AwsSolutions-DDB3',
        reason: `Point-in-time recovery is disabled by the ${config.stage} stage configuration (disposable data).`,
      });
    }

    // ---------------------------------------------------------------- cursor-signing secret
    this.cursorSecret = new secretsmanager.Secret(this, 'CursorSecret', {
      description: `time-tracking ${config.stage}: HMAC key signing every pagination cursor (change feed, webhooks, time entries, invoices, the console)`,
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
      removalPolicy: config.removalPolicy,
    });
    Validations.of(this.cursorSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The secret only signs and encrypts pagination cursors (which do not expire); automatic rotation would invalidate every cursor in flight mid-pagination. It is rotated manually when needed (docs/operations.md): put a new random value, then new cold starts pick it up.',
    });

    // ---------------------------------------------------------------- functions
    const tableName = this.table.tableName;
    const fns = {} as Record<FunctionName, ServiceFunction>;
    for (const name of RESOURCES) {
      const fn = new ServiceFunction(this, `Fn-${name}`, {
        name,
        config,
        tableName,
        description: `time-tracking ${config.stage}: /v1/${name} routes`,
        ...(CURSOR_FUNCTIONS.includes(name) ? { environment: { CURSOR_SECRET_ARN: this.cursorSecret.secretArn } } : {}),
      });
      // Workspace data (records, locks, feed, rollups, list bounds, idempotency records: all under WS#<ws>)
      // and the rate counters; the webhooks function also adds its workspace to the webhook directory, and the
      // invoices function releases an invoice's entries under a job item (WS#<ws>#INVOICEJOBS, shared/invoicing/store.ts).
      fn.bindTable(this.table, {
        kind: 'readWrite',
        leadingKeys: [...WORKSPACE_DATA_KEYS, ...(name === 'webhooks' ? [keys.webhookDirectoryPartition] : [])],
      });
      if (CURSOR_FUNCTIONS.includes(name)) this.cursorSecret.grantRead(fn.role);
      fns[name] = fn;
    }
    // The OpenAPI document is generated from the route table, and its reference page (GET /v1/docs) renders it
    // with Redoc's script, a file next to the bundle: no table access at all.
    fns.openapi = new ServiceFunction(this, 'Fn-openapi', {
      name: 'openapi',
      config,
      tableName,
      memorySize: 256,
      timeout: Duration.seconds(5),
      description: `time-tracking ${config.stage}: GET /v1/openapi.json, GET /v1/docs (public)`,
      assets: [`node_modules/redoc/bundles/${DOCS_SCRIPT}`],
    });
    // The change feed reads the feed's items (Query) and voids dead positions (conditional PutItem); with the
    // rate counter (UpdateItem), that is all it touches: only items whose PK starts with those prefixes.
    fns.changes = new ServiceFunction(this, 'Fn-changes', {
      name: 'changes',
      config,
      tableName,
      description: `time-tracking ${config.stage}: GET /v1/changes (the change feed)`,
      environment: { CURSOR_SECRET_ARN: this.cursorSecret.secretArn },
    });
    fns.changes.bindTable(this.table, {
      kind: 'items',
      actions: ['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      leadingKeys: [`${keys.changeLogPartition('*')}`, `${keys.rateCounter('*', '').PK}`],
    });
    this.cursorSecret.grantRead(fns.changes.role);
    // GET /v1/me: the authorizer's answer and the rate counter; reads the key record only for a context cached
    // before the authorizer sent the key's name. Only API key and rate-counter items.
    fns.me = new ServiceFunction(this, 'Fn-me', {
      name: 'me',
      config,
      tableName,
      memorySize: 256,
      timeout: Duration.seconds(5),
      description: `time-tracking ${config.stage}: GET /v1/me`,
    });
    fns.me.bindTable(this.table, { kind: 'items', actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], leadingKeys: [keys.apiKey('*').PK, keys.rateCounter('*', '').PK] });
    // Reports read entries, rollups and the catalog (GetItem, Query); the only write is the rate counter.
    fns.reports = new ServiceFunction(this, 'Fn-reports', {
      name: 'reports',
      config,
      tableName,
      description: `time-tracking ${config.stage}: GET /v1/reports/summary`,
    });
    fns.reports.bindTable(this.table, { kind: 'read', leadingKeys: [`${keys.workspacePartition('*')}`] });
    fns.reports.bindTable(this.table, { kind: 'items', actions: ['dynamodb:UpdateItem'], leadingKeys: [`${keys.rateCounter('*', '').PK}`] });
    this.functions = fns;

    this.authorizerFunction = new ServiceFunction(this, 'Fn-authorizer', {
      name: 'authorizer',
      config,
      tableName,
      memorySize: 512,
      timeout: Duration.seconds(5),
      description: `time-tracking ${config.stage}: REQUEST authorizer resolving ${API_KEY_HEADER}`,
    });
    // Reads the key record by the hash of the key and records lastUsedAt: nothing else, and only API key items.
    this.authorizerFunction.bindTable(this.table, {
      kind: 'items',
      actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
      leadingKeys: [keys.apiKey('*').PK],
    });

    // ---------------------------------------------------------------- REST API
    this.accessLogGroup = new logs.LogGroup(this, 'ApiAccessLogs', {
      logGroupName: `/time-tracking/${config.stage}/api-access`,
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });

    this.api = new apigw.RestApi(this, 'Api', {
      restApiName: `time-tracking-${config.stage}`,
      description: `Workspace time-tracking API (${config.stage})`,
      endpointConfiguration: { types: [apigw.EndpointType.REGIONAL] },
      // The account-level role API Gateway needs to write access and execution logs.
      cloudWatchRole: true,
      // gzip for responses of at least MIN_COMPRESSION_BYTES when the client accepts it (as the local server does)
      minCompressionSize: Size.bytes(MIN_COMPRESSION_BYTES),
      // The console's invoice PDF (a base64 body with isBase64Encoded): sent as bytes to an Accept that names it.
      binaryMediaTypes: BINARY_MEDIA_TYPES,
      deployOptions: {
        stageName: config.stage,
        accessLogDestination: new apigw.LogGroupLogDestination(this.accessLogGroup),
        accessLogFormat: apigw.AccessLogFormat.custom(accessLogFormat()),
        // Errors only, and never request/response data: X-API-Key must not reach the logs.
        loggingLevel: apigw.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        metricsEnabled: false,
        tracingEnabled: config.tracing,
        throttlingRateLimit: config.throttling.rateLimit,
        throttlingBurstLimit: config.throttling.burstLimit,
        // The public routes get their own, smaller bucket (anonymous callers cannot use up the stage's).
        methodOptions: Object.fromEntries(
          [...PUBLIC_ROUTES, ...CONSOLE_PUBLIC_ROUTES].map((r) => [
            `${r.path}/${r.method}`,
            {
              throttlingRateLimit: config.publicThrottling.rateLimit,
              throttlingBurstLimit: config.publicThrottling.burstLimit,
              loggingLevel: apigw.MethodLoggingLevel.ERROR,
              dataTraceEnabled: false,
              metricsEnabled: false,
            },
          ]),
        ),
      },
    });
    addGatewayErrors(this.api, config.corsOrigins);
    // The execution-log group API Gateway would create itself (without retention): created here first, with the stage's.
    this.executionLogGroup = new logs.LogGroup(this, 'ApiExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${this.api.restApiId}/${config.stage}`,
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });
    this.api.deploymentStage.node.addDependency(this.executionLogGroup);

    const authorizer = new apigw.RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      authorizerName: `time-tracking-${config.stage}-api-key`,
      handler: this.authorizerFunction.fn,
      identitySources: [apigw.IdentitySource.header(API_KEY_HEADER)],
      resultsCacheTtl: AUTHORIZER_CACHE_TTL,
    });

    // One integration per function; one invoke permission per function for the whole API (not one per method).
    const integrations = new Map<FunctionName, apigw.LambdaIntegration>();
    const integrationFor = (name: FunctionName) => {
      let i = integrations.get(name);
      if (!i) {
        i = new apigw.LambdaIntegration(fns[name].fn, { proxy: true, scopePermissionToMethod: false });
        integrations.set(name, i);
      }
      return i;
    };

    // OPTIONS (the CORS preflight) and ANY (501 for a method a path does not offer) on every path, the console's too.
    const edge = new GatewayEdgeMethods(config.corsOrigins);

    for (const [template, routes] of pathTemplates()) {
      const resource = this.api.root.resourceForPath(template);
      const pathParams = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const requestParameters = Object.fromEntries(pathParams.map((p) => [`method.request.path.${p}`, true]));
      for (const route of routes) {
        const isPublic = route.scope === null;
        const method = resource.addMethod(route.method, integrationFor(route.resource), {
          operationName: (route as { id?: string }).id ?? `${route.method} ${route.path}`,
          requestParameters,
          ...(isPublic ? { authorizationType: apigw.AuthorizationType.NONE } : { authorizer, authorizationType: apigw.AuthorizationType.CUSTOM }),
        });
        if (isPublic) {
          Validations.of(method).acknowledge(
            { id: 'AwsSolutions-APIG4', reason: `${route.method} ${route.path} is public by contract (api-spec.md: the OpenAPI document needs no authentication).` },
            { id: 'AwsSolutions-COG4', reason: `${route.method} ${route.path} is public by contract; it has no authorizer at all.` },
          );
        }
      }
      edge.addTo(resource, template, { authorizer, credential: `the API key (${API_KEY_HEADER})`, requestParameters });
    }

    Validations.of(this.api).acknowledge(
      {
        id: 'AwsSolutions-COG4',
        reason:
          'Callers are integrations authenticating with workspace API keys (X-API-Key), not Cognito users: a Lambda REQUEST authorizer resolves the key to its workspace, scopes and limits by design (api-spec.md).',
      },
      {
        id: 'AwsSolutions-APIG2',
        reason:
          'Requests are validated in the handlers with the zod schemas of the route table (shared/api/routes.ts), which produce the field-level 400 VALIDATION_ERROR details the API promises; an API Gateway request validator could only give a generic message.',
      },
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason:
          "The account-level role API Gateway uses to write CloudWatch logs (access and execution logs) uses AWS's purpose-built AmazonAPIGatewayPushToCloudWatchLogs policy, as the API Gateway documentation prescribes.",
      },
    );

    // ---------------------------------------------------------------- the console (lib/console.ts): Cognito, its routes and authorizer
    this.console = new Console(this, 'Console', { config, api: this.api, edge, table: this.table, cursorSecret: this.cursorSecret });

    // ---------------------------------------------------------------- AWS WAF (lib/waf.ts): on the stage and the user pool
    if (config.waf.enabled) {
      this.firewall = new EdgeFirewall(this, 'Firewall', { config, api: this.api, userPool: this.console.userPool });
    } else {
      Validations.of(this.api.deploymentStage).acknowledge({
        id: 'AwsSolutions-APIG3',
        reason: 'The dev stage has no AWS WAF web ACL unless deployed with -c waf=true (its cost is not worth it for a sandbox); prod always has one (lib/waf.ts).',
      });
    }

    // ---------------------------------------------------------------- monitoring
    const monitoring = new Monitoring(this, 'Monitoring', {
      config,
      api: this.api,
      table: this.table,
      functions: fns,
      authorizerFunction: this.authorizerFunction,
      consoleFunctions: { console: this.console.fn, invoicePdf: this.console.pdfFn, keys: this.console.keysFn, authorizer: this.console.authorizerFn },
      accessLogGroup: this.accessLogGroup,
    });

    // ---------------------------------------------------------------- webhook delivery (stream -> dispatcher -> SQS -> sender)
    this.webhooks = new WebhookDelivery(this, 'Webhooks', { config, table: this.table, api: fns.webhooks, alarmTopic: monitoring.alarmTopic });
    monitoring.addFunctionsToDashboard(
      'Webhook delivery',
      [
        ['webhook-dispatcher', this.webhooks.dispatcher],
        ['webhook-sender', this.webhooks.sender],
      ],
      this.webhooks.alarms,
    );

    // ---------------------------------------------------------------- the invoice sweep (lib/invoice-sweep.ts): every minute
    this.invoiceSweep = new InvoiceSweep(this, 'InvoiceSweep', { config, table: this.table });
    // its alarms (the oldest open job over 15 minutes, errors, throttles) and its dashboard row
    monitoring.alarmInvoiceSweep(this.invoiceSweep.fn, this.invoiceSweep.oldestJobAge, 15 * 60);

    // ---------------------------------------------------------------- outputs
    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL of the stage; routes are under v1/' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'TABLE_NAME for the admin CLI' });
    new CfnOutput(this, 'DashboardName', { value: monitoring.dashboard.dashboardName });
    new CfnOutput(this, 'AlarmTopicArn', { value: monitoring.alarmTopic.topicArn, description: 'Subscribe here to receive alarms' });
    new CfnOutput(this, 'AccessLogGroupName', { value: this.accessLogGroup.logGroupName });
    new CfnOutput(this, 'CursorSecretArn', { value: this.cursorSecret.secretArn, description: 'The cursor-signing secret (rotation: docs/operations.md)' });
    new CfnOutput(this, 'WebhookKeysSecretArn', { value: this.webhooks.keyRing.secretArn, description: 'The webhook key ring (rotation: docs/operations.md)' });
  }
}

/** JSON access log line. Every value is a JSON string ("-" when API Gateway has none). */
export const ACCESS_LOG_FIELDS: Record<string, string> = {
  requestId: '$context.requestId',
  extendedRequestId: '$context.extendedRequestId',
  requestTime: '$context.requestTime',
  requestTimeEpoch: '$context.requestTimeEpoch',
  stage: '$context.stage',
  ip: '$context.identity.sourceIp',
  // No $context.identity.userAgent: API Gateway writes it unescaped, so a quote in a User-Agent would break
  // the JSON line (the authorizer-errors metric filter would miss it) or forge fields after it.
  httpMethod: '$context.httpMethod',
  // The route's template only: $context.path is the raw request path, written unescaped (a quote in it would
  // break the JSON line or forge fields); the template is one API Gateway made.
  resourcePath: '$context.resourcePath',
  protocol: '$context.protocol',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationStatus: '$context.integration.status',
  integrationLatency: '$context.integration.latency',
  integrationError: '$context.integration.error',
  errorResponseType: '$context.error.responseType',
  errorMessage: '$context.error.message',
  authorizerStatus: '$context.authorizer.status',
  authorizerLatency: '$context.authorizer.latency',
  authorizerError: '$context.authorizer.error',
  authorizerRequestId: '$context.authorizer.requestId',
  workspaceId: '$context.authorizer.workspaceId',
  keyId: '$context.authorizer.keyId',
  xrayTraceId: '$context.xrayTraceId',
};

function accessLogFormat(): string {
  // error.message may contain quotes: use its pre-quoted form instead of wrapping it in quotes ourselves.
  return JSON.stringify(ACCESS_LOG_FIELDS).replace('"$context.error.message"', '$context.error.messageString');
}
