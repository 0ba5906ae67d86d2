import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { type StageName, stageConfig } from '../../lib/config';
import { TimeTrackingStack } from '../../lib/time-tracking-stack';
import { NO_BUNDLING } from './support';

/**
 * cdk-nag 3.x is a CDK policy-validation plugin (Validations.of(app).addPlugins), not an Aspect: findings
 * are reported by the plugin (and fail the synth), and suppressions are Validations.of(c).acknowledge().
 */
function build(stage: StageName, opts: { validation?: boolean } = {}) {
  const app = new App({ context: NO_BUNDLING, builtinCloudFormationValidation: opts.validation ?? false });
  const stack = new TimeTrackingStack(app, `TimeTracking-${stage}`, { config: stageConfig(stage) });
  return { app, stack };
}

/** Every acknowledgment recorded in the construct tree: rule id -> reasons. */
function acknowledgments(root: IConstruct): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const c of root.node.findAll()) {
    for (const m of c.node.metadata) {
      if (m.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY || !m.data) continue;
      for (const [id, v] of Object.entries(m.data as Record<string, unknown>)) {
        const ruleId = id.replace(/^annotation::/i, '');
        const reason = typeof v === 'string' ? v : String((v as { reason?: string })?.reason ?? '');
        out.set(ruleId, [...(out.get(ruleId) ?? []), reason]);
      }
    }
  }
  return out;
}

const describeViolations = (r: ReturnType<AwsSolutionsChecks['validateScope']>) =>
  r.violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((x) => x.constructPath).join(', ')}`);

/** The reviewed list of suppressions (each has its reason next to its resource in lib/). */
const EXPECTED_SUPPRESSIONS: Record<StageName, string[]> = {
  dev: [
    'AwsSolutions-APIG2',
    // dev's stage without an AWS WAF web ACL unless -c waf=true (lib/time-tracking-stack.ts); prod has one
    'AwsSolutions-APIG3',
    'AwsSolutions-APIG4',
    // the console's user pool (lib/console.ts): threat protection is the Plus plan; TOTP MFA optional in dev
    'AwsSolutions-COG2',
    'AwsSolutions-COG4',
    // the Essentials feature plan, not Plus: no threat protection (lib/console.ts)
    'AwsSolutions-COG8',
    'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
    'AwsSolutions-IAM5[Resource::<TableCD117FA1.Arn>/index/*]',
    'AwsSolutions-L1',
    'AwsSolutions-SMG4',
    // the webhook dead-letter queues (lib/webhooks.ts), and the stream event source's dynamodb:ListStreams
    'AwsSolutions-SQS3',
    'AwsSolutions-IAM5[Resource::*]',
  ],
  prod: [], // filled below: dev's (X-Ray's Resource::* is the same finding)
};
EXPECTED_SUPPRESSIONS.prod = [
  ...new Set([
    ...EXPECTED_SUPPRESSIONS.dev.filter((id) => id !== 'AwsSolutions-COG2' && id !== 'AwsSolutions-APIG3'),
    'AwsSolutions-IAM5[Resource::*]',
    // AWS Backup's service role of the table's backup plan (prod only)
    'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]',
  ]),
].sort(); // prod requires MFA, has its WAF and its backup plan

describe.each(['dev', 'prod'] as const)('cdk-nag AwsSolutions (%s)', (stage) => {
  test('no unacknowledged finding, error or warning', () => {
    const { app } = build(stage);
    const report = new AwsSolutionsChecks(app, { verbose: true }).validateScope(app);
    expect(describeViolations(report)).toEqual([]);
    expect(report.success).toBe(true);
  });

  // CDK's built-in CloudFormation template validation is slow (5-30 s): run it on the prod synth only
  // (`cdk synth` runs it for every stage).
  test(`the full synth with the rule pack registered${stage === 'prod' ? ' and CloudFormation validation on' : ''} succeeds without AwsSolutions annotations`, () => {
    const { app, stack } = build(stage, { validation: stage === 'prod' });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
    // Synthesizes the app: a failing plugin report throws here.
    const annotations = Annotations.fromStack(stack);
    expect(annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
    expect(annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
    expect(annotations.findError('*', Match.anyValue())).toEqual([]);
    // The synth's validation report (cdk-nag and, on prod, CloudFormation validation): no violation at all.
    const report = JSON.parse(fs.readFileSync(path.join(app.outdir, 'validation-report.json'), 'utf8'));
    const violations = (report.pluginReports ?? []).flatMap((r: any) =>
      (r.violations ?? []).map((v: any) => `${r.pluginName ?? r.summary?.pluginName}: ${v.ruleName} ${v.description}`),
    );
    expect(violations).toEqual([]);
  }, 180_000);

  test('every suppression is needed, is on the reviewed list, and has a real reason', () => {
    const { app } = build(stage);
    const acks = acknowledgments(app);
    expect([...acks.keys()].sort()).toEqual([...EXPECTED_SUPPRESSIONS[stage]].sort());
    for (const [id, reasons] of acks) {
      for (const reason of reasons) expect({ id, long: reason.length >= 60 }).toEqual({ id, long: true });
    }

    // Without any acknowledgment, exactly these rules fire: nothing is suppressed that isn't a finding.
    const spy = jest.spyOn(Validations.prototype, 'acknowledge').mockImplementation(() => undefined);
    try {
      const bare = build(stage);
      const report = new AwsSolutionsChecks(bare.app).validateScope(bare.app);
      expect(report.violations.map((v) => v.ruleName).sort()).toEqual([...EXPECTED_SUPPRESSIONS[stage]].sort());
    } finally {
      spy.mockRestore();
    }
  });
});

test('a stage without point-in-time recovery would be reported (DDB3) unless acknowledged next to the table', () => {
  const config = { ...stageConfig('dev'), pointInTimeRecovery: false };
  const spy = jest.spyOn(Validations.prototype, 'acknowledge').mockImplementation(() => undefined);
  try {
    const app = new App({ context: NO_BUNDLING, builtinCloudFormationValidation: false });
    new TimeTrackingStack(app, 'NoPitrBare', { config });
    const report = new AwsSolutionsChecks(app).validateScope(app);
    expect(report.violations.find((v) => v.ruleName === 'AwsSolutions-DDB3')?.violatingResources.map((r) => r.constructPath)).toEqual(['NoPitrBare/Table/Resource']);
  } finally {
    spy.mockRestore();
  }
  const app = new App({ context: NO_BUNDLING, builtinCloudFormationValidation: false });
  new TimeTrackingStack(app, 'NoPitr', { config });
  expect(acknowledgments(app).get('AwsSolutions-DDB3')).toHaveLength(1);
  expect(new AwsSolutionsChecks(app).validateScope(app).success).toBe(true);
});
