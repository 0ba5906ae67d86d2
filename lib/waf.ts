import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { GATEWAY_ANSWERS, MAX_CONTENT_LENGTH_DIGITS } from '../shared/api/gateway-edge';
import type { StageConfig } from './config';

/** The body of a WAF answer: the API's error shape (WAF cannot insert API Gateway's request id, which it has not made yet). */
const wafBody = (id: 'REQUEST_TOO_LARGE' | 'THROTTLED') => JSON.stringify({ error: { code: GATEWAY_ANSWERS[id].code, message: GATEWAY_ANSWERS[id].message } });

/**
 * The AWS WAF web ACL of the stage (docs/operations.md, "Limits at the edge"):
 *
 * - `BodyOverLambdaLimit` (always): a request whose `content-length` has more than MAX_CONTENT_LENGTH_DIGITS
 *   digits (1,000,000 bytes and up) is blocked with 413 PAYLOAD_TOO_LARGE in the API's error shape. Bodies
 *   from 6 to 10 MB pass API Gateway's own limit but exceed Lambda's 6 MB request payload, which would be a
 *   5xx (and trip the 5xx alarm); the handlers take 128 KB at most, so nothing valid is refused.
 * - `RatePerIp` (only with `-c wafIpRateLimit=N`, the documented option for prod): more than N requests in
 *   5 minutes from one IP address are blocked with 429 THROTTLED until the rate falls: what protects the
 *   authorizer (and the stage throttle shared with paying integrations) from floods of bad keys and from
 *   anonymous callers of the public routes.
 */
export class EdgeFirewall extends Construct {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: { config: StageConfig; api: apigw.RestApi }) {
    super(scope, id);
    const { config } = props;
    const name = `time-tracking-${config.stage}`;
    const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: true });
    const cors = config.corsOrigins.length === 1 ? [{ name: 'Access-Control-Allow-Origin', value: config.corsOrigins[0]! }] : [];
    const rules: wafv2.CfnWebACL.RuleProperty[] = [
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
    ];
    if (config.waf.ipRateLimit !== undefined) {
      rules.push({
        name: 'RatePerIp',
        priority: 1,
        statement: { rateBasedStatement: { limit: config.waf.ipRateLimit, aggregateKeyType: 'IP', evaluationWindowSec: 300 } },
        action: {
          block: {
            customResponse: {
              responseCode: GATEWAY_ANSWERS.THROTTLED.status,
              customResponseBodyKey: 'Throttled',
              responseHeaders: [{ name: 'Retry-After', value: '60' }, ...cors],
            },
          },
        },
        visibilityConfig: visibility(`${name}-rate-per-ip`),
      });
    }
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name,
      scope: 'REGIONAL',
      description: `time-tracking ${config.stage}: 413 for bodies Lambda cannot take${config.waf.ipRateLimit !== undefined ? `; ${config.waf.ipRateLimit} requests per IP per 5 minutes` : ''}`,
      defaultAction: { allow: {} },
      customResponseBodies: {
        PayloadTooLarge: { contentType: 'APPLICATION_JSON', content: wafBody('REQUEST_TOO_LARGE') },
        Throttled: { contentType: 'APPLICATION_JSON', content: wafBody('THROTTLED') },
      },
      rules,
      visibilityConfig: visibility(name),
    });
    new wafv2.CfnWebACLAssociation(this, 'Association', { resourceArn: props.api.deploymentStage.stageArn, webAclArn: this.webAcl.attrArn });
  }
}
