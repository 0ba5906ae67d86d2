import { consolePathTemplates, consoleRouteList } from '../../shared/console/routes';
import { Match } from 'aws-cdk-lib/assertions';
import { ERROR_STATUS, UNAUTHORIZED_MESSAGE } from '../../shared/api/errors';
import { FUNCTION_NAMES, RESOURCES, pathTemplates, routeList } from '../../shared/api/routes';
import { ACCESS_LOG_FIELDS } from '../../lib/time-tracking-stack';
import { stageConfigFromContext } from '../../lib/config';
import { API_FUNCTIONS_BEYOND_ENTITIES, methods, resourcesOfType, synth } from './support';

const fillTemplate = (t: string) => t.replace(/\$context\.error\.messageString/g, '"some message"').replace(/\$context\.[A-Za-z.]+/g, 'x');

describe.each(['dev', 'prod'] as const)('REST API (%s)', (stage) => {
  const s = synth(stage);
  const authorizerId = s.logicalId(s.stack.node.findChild('ApiKeyAuthorizer'));

  test('REQUEST authorizer on the X-API-Key header, results cached 300 s, backed by the authorizer function', () => {
    // this one and the console's (test/cdk/console.test.ts)
    s.template.resourceCountIs('AWS::ApiGateway::Authorizer', 2);
    s.template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.X-API-Key',
      AuthorizerResultTtlInSeconds: 300,
    });
    const uri = JSON.stringify(s.json.Resources[authorizerId]!.Properties!.AuthorizerUri);
    expect(uri).toContain(s.logicalId(s.stack.authorizerFunction.fn));
  });

  test('every route of routeList is a method on its /v1 path, proxied to its resource function', () => {
    const rows = methods(s);
    for (const route of routeList) {
      const row = rows.find((r) => r.path === route.path && r.method === route.method);
      expect(row).toBeDefined();
      expect(row!.integration.Type).toBe('AWS_PROXY');
      expect(JSON.stringify(row!.integration.Uri)).toContain(s.logicalId(s.stack.functions[route.resource].fn));
    }
  });

  test('the public routes have no authorizer; every other route uses the REQUEST authorizer', () => {
    const rows = methods(s);
    const publicRoutes = routeList.filter((r) => r.scope === null);
    expect(publicRoutes.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/openapi.json', 'GET /v1/docs', 'GET /v1/docs/redoc.standalone.js']);
    for (const route of routeList) {
      const row = rows.find((r) => r.path === route.path && r.method === route.method)!;
      if (route.scope === null) {
        expect(row.authorizationType).toBe('NONE');
        expect(row.authorizerId).toBeUndefined();
      } else {
        expect(row.authorizationType).toBe('CUSTOM');
        expect(row.authorizerId).toBe(authorizerId);
      }
    }
  });

  test('every path template has an ANY method behind the authorizer answering 501 NOT_IMPLEMENTED in the error body', () => {
    const rows = methods(s);
    for (const path of pathTemplates().keys()) {
      const any = rows.find((r) => r.path === path && r.method === 'ANY');
      expect(any).toBeDefined();
      expect(any!.authorizationType).toBe('CUSTOM');
      expect(any!.authorizerId).toBe(authorizerId);
      expect(any!.integration.Type).toBe('MOCK');
      expect(any!.integration.PassthroughBehavior).toBe('NEVER');
      expect(JSON.parse(any!.integration.RequestTemplates['application/json'])).toEqual({ statusCode: 501 });
      const [response] = any!.integration.IntegrationResponses;
      expect(response.StatusCode).toBe('501');
      const body = JSON.parse(fillTemplate(response.ResponseTemplates['application/json']));
      expect(body.error.code).toBe('NOT_IMPLEMENTED');
      expect(typeof body.error.message).toBe('string');
    }
  });

  test('no other methods and no other paths than the route table declares', () => {
    const rows = methods(s);
    const expected = new Set([
      ...routeList.map((r) => `${r.method} ${r.path}`),
      ...[...pathTemplates().keys()].flatMap((p) => [`ANY ${p}`, `OPTIONS ${p}`]),
      // the console's, from its own route table (lib/console.ts), with the same ANY and OPTIONS per path
      ...consoleRouteList.map((r) => `${r.method} ${r.path}`),
      ...[...consolePathTemplates().keys()].flatMap((p) => [`ANY ${p}`, `OPTIONS ${p}`]),
    ]);
    expect(new Set(rows.map((r) => `${r.method} ${r.path}`))).toEqual(expected);
    expect(rows).toHaveLength(expected.size);
  });

  test('Gateway Responses use the error body {"error":{"code","message","requestId"}}', () => {
    const expected: Record<string, { status?: string; code: string; message?: string }> = {
      UNAUTHORIZED: { status: '401', code: 'UNAUTHORIZED', message: UNAUTHORIZED_MESSAGE },
      ACCESS_DENIED: { status: '403', code: 'FORBIDDEN' },
      MISSING_AUTHENTICATION_TOKEN: { status: '404', code: 'NOT_FOUND', message: 'Route not found' },
      AUTHORIZER_FAILURE: { status: '500', code: 'INTERNAL_ERROR' },
      AUTHORIZER_CONFIGURATION_ERROR: { status: '503', code: 'SERVICE_UNAVAILABLE' },
      REQUEST_TOO_LARGE: { status: String(ERROR_STATUS.PAYLOAD_TOO_LARGE), code: 'PAYLOAD_TOO_LARGE' },
      THROTTLED: { status: '429', code: 'THROTTLED' },
      DEFAULT_4XX: { code: 'VALIDATION_ERROR', message: 'some message' },
      DEFAULT_5XX: { code: 'INTERNAL_ERROR' },
    };
    const responses = new Map(resourcesOfType(s, 'AWS::ApiGateway::GatewayResponse').map(([, r]) => [r.Properties!.ResponseType as string, r.Properties!]));
    for (const [type, want] of Object.entries(expected)) {
      const r = responses.get(type);
      expect(r).toBeDefined();
      expect(r!.StatusCode).toBe(want.status);
      expect(r!.ResponseParameters['gatewayresponse.header.Content-Type']).toBe("'application/json'");
      const raw: string = r!.ResponseTemplates['application/json'];
      expect(raw).toContain('$context.requestId');
      const body = JSON.parse(fillTemplate(raw));
      expect(Object.keys(body)).toEqual(['error']);
      expect(body.error.code).toBe(want.code);
      expect(typeof body.error.message).toBe('string');
      if (want.message) expect(body.error.message).toBe(want.message);
    }
    expect(responses.get('THROTTLED')!.ResponseParameters['gatewayresponse.header.Retry-After']).toBe("'1'");
  });

  test('stage: JSON access logs to a log group with the stage retention, errors-only execution logs, no data trace, throttling', () => {
    const [[, stageRes]] = resourcesOfType(s, 'AWS::ApiGateway::Stage') as [[string, any]];
    const p = stageRes.Properties;
    expect(p.StageName).toBe(stage);
    expect(p.AccessLogSetting.DestinationArn['Fn::GetAtt'][0]).toBe(s.logicalId(s.stack.accessLogGroup));
    const line = JSON.parse(fillTemplate(p.AccessLogSetting.Format));
    expect(Object.keys(line)).toEqual(Object.keys(ACCESS_LOG_FIELDS));
    for (const k of ['requestId', 'ip', 'httpMethod', 'resourcePath', 'status', 'responseLatency', 'integrationLatency', 'errorResponseType', 'authorizerError', 'keyId']) {
      expect(line).toHaveProperty(k);
    }
    // The API key never reaches any log: no header of the request is logged.
    expect(p.AccessLogSetting.Format).not.toMatch(/X-API-Key|header/i);
    expect(p.MethodSettings).toEqual(expect.arrayContaining([expect.objectContaining({ HttpMethod: '*', ResourcePath: '/*', LoggingLevel: 'ERROR', DataTraceEnabled: false })]));
    for (const m of p.MethodSettings) expect([m.LoggingLevel, m.DataTraceEnabled]).toEqual(['ERROR', false]);
    s.template.hasResourceProperties('AWS::Logs::LogGroup', { LogGroupName: `/time-tracking/${stage}/api-access`, RetentionInDays: Match.anyValue() });
  });

  test('stage throttling comes from the stage configuration', () => {
    const want = stage === 'prod' ? { ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 } : { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 };
    s.template.hasResourceProperties('AWS::ApiGateway::Stage', { MethodSettings: Match.arrayWith([Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', ...want })]) });
  });

  test('one invoke permission per function for the whole API (not one per method)', () => {
    const all = resourcesOfType(s, 'AWS::Lambda::Permission');
    // API Gateway's: the functions behind the API (resources, openapi, changes, reports) + the authorizer's
    // permission, + the console function, the invoice PDF's function, the key writes' function (issue 33) and the
    // console authorizer
    const perms = all.filter(([, p]) => p.Properties!.Principal === 'apigateway.amazonaws.com');
    expect(perms).toHaveLength(FUNCTION_NAMES.length + 5);
    // the one other: the invoice sweep's schedule (EventBridge invokes it, issue 32)
    expect(all.filter(([, p]) => p.Properties!.Principal !== 'apigateway.amazonaws.com').map(([, p]) => p.Properties!.Principal)).toEqual(['events.amazonaws.com']);
    expect(FUNCTION_NAMES).toHaveLength(RESOURCES.length + API_FUNCTIONS_BEYOND_ENTITIES.length);
  });

  test('CORS preflight: an OPTIONS mock on every path of the route table, no authorizer, 204 with the allowed origin, methods and headers', () => {
    const rows = methods(s);
    for (const path of pathTemplates().keys()) {
      const options = rows.find((r) => r.path === path && r.method === 'OPTIONS');
      expect([path, options?.authorizationType, options?.integration.Type]).toEqual([path, 'NONE', 'MOCK']);
      const [response] = options!.integration.IntegrationResponses;
      expect(response.StatusCode).toBe('204');
      expect(response.ResponseParameters).toEqual({
        'method.response.header.Access-Control-Allow-Origin': "'*'",
        'method.response.header.Access-Control-Allow-Methods': "'GET,POST,PUT,DELETE,OPTIONS'",
        'method.response.header.Access-Control-Allow-Headers': "'X-API-Key,Content-Type,If-Match,If-None-Match,Idempotency-Key'",
        'method.response.header.Access-Control-Max-Age': "'600'",
      });
    }
  });

  test("the gateway's own answers carry CORS: every Gateway Response and the 501 mock", () => {
    const exposed = "'RateLimit, RateLimit-Policy, Retry-After, ETag, Location, Idempotent-Replayed, Next-Cursor, X-Request-Id, x-amzn-RequestId'";
    const responses = resourcesOfType(s, 'AWS::ApiGateway::GatewayResponse').map(([, r]) => r.Properties!);
    expect(responses.length).toBeGreaterThanOrEqual(9);
    for (const r of responses) {
      expect([r.ResponseType, r.ResponseParameters['gatewayresponse.header.Access-Control-Allow-Origin']]).toEqual([r.ResponseType, "'*'"]);
      expect(r.ResponseParameters['gatewayresponse.header.Access-Control-Expose-Headers']).toBe(exposed);
    }
    const any = methods(s).find((r) => r.path === '/v1/clients' && r.method === 'ANY')!;
    expect(any.integration.IntegrationResponses[0].ResponseParameters['method.response.header.Access-Control-Allow-Origin']).toBe("'*'");
    expect(any.integration.IntegrationResponses[0].ResponseParameters['method.response.header.Access-Control-Expose-Headers']).toBe(exposed);
  });

  test('ApiUrl and TableName outputs', () => {
    s.template.hasOutput('ApiUrl', {});
    s.template.hasOutput('TableName', { Value: { Ref: s.logicalId(s.stack.table) } });
  });
});

describe('CORS with configured origins (-c corsOrigins / CORS_ORIGINS)', () => {
  test('several origins: the preflight answers a listed Origin, the gateway answers echo the Origin, functions get the list', () => {
    const s = synth('dev', { corsOrigins: ['https://app.example.com', 'https://admin.example.com'] });
    const rows = methods(s);
    const options = rows.find((r) => r.path === '/v1/clients' && r.method === 'OPTIONS')!;
    const [response] = options.integration.IntegrationResponses;
    expect(response.ResponseParameters['method.response.header.Access-Control-Allow-Origin']).toBe("'https://app.example.com'");
    expect(response.ResponseParameters['method.response.header.Vary']).toBe("'Origin'");
    expect(response.ResponseTemplates['application/json']).toContain('$origin == "https://admin.example.com"');
    for (const [, r] of resourcesOfType(s, 'AWS::ApiGateway::GatewayResponse')) {
      expect(r.Properties!.ResponseParameters['gatewayresponse.header.Access-Control-Allow-Origin']).toBe('method.request.header.Origin');
    }
    const any = rows.find((r) => r.path === '/v1/clients' && r.method === 'ANY')!;
    expect(any.integration.IntegrationResponses[0].ResponseParameters['method.response.header.Access-Control-Allow-Origin']).toBe('method.request.header.Origin');
    const [, anyMethod] = resourcesOfType(s, 'AWS::ApiGateway::Method').find(
      ([, m]) => m.Properties!.HttpMethod === 'ANY' && m.Properties!.Integration.IntegrationResponses[0].ResponseParameters['method.response.header.Access-Control-Allow-Origin'],
    )!;
    expect(anyMethod.Properties!.RequestParameters['method.request.header.Origin']).toBe(false);
    expect(s.json.Resources[s.logicalId(s.stack.functions.clients.fn)]!.Properties!.Environment.Variables.CORS_ORIGINS).toBe('https://app.example.com,https://admin.example.com');
  });

  test('one origin: that literal in the Gateway Responses', () => {
    const s = synth('dev', { corsOrigins: ['https://app.example.com'] });
    for (const [, r] of resourcesOfType(s, 'AWS::ApiGateway::GatewayResponse')) {
      expect(r.Properties!.ResponseParameters['gatewayresponse.header.Access-Control-Allow-Origin']).toBe("'https://app.example.com'");
    }
  });

  test('the context value is checked: a path is not an origin', () => {
    expect(() => stageConfigFromContext({ stage: 'dev', corsOrigins: 'https://app.example.com/x' })).toThrow(/not an origin/);
    expect(stageConfigFromContext({ stage: 'dev', corsOrigins: 'https://a.example.com, https://b.example.com' }).corsOrigins).toEqual([
      'https://a.example.com',
      'https://b.example.com',
    ]);
    expect(stageConfigFromContext({ stage: 'prod' }).corsOrigins).toEqual(['*']);
  });
});
