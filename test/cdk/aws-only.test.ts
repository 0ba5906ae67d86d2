import { GATEWAY_ANSWERS, MAX_CONTENT_LENGTH_DIGITS } from '../../shared/api/gateway-edge';
import { stageConfig } from '../../lib/config';
import { ACCESS_LOG_FIELDS, CONSOLE_PUBLIC_ROUTES, PUBLIC_ROUTES } from '../../lib/time-tracking-stack';
import { MANAGED_RULE_GROUPS } from '../../lib/waf';
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

  const firewall = synth(stage, { waf: true }); // dev: only with -c waf=true; prod: always

  test('AWS WAF: prod has the web ACLs; dev none unless -c waf=true (its stage then acknowledged for cdk-nag APIG3)', () => {
    expect(resourcesOfType(s, 'AWS::WAFv2::WebACL')).toHaveLength(stage === 'prod' ? 2 : 0);
    expect(resourcesOfType(firewall, 'AWS::WAFv2::WebACL')).toHaveLength(2);
    expect(resourcesOfType(firewall, 'AWS::WAFv2::WebACLAssociation')).toHaveLength(2);
  });

  test('the API web ACL: 413 for bodies Lambda cannot take (1,000,000 bytes and up), a per-IP rate rule (429), the two managed groups; on the stage', () => {
    const acls = resourcesOfType(firewall, 'AWS::WAFv2::WebACL') as Array<[string, any]>;
    const [aclId, acl] = acls.find(([aid]) => aid === firewall.logicalId(firewall.stack.firewall!.webAcl))!;
    const p = acl.Properties;
    expect([p.Scope, p.DefaultAction]).toEqual(['REGIONAL', { Allow: {} }]);
    expect(p.Rules.map((r: any) => r.Name)).toEqual(['BodyOverLambdaLimit', 'RatePerIp', ...MANAGED_RULE_GROUPS]);
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
    const rate = p.Rules[1];
    expect(rate.Statement).toEqual({ RateBasedStatement: { Limit: config.waf.ipRateLimit, AggregateKeyType: 'IP', EvaluationWindowSec: 300 } });
    expect(rate.Action.Block.CustomResponse).toEqual(expect.objectContaining({ ResponseCode: 429, CustomResponseBodyKey: 'Throttled' }));
    expect(JSON.parse(p.CustomResponseBodies.Throttled.Content).error.code).toBe('THROTTLED');
    for (const [i, group] of MANAGED_RULE_GROUPS.entries()) {
      const r = p.Rules[2 + i];
      expect(r.Statement.ManagedRuleGroupStatement).toMatchObject({ VendorName: 'AWS', Name: group });
      expect(r.OverrideAction).toEqual({ None: {} });
    }
    // The common set's 8 KB body rule counts only: the handlers take up to 128 KB.
    expect(p.Rules[2].Statement.ManagedRuleGroupStatement.RuleActionOverrides).toEqual([{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }]);
    const assoc = (resourcesOfType(firewall, 'AWS::WAFv2::WebACLAssociation') as Array<[string, any]>).find(([, a]) => JSON.stringify(a.Properties.WebACLArn).includes(aclId))!;
    expect(JSON.stringify(assoc[1].Properties.ResourceArn)).toContain(firewall.logicalId(firewall.stack.api.deploymentStage));
  });

  test('the user pool web ACL: the per-IP rate rule and the two managed groups, associated with the user pool; both ACLs log to a retained aws-waf-logs- group', () => {
    const fw = firewall.stack.firewall!;
    const poolAclId = firewall.logicalId(fw.userPoolWebAcl);
    const acl = firewall.json.Resources[poolAclId]!.Properties!;
    expect(acl.Rules.map((r: any) => r.Name)).toEqual(['RatePerIp', ...MANAGED_RULE_GROUPS]);
    expect(acl.Rules[0].Statement.RateBasedStatement).toMatchObject({ Limit: config.waf.ipRateLimit, AggregateKeyType: 'IP' });
    const assoc = (resourcesOfType(firewall, 'AWS::WAFv2::WebACLAssociation') as Array<[string, any]>).find(([, a]) => JSON.stringify(a.Properties.WebACLArn).includes(poolAclId))!;
    expect(assoc[1].Properties.ResourceArn).toEqual({ 'Fn::GetAtt': [firewall.logicalId(firewall.stack.console.userPool), 'Arn'] });
    const logging = resourcesOfType(firewall, 'AWS::WAFv2::LoggingConfiguration').map(([, l]) => JSON.stringify(l.Properties!.ResourceArn));
    expect(logging.sort()).toEqual([poolAclId, firewall.logicalId(fw.webAcl)].map((x) => JSON.stringify({ 'Fn::GetAtt': [x, 'Arn'] })).sort());
    const lg = firewall.json.Resources[firewall.logicalId(fw.logGroup)]!;
    expect(lg.Properties!.LogGroupName).toBe(`aws-waf-logs-time-tracking-${stage}`);
    expect(lg.Properties!.RetentionInDays).toBe(stage === 'prod' ? 90 : 7);
    expect(lg.DeletionPolicy).toBe(stage === 'prod' ? 'Retain' : 'Delete');
  });

  test('-c wafCountOnly=true: the rate rule and the managed groups count instead of blocking; -c wafIpRateLimit sets the limit', () => {
    const counting = synth(stage, { waf: true, wafCountOnly: true, wafIpRateLimit: 500 });
    for (const [, acl] of resourcesOfType(counting, 'AWS::WAFv2::WebACL')) {
      for (const r of acl.Properties!.Rules) {
        if (r.Name === 'RatePerIp') expect([r.Action, r.Statement.RateBasedStatement.Limit]).toEqual([{ Count: {} }, 500]);
        else if (r.Name !== 'BodyOverLambdaLimit') expect(r.OverrideAction).toEqual({ Count: {} });
      }
    }
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
    // No API function has reserved concurrency: they share the rest of the account's. The invoice sweep
    // reserves 1 in both stages (one sweep at a time: its schedule never stacks runs, lib/invoice-sweep.ts).
    const sweep = id(s.stack.invoiceSweep.fn.fn);
    expect(s.json.Resources[sweep]!.Properties!.ReservedConcurrentExecutions).toBe(1);
    const reservedFns = resourcesOfType(s, 'AWS::Lambda::Function').filter(([fid, f]) => fid !== sweep && f.Properties!.ReservedConcurrentExecutions !== undefined);
    expect(reservedFns.map(([fid]) => fid).sort()).toEqual(stage === 'prod' ? [id(w.dispatcher.fn), id(w.sender.fn)].sort() : []);
  });

  test("every public route (the API's and the console's) has its own method throttling, smaller than the stage throttle", () => {
    const [[, st]] = resourcesOfType(s, 'AWS::ApiGateway::Stage') as [[string, any]];
    const settings = st.Properties.MethodSettings as Array<Record<string, unknown>>;
    expect(PUBLIC_ROUTES.map((r) => `${r.method} ${r.path}`).sort()).toEqual(['GET /v1/docs', 'GET /v1/docs/redoc.standalone.js', 'GET /v1/openapi.json']);
    expect(CONSOLE_PUBLIC_ROUTES.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['GET /console', 'GET /console/api/openapi.json', 'GET /console/config.json']),
    );
    for (const r of [...PUBLIC_ROUTES, ...CONSOLE_PUBLIC_ROUTES]) {
      const m = settings.find((x) => x.HttpMethod === r.method && x.ResourcePath === `/${r.path.replace(/\//g, '~1')}`);
      expect(m).toEqual(expect.objectContaining({ ThrottlingRateLimit: config.publicThrottling.rateLimit, ThrottlingBurstLimit: config.publicThrottling.burstLimit }));
    }
    expect(config.publicThrottling.rateLimit).toBeLessThan(config.throttling.rateLimit);
    expect(settings).toHaveLength(PUBLIC_ROUTES.length + CONSOLE_PUBLIC_ROUTES.length + 1);
  });

  test('the access log has no User-Agent, and every value is a quoted variable a caller cannot break out of', () => {
    const [[, st]] = resourcesOfType(s, 'AWS::ApiGateway::Stage') as [[string, any]];
    const format: string = st.Properties.AccessLogSetting.Format;
    expect(format).not.toContain('userAgent');
    // nor the raw request path (unescaped): the route template only
    expect(format).not.toContain('$context.path');
    expect(format).toContain('"$context.resourcePath"');
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
