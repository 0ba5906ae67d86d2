import { GATEWAY_ANSWERS, MAX_CONTENT_LENGTH_DIGITS } from '../../shared/api/gateway-edge';
import { stageConfig } from '../../lib/config';
import { ACCESS_LOG_FIELDS, PUBLIC_ROUTES } from '../../lib/time-tracking-stack';
import { resourcesOfType, synth } from './support';

/**
 * What only a real AWS deployment would show (issue 28), read from the synthesized template of both stages:
 * the body limit at the edge (WAF, 413 in the error shape), concurrency of webhook delivery, the public
 * routes' own throttle, an access log a User-Agent cannot break, the execution-log group's retention and
 * what prod retains.
 */
describe.each(['dev', 'prod'] as const)('AWS-only behaviour (%s)', (stage) => {
  const s = synth(stage);
  const config = stageConfig(stage);
  const id = (c: Parameters<typeof s.logicalId>[0]) => s.logicalId(c);

  test('bodies Lambda cannot take (1,000,000 bytes and up, so 6-10 MB) are refused at the edge: a WAF rule on the stage answering 413 in the error shape', () => {
    const [[aclId, acl]] = resourcesOfType(s, 'AWS::WAFv2::WebACL') as [[string, any]];
    const p = acl.Properties;
    expect([p.Scope, p.DefaultAction]).toEqual(['REGIONAL', { Allow: {} }]);
    expect(p.Rules).toHaveLength(1); // the per-IP rate rule only with -c wafIpRateLimit
    const [rule] = p.Rules;
    expect(rule.Statement).toEqual({
      SizeConstraintStatement: {
        FieldToMatch: { SingleHeader: { Name: 'content-length' } },
        ComparisonOperator: 'GT',
        Size: MAX_CONTENT_LENGTH_DIGITS,
        TextTransformations: [{ Priority: 0, Type: 'NONE' }],
      },
    });
    expect(rule.Action.Block.CustomResponse).toEqual(expect.objectContaining({ ResponseCode: 413, CustomResponseBodyKey: 'PayloadTooLarge' }));
    const body = p.CustomResponseBodies.PayloadTooLarge;
    expect(body.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(body.Content)).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: GATEWAY_ANSWERS.REQUEST_TOO_LARGE.message } });
    // "7 or more characters" is exactly "1,000,000 bytes or more": under Lambda's 6 MB, over the handlers' 128 KB.
    expect(10 ** MAX_CONTENT_LENGTH_DIGITS).toBeLessThan(6 * 1024 * 1024);
    expect(10 ** MAX_CONTENT_LENGTH_DIGITS).toBeGreaterThan(128 * 1024);
    const [[, assoc]] = resourcesOfType(s, 'AWS::WAFv2::WebACLAssociation') as [[string, any]];
    expect(assoc.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    expect(JSON.stringify(assoc.Properties.ResourceArn)).toContain(id(s.stack.api.deploymentStage));
  });

  test('-c wafIpRateLimit adds the per-IP rate-based rule (429 THROTTLED in the error shape), the documented option for prod', () => {
    const withRate = synth(stage, { wafIpRateLimit: 2000 });
    const [[, acl]] = resourcesOfType(withRate, 'AWS::WAFv2::WebACL') as [[string, any]];
    const rule = acl.Properties.Rules.find((r: any) => r.Name === 'RatePerIp');
    expect(rule.Statement).toEqual({ RateBasedStatement: { Limit: 2000, AggregateKeyType: 'IP', EvaluationWindowSec: 300 } });
    expect(rule.Action.Block.CustomResponse).toEqual(expect.objectContaining({ ResponseCode: 429, CustomResponseBodyKey: 'Throttled' }));
    expect(JSON.parse(acl.Properties.CustomResponseBodies.Throttled.Content).error.code).toBe('THROTTLED');
  });

  test('webhook concurrency: the SQS trigger has a maximum concurrency; in prod sender and dispatcher have reserved concurrency', () => {
    const w = s.stack.webhooks;
    const mappings = resourcesOfType(s, 'AWS::Lambda::EventSourceMapping').map(([, m]) => m.Properties!);
    const fromQueue = mappings.find((m) => m.FunctionName?.Ref === id(w.sender.fn))!;
    expect(fromQueue.ScalingConfig).toEqual({ MaximumConcurrency: config.webhookConcurrency.senderMaxConcurrency });
    const reserved = (f: typeof w.sender) => s.json.Resources[id(f.fn)]!.Properties!.ReservedConcurrentExecutions as number | undefined;
    expect(reserved(w.sender)).toBe(config.webhookConcurrency.senderReserved);
    expect(reserved(w.dispatcher)).toBe(config.webhookConcurrency.dispatcherReserved);
    if (stage === 'prod') {
      expect([reserved(w.sender), reserved(w.dispatcher), fromQueue.ScalingConfig.MaximumConcurrency]).toEqual([50, 10, 50]);
      // the cap never exceeds what is reserved (messages would be throttled back into the queue otherwise)
      expect(fromQueue.ScalingConfig.MaximumConcurrency).toBeLessThanOrEqual(reserved(w.sender)!);
    } else {
      expect([reserved(w.sender), reserved(w.dispatcher), fromQueue.ScalingConfig.MaximumConcurrency]).toEqual([undefined, undefined, 5]);
    }
    // No API function has reserved concurrency: they share the rest of the account's.
    const reservedFns = resourcesOfType(s, 'AWS::Lambda::Function').filter(([, f]) => f.Properties!.ReservedConcurrentExecutions !== undefined);
    expect(reservedFns.map(([fid]) => fid).sort()).toEqual(stage === 'prod' ? [id(w.dispatcher.fn), id(w.sender.fn)].sort() : []);
  });

  test('the public routes have their own method throttling, smaller than the stage throttle', () => {
    const [[, st]] = resourcesOfType(s, 'AWS::ApiGateway::Stage') as [[string, any]];
    const settings = st.Properties.MethodSettings as Array<Record<string, unknown>>;
    expect(PUBLIC_ROUTES.map((r) => `${r.method} ${r.path}`).sort()).toEqual(['GET /v1/docs', 'GET /v1/docs/redoc.standalone.js', 'GET /v1/openapi.json']);
    for (const r of PUBLIC_ROUTES) {
      const m = settings.find((x) => x.HttpMethod === r.method && x.ResourcePath === `/${r.path.replace(/\//g, '~1')}`);
      expect(m).toEqual(expect.objectContaining({ ThrottlingRateLimit: config.publicThrottling.rateLimit, ThrottlingBurstLimit: config.publicThrottling.burstLimit }));
    }
    expect(config.publicThrottling.rateLimit).toBeLessThan(config.throttling.rateLimit);
    expect(settings).toHaveLength(PUBLIC_ROUTES.length + 1);
  });

  test('the access log has no User-Agent, and every value is a quoted variable a caller cannot break out of', () => {
    const [[, st]] = resourcesOfType(s, 'AWS::ApiGateway::Stage') as [[string, any]];
    const format: string = st.Properties.AccessLogSetting.Format;
    expect(format).not.toContain('userAgent');
    expect(Object.values(ACCESS_LOG_FIELDS)).not.toContain('$context.identity.userAgent');
    // Each value is "$context.x" (quoted, from values API Gateway makes or validates) or the pre-quoted messageString.
    const values = [...format.matchAll(/":(\$context\.[A-Za-z.]+|"\$context\.[A-Za-z.]+")/g)].map((m) => m[1]);
    expect(values).toHaveLength(Object.keys(ACCESS_LOG_FIELDS).length);
    for (const v of values) expect(v === '$context.error.messageString' || /^"\$context\.[A-Za-z.]+"$/.test(v!)).toBe(true);
    // Even a User-Agent full of quotes leaves the line parseable with the same fields (it is not in it).
    const line = format.replace(/\$context\.error\.messageString/g, '"m"').replace(/\$context\.[A-Za-z.]+/g, 'v');
    expect(Object.keys(JSON.parse(line))).toEqual(Object.keys(ACCESS_LOG_FIELDS));
  });

  test("API Gateway's execution-log group is created by the stack, with the stage's retention, before the stage", () => {
    const lg = s.json.Resources[id(s.stack.executionLogGroup)]!;
    expect(lg.Properties!.RetentionInDays).toBe(stage === 'prod' ? 90 : 7);
    expect(JSON.stringify(lg.Properties!.LogGroupName)).toContain('API-Gateway-Execution-Logs_');
    expect(JSON.stringify(lg.Properties!.LogGroupName)).toContain(`/${stage}`);
    const stageRes = s.json.Resources[id(s.stack.api.deploymentStage)] as { DependsOn?: string[] };
    expect(stageRes.DependsOn).toContain(id(s.stack.executionLogGroup));
  });

  test('removal: prod retains the queues (dead letters included), the secrets, the table and every log group; dev destroys them', () => {
    const want = stage === 'prod' ? 'Retain' : 'Delete';
    for (const type of ['AWS::SQS::Queue', 'AWS::SecretsManager::Secret', 'AWS::Logs::LogGroup', 'AWS::DynamoDB::Table']) {
      const all = resourcesOfType(s, type);
      expect(all.length).toBeGreaterThan(0);
      for (const [, r] of all) expect([type, r.DeletionPolicy, r.UpdateReplacePolicy]).toEqual([type, want, want]);
    }
    expect(resourcesOfType(s, 'AWS::SQS::Queue')).toHaveLength(3);
  });
});
