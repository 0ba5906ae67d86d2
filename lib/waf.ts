import { ArnFormat, Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { GATEWAY_ANSWERS, MAX_CONTENT_LENGTH_DIGITS } from '../shared/api/gateway-edge';
import type { StageConfig } from './config';

/** The body of a WAF answer: the API's error shape (WAF cannot insert API Gateway's request id, which it has not made yet). */
const wafBody = (id: 'REQUEST_TOO_LARGE' | 'THROTTLED') => JSON.stringify({ error: { code: GATEWAY_ANSWERS[id].code, message: GATEWAY_ANSWERS[id].message } });

/** AWS managed rule groups on both web ACLs (the OWASP-style common rules, and known bad inputs such as Log4j). */
export const MANAGED_RULE_GROUPS = ['AWSManagedRulesCommonRuleSet', 'AWSManagedRulesKnownBadInputsRuleSet'] as const;
/**
 * Rules of the common rule set counted, not blocked, on the API: SizeRestrictions_BODY blocks bodies over
 * 8 KB, and the handlers take up to 128 KB (BodyOverLambdaLimit and the handlers bound bodies instead).
 */
export const API_COMMON_RULES_COUNTED = ['SizeRestrictions_BODY'] as const;

/**
 * The AWS WAF web ACLs of the stage (docs/operations.md, "Limits at the edge"): in prod always, in dev only
 * with `-c waf=true` (lib/config.ts). One on the API stage, one on the console's Cognito user pool, each with:
 *
 * - `RatePerIp`: more than `ipRateLimit` requests in 5 minutes from one IP address are blocked (on the API
 *   with 429 THROTTLED in the API's error shape) until the rate falls: what protects the authorizers, the
 *   public routes and managed login from floods (`-c wafIpRateLimit=N`, default 2,000).
 * - the managed groups `AWSManagedRulesCommonRuleSet` and `AWSManagedRulesKnownBadInputsRuleSet`.
 * - on the API only, `BodyOverLambdaLimit`: a request whose `content-length` has more than
 *   MAX_CONTENT_LENGTH_DIGITS digits (1,000,000 bytes and up) is blocked with 413 PAYLOAD_TOO_LARGE in the
 *   API's error shape (bodies from 6 to 10 MB pass API Gateway's limit but exceed Lambda's 6 MB).
 *
 * `-c wafCountOnly=true` makes the rate rule and the managed groups count instead of block (to watch a new
 * rule's matches before enforcing it). Both ACLs log to one log group (`aws-waf-logs-...`, the stage's
 * retention, retained in prod).
 */
export class EdgeFirewall extends Construct {
  readonly webAcl: wafv2.CfnWebACL;
  readonly userPoolWebAcl: wafv2.CfnWebACL;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: { config: StageConfig; api: apigw.RestApi; userPool: cognito.IUserPool }) {
    super(scope, id);
    const { config } = props;
    const name = `time-tracking-${config.stage}`;
    const count = config.waf.countOnly;
    const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: true });
    const cors = config.corsOrigins.length === 1 ? [{ name: 'Access-Control-Allow-Origin', value: config.corsOrigins[0]! }] : [];
    const rateRule = (priority: number, metric: string, block: wafv2.CfnWebACL.BlockActionProperty): wafv2.CfnWebACL.RuleProperty => ({
      name: 'RatePerIp',
      priority,
      statement: { rateBasedStatement: { limit: config.waf.ipRateLimit, aggregateKeyType: 'IP', evaluationWindowSec: 300 } },
      action: count ? { count: {} } : { block },
      visibilityConfig: visibility(metric),
    });
    const managed = (first: number, prefix: string, counted: readonly string[] = []): wafv2.CfnWebACL.RuleProperty[] =>
      MANAGED_RULE_GROUPS.map((group, i) => ({
        name: group,
        priority: first + i,
        statement: {
          managedRuleGroupStatement: {
            vendorName: 'AWS',
            name: group,
            ...(group === 'AWSManagedRulesCommonRuleSet' && counted.length > 0 ? { ruleActionOverrides: counted.map((rule) => ({ name: rule, actionToUse: { count: {} } })) } : {}),
          },
        },
        overrideAction: count ? { count: {} } : { none: {} },
        visibilityConfig: visibility(`${prefix}-${group}`),
      }));

    const apiRules: wafv2.CfnWebACL.RuleProperty[] = [
      {
        name: 'BodyOverLambdaLimit',
        priority: 0,
        statement: {
          sizeConstraintStatement: {
            // CloudFormation's spelling inside SingleHeader (the L1 passes this object through as it is).
            fieldToMatch: { singleHeader: { Name: 'content-length' } },
            comparisonOperator: 'GT',
            size: MAX_CONTENT_LENGTH_DIGITS,
            textTransformations: [{ priority: 0, type: 'NONE' }],
          },
        },
        action: { block: { customResponse: { responseCode: GATEWAY_ANSWERS.REQUEST_TOO_LARGE.status, customResponseBodyKey: 'PayloadTooLarge', responseHeaders: cors } } },
        visibilityConfig: visibility(`${name}-body-over-lambda-limit`),
      },
      rateRule(1, `${name}-rate-per-ip`, {
        customResponse: {
          responseCode: GATEWAY_ANSWERS.THROTTLED.status,
          customResponseBodyKey: 'Throttled',
          responseHeaders: [{ name: 'Retry-After', value: '60' }, ...cors],
        },
      }),
      ...managed(2, name, API_COMMON_RULES_COUNTED),
    ];
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name,
      scope: 'REGIONAL',
      description: `time-tracking ${config.stage} API - 413 for bodies Lambda cannot take, ${config.waf.ipRateLimit} requests per IP per 5 minutes, AWS managed common and known-bad-inputs rules${count ? ', counting' : ''}`,
      defaultAction: { allow: {} },
      customResponseBodies: {
        PayloadTooLarge: { contentType: 'APPLICATION_JSON', content: wafBody('REQUEST_TOO_LARGE') },
        Throttled: { contentType: 'APPLICATION_JSON', content: wafBody('THROTTLED') },
      },
      rules: apiRules,
      visibilityConfig: visibility(name),
    });
    new wafv2.CfnWebACLAssociation(this, 'Association', { resourceArn: props.api.deploymentStage.stageArn, webAclArn: this.webAcl.attrArn });

    const poolName = `${name}-user-pool`;
    this.userPoolWebAcl = new wafv2.CfnWebACL(this, 'UserPoolWebAcl', {
      name: poolName,
      scope: 'REGIONAL',
      description: `time-tracking ${config.stage} console user pool - ${config.waf.ipRateLimit} requests per IP per 5 minutes, AWS managed common and known-bad-inputs rules${count ? ', counting' : ''}`,
      defaultAction: { allow: {} },
      rules: [rateRule(0, `${poolName}-rate-per-ip`, {}), ...managed(1, poolName)],
      visibilityConfig: visibility(poolName),
    });
    new wafv2.CfnWebACLAssociation(this, 'UserPoolAssociation', { resourceArn: props.userPool.userPoolArn, webAclArn: this.userPoolWebAcl.attrArn });

    // WAF's logs: the name must start with aws-waf-logs-; kept as the stage keeps its logs.
    this.logGroup = new logs.LogGroup(this, 'Logs', { logGroupName: `aws-waf-logs-${name}`, retention: config.logRetention, removalPolicy: config.removalPolicy });
    const destination = Stack.of(this).formatArn({ service: 'logs', resource: 'log-group', resourceName: this.logGroup.logGroupName, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
    for (const [lid, acl] of [
      ['Logging', this.webAcl],
      ['UserPoolLogging', this.userPoolWebAcl],
    ] as const) {
      new wafv2.CfnLoggingConfiguration(this, lid, { resourceArn: acl.attrArn, logDestinationConfigs: [destination] }).node.addDependency(this.logGroup);
    }
  }
}
