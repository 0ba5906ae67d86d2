#!/usr/bin/env node
import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { stageConfigFromContext } from '../lib/config';
import { hideBundlingLines } from '../lib/quiet-bundling';
import { TimeTrackingStack } from '../lib/time-tracking-stack';

/**
 * `cdk synth|deploy [-c stage=dev|prod] [-c sesFromAddress=no-reply@example.com] [-c waf=true] [-c wafIpRateLimit=2000] [-c wafCountOnly=true] [-c alarmEmail=ops@example.com] [-c tracing=true|false] [-c logLevel=INFO] [-c corsOrigins=https://app.example.com]`
 * (CORS origins: the context value, else CORS_ORIGINS, else `*`.)
 * One stack per stage: TimeTracking-dev, TimeTracking-prod.
 */
// `npm run cdk -- synth --quiet` (bin/cdk.sh sets CDK_QUIET): no "Bundling asset <path>..." lines (lib/quiet-bundling.ts).
if (process.env.CDK_QUIET === '1') hideBundlingLines(process.stderr);

const app = new App();
const config = stageConfigFromContext({
  stage: app.node.tryGetContext('stage'),
  alarmEmail: app.node.tryGetContext('alarmEmail'),
  tracing: app.node.tryGetContext('tracing'),
  logLevel: app.node.tryGetContext('logLevel'),
  corsOrigins: app.node.tryGetContext('corsOrigins') ?? process.env.CORS_ORIGINS,
  wafIpRateLimit: app.node.tryGetContext('wafIpRateLimit'),
  waf: app.node.tryGetContext('waf'),
  wafCountOnly: app.node.tryGetContext('wafCountOnly'),
  sesFromAddress: app.node.tryGetContext('sesFromAddress'),
});

const explicitRegion: string | undefined = app.node.tryGetContext('region') ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
new TimeTrackingStack(app, `TimeTracking-${config.stage}`, {
  config,
  description: `Workspace time-tracking API (${config.stage}): API Gateway REST + Lambda + DynamoDB`,
  // Environment-agnostic unless a region is named (AWS_REGION / AWS_DEFAULT_REGION, or -c region=...): an offline
  // synth then writes ${AWS::Region} rather than the CLI's fallback us-east-1 into every ARN and asset bucket.
  ...(explicitRegion ? { env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: explicitRegion } } : {}),
  terminationProtection: config.stage === 'prod',
});

Tags.of(app).add('service', 'time-tracking');
Tags.of(app).add('stage', config.stage);

// AWS Solutions rule pack (cdk-nag v3: a policy-validation plugin). Every finding is either fixed or
// acknowledged next to its resource with a reason; an unacknowledged one fails the synth.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
