import * as path from 'node:path';
import { type CfnElement, Duration, Stack, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { StageConfig } from './config';

/** Repository root: entries are `functions/<name>/index.ts`, the lock file is `package-lock.json`. */
export const PROJECT_ROOT = path.resolve(__dirname, '..');
export const entryFor = (name: string) => path.join(PROJECT_ROOT, 'functions', name, 'index.ts');

/** Namespace of the handlers' EMF metrics (Powertools) and of the metric filters of this stack. */
/** The handlers' EMF namespace (shared/platform/metrics.ts), re-exported for the alarms and dashboard. */
export { METRICS_NAMESPACE } from '../shared/platform/metrics';
import { FUNCTION_TIMEOUT_SECONDS } from '../shared/api/gateway-edge';
import { METRICS_NAMESPACE } from '../shared/platform/metrics';
export const serviceName = (stage: string) => `time-tracking-${stage}`;

/** esbuild options of every function (test/cdk/bundles.test.ts builds with the same ones to check sizes). */
export const BUNDLING = {
  minify: true,
  sourceMap: false,
  target: 'node22',
  format: OutputFormat.CJS,
  // The Node.js 22 runtime ships AWS SDK v3; keeping it out of the bundle keeps bundles small.
  externalModules: ['@aws-sdk/*'],
  // esbuild reports warnings and errors only (not each bundle's size and time)
  logLevel: LogLevel.WARNING,
} as const satisfies BundlingOptions;

/**
 * What one function's bundle does beyond BUNDLING, by function name: esbuild aliases (package -> module,
 * paths from the project root). The stack passes them to esbuild (`--alias:`), and test/cdk/bundles.test.ts
 * and bench/bundles.ts build with them too (esbuildAliasOf).
 * - console-invoice-pdf: pdf-lib's modules as the ES build (the renderer imports pdf-lib's document model and
 *   writer module by module, `pdf-lib/cjs/...`, shared/platform/pdf-lib/text-pdf.ts; its index and high-level
 *   API, with forms, annotations, the parser and the image and custom-font embedders, stay out: 300 -> 82 KB);
 *   pako, its compression library, replaced by Node's zlib (45 KB); of @pdf-lib/standard-fonts the widths
 *   of the WinAnsi glyphs of Helvetica and Helvetica-Bold only, no kerning (fonts.json: 128 -> 7 KB); no PNG
 *   decoder (@pdf-lib/upng, 25 KB: the invoice embeds no image). shared/platform/pdf-lib/ holds the replacements.
 */
export const FUNCTION_ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'console-invoice-pdf': {
    'pdf-lib/cjs': 'pdf-lib/es',
    pako: './shared/platform/pdf-lib/pako.ts',
    '@pdf-lib/standard-fonts': './shared/platform/pdf-lib/standard-fonts.ts',
    '@pdf-lib/upng': './shared/platform/pdf-lib/upng.ts',
  },
};
/** The esbuild aliases of a function's bundle (none for most). */
export const esbuildAliasOf = (name: string): Record<string, string> => ({ ...FUNCTION_ALIASES[name] });
/** The stack's bundling options of a function: BUNDLING, plus its aliases. */
export function bundlingOf(name: string): BundlingOptions {
  const alias = Object.entries(esbuildAliasOf(name)).map(([from, to]) => `${from}=${to}`);
  return alias.length ? { ...BUNDLING, esbuildArgs: { '--alias': alias } } : BUNDLING;
}

/** The Lambda runtime of every function; every npm script runs on its major too (package.json: the `node` dev dependency). */
export const LAMBDA_RUNTIME = Runtime.NODEJS_22_X;

/**
 * Hard upper bounds of the bundles (test/cdk/bundles.test.ts), per kind of function, each about 1 KB above
 * what the largest of the kind weighs today so a regression fails CI; the performance targets (every function
 * 200 KB, entity functions 150 KB, authorizers 100 KB, the invoice PDF 400 KB) are reported by `npm run bench`
 * section 1, whose note names what holds each bundle over its target. Since issue 35 each API function carries
 * only its own routes (shared/api/routes/<function>.ts), CSV and the running-timer rule only where a route
 * needs them, no Powertools Parameters, no table of the gateway's own answers (shared/api/gateway-edge.ts
 * builds it only where read), and no console function carries the console's OpenAPI builder (the document is
 * a file built with the bundle: lib/console.ts). Sizes of issue 35's bundles branch (session 10):
 * - authorizers: authorizer 41.7 KB, console-authorizer 55.5 (jose);
 * - entity: the plain entity functions (clients, projects, tasks, tags, favorites) 148.3-148.4 KB (151.2-151.4
 *   with the gateway's answer table);
 * - entityFeature: the entity functions with a feature of their own: time-entries 157.8 (its timers, CSV, the
 *   running-timer rule, rollups; 163.3 with the table and the report's shapes), invoices 160.0 (the invoicing wing);
 * - webhooks: 186.6 KB (the entity function's parts, plus ipaddr.js for the URL checks and the Standard Webhooks
 *   signing library through shared/webhooks/delivery.ts);
 * - console (console, console-keys): 234.3 KB (262.3 building the console's document at run time);
 * - invoicePdf (console-invoice-pdf): 332.2 KB, of it pdf-lib 80 KB (its document model and writer only:
 *   shared/platform/pdf-lib/text-pdf.ts) and the fonts' widths 7 KB (shared/platform/pdf-lib/fonts.json);
 *   the rest is the console's handler stack;
 * - other: openapi 185.7 KB (the whole table's schemas and zod's JSON Schema generator, for the document),
 *   reports 159.3, the webhook workers 151.7, changes 127.9, me 119.6, invoice-sweep 119.5.
 */
export const BUNDLE_LIMITS = {
  authorizer: 57 * 1024,
  entity: 150 * 1024,
  entityFeature: 163 * 1024,
  webhooks: 189 * 1024,
  console: 236 * 1024,
  invoicePdf: 334 * 1024,
  other: 187 * 1024,
} as const;
/** The largest of the limits: no function's bundle may be larger. */
export const MAX_BUNDLE_BYTES = Math.max(...Object.values(BUNDLE_LIMITS));

export interface ServiceFunctionProps {
  /** Folder under functions/, e.g. `clients`, `authorizer`. Also names the log group. */
  readonly name: string;
  readonly config: StageConfig;
  readonly description: string;
  readonly tableName: string;
  readonly memorySize?: number;
  readonly timeout?: Duration;
  /** Extra environment (never secret values: pass ARNs and read them at run time). */
  readonly environment?: Record<string, string>;
  /** Files (paths from the project root) copied next to the bundle, read by the handler at run time. */
  readonly assets?: readonly string[];
  /** Reserved concurrency (a share of the account's executions kept for, and capping, this function). */
  readonly reservedConcurrentExecutions?: number;
  /** Commands run after bundling (from the project root into the bundle's folder): the console's page build. */
  readonly afterBundling?: (inputDir: string, outputDir: string) => string[];
}

/**
 * How a function may use the table. Every grant names the partitions it may touch (`dynamodb:LeadingKeys`:
 * the PK of the table, or the index partition key of a Query on an index, must match one of the
 * patterns), so no function can read or rewrite the API key records (`APIKEY#`) unless it is meant to.
 */
export type TableAccess =
  /** Items of the workspace data: read, write, transactions, Query on the table and its indexes, the keyed write's BatchGetItem. No Scan, no batch writes. */
  | { kind: 'readWrite'; leadingKeys: string[] }
  /** Reads only: GetItem and Query on the table and its indexes (reports). No Scan, no writes. */
  | { kind: 'read'; leadingKeys: string[] }
  /** These actions on the base table only. */
  | { kind: 'items'; actions: string[]; leadingKeys: string[] };

/** The table actions of each kind of access: what the data layer's deployed paths call (TransactWriteItems is authorized per item as Put/Update/Delete/ConditionCheck). */
export const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query'] as const;
export const WRITE_ACTIONS = ['dynamodb:ConditionCheckItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'] as const;
/**
 * A write with an Idempotency-Key reads its record and the key's record in one BatchGetItem (its first
 * consistent read: shared/data/idempotency.ts `consistentGet`). BatchGetItem is authorized per item, under
 * the same `dynamodb:LeadingKeys` condition, so it reaches no partition the role's GetItem could not.
 */
export const KEYED_READ_ACTIONS = ['dynamodb:BatchGetItem'] as const;

/**
 * One Lambda function with the project's defaults fixed in one place: Node.js 22 on arm64, esbuild
 * (minified, no source maps, AWS SDK v3 from the runtime), its own log group with the stage's retention,
 * its own role with no managed policies (only "write to my log group"), the common environment, and
 * optional X-Ray tracing. Table access is granted explicitly with {@link bindTable}.
 */
export class ServiceFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const { config } = props;

    this.logGroup = new logs.LogGroup(this, 'LogGroup', {
      logGroupName: `/time-tracking/${config.stage}/lambda/${props.name}`,
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });

    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `time-tracking ${config.stage} ${props.name} function`,
    });
    // Instead of the AWSLambdaBasicExecutionRole managed policy: write to this function's log group only.
    this.logGroup.grantWrite(this.role);

    this.fn = new NodejsFunction(this, 'Function', {
      entry: entryFor(props.name),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      runtime: LAMBDA_RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? config.lambda.memorySize,
      timeout: props.timeout ?? Duration.seconds(FUNCTION_TIMEOUT_SECONDS),
      description: props.description,
      role: this.role,
      logGroup: this.logGroup,
      ...(props.reservedConcurrentExecutions !== undefined ? { reservedConcurrentExecutions: props.reservedConcurrentExecutions } : {}),
      ...(config.tracing ? { tracing: Tracing.ACTIVE } : {}),
      environment: {
        TABLE_NAME: props.tableName,
        STAGE: config.stage,
        POWERTOOLS_SERVICE_NAME: serviceName(config.stage),
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        POWERTOOLS_LOG_LEVEL: config.logLevel,
        LOG_LEVEL: config.logLevel,
        CORS_ORIGINS: config.corsOrigins.join(','),
        ...(config.tracing ? {} : { POWERTOOLS_TRACE_DISABLED: 'true' }),
        ...props.environment,
      },
      bundling:
        props.assets?.length || props.afterBundling
          ? {
              ...bundlingOf(props.name),
              commandHooks: {
                beforeBundling: () => [],
                beforeInstall: () => [],
                afterBundling: (inputDir: string, outputDir: string) => [
                  ...(props.assets ?? []).map((file) => `cp "${path.join(inputDir, file)}" "${outputDir}/"`),
                  ...(props.afterBundling?.(inputDir, outputDir) ?? []),
                ],
              },
            }
          : bundlingOf(props.name),
    });

    Validations.of(this.fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'The runtime is pinned to nodejs22.x on purpose: the project toolchain, esbuild target and tests are Node 22 (supported by Lambda until April 2027). Moving to a newer runtime is a deliberate, tested change, not one made implicitly by a lint rule.',
    });
    if (config.tracing) {
      Validations.of(this.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'X-Ray active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords do not support resource-level permissions, so AWS requires Resource "*" for them (and only them).',
      });
    }
  }

  /** Grants exactly the table access a function needs. */
  bindTable(table: dynamodb.Table, access: TableAccess): void {
    const leadingKeys = { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': access.leadingKeys } };
    if (access.kind === 'readWrite' || access.kind === 'read') {
      // grantReadWriteData would include Scan and the batch calls: the data layer never scans (every list is a
      // Query) and its deployed paths make no batch call, so IAM forbids them.
      this.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: [...READ_ACTIONS, ...(access.kind === 'readWrite' ? [...WRITE_ACTIONS, ...KEYED_READ_ACTIONS] : [])],
          resources: [table.tableArn, `${table.tableArn}/index/*`],
          conditions: leadingKeys,
        }),
      );
      const tableLogicalId = Stack.of(table).getLogicalId(table.node.defaultChild as CfnElement);
      Validations.of(this.role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${tableLogicalId}.Arn>/index/*]`,
        reason:
          'Query on the global secondary indexes of this one table (the GSIs of shared/data/table.ts): "<table ARN>/index/*" names only its indexes; the actions are listed explicitly and exclude Scan.',
      });
      return;
    }
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: access.actions,
        resources: [table.tableArn],
        conditions: leadingKeys,
      }),
    );
  }
}
