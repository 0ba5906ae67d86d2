import { Match } from 'aws-cdk-lib/assertions';
import { CORS, REQUEST_ID_HEADER, preflightResponse } from '../../shared/api/gateway-edge';
import { consolePathTemplates, consoleRouteList } from '../../shared/console/routes';
import { methods as methodRows, type Synth, synth } from './support';

/**
 * How a path answers what it does not route to a function: its OPTIONS and ANY methods, with the path's own
 * parameters taken out (they differ from path to path, the rest must not).
 */
function edgeOf(s: Synth, path: string) {
  const rows = methodRows(s).filter((r) => r.path === path);
  const options = rows.find((r) => r.method === 'OPTIONS');
  const any = rows.find((r) => r.method === 'ANY');
  const withoutPathParams = (params: Record<string, boolean> = {}) => Object.fromEntries(Object.entries(params).filter(([k]) => !k.startsWith('method.request.path.')));
  return {
    options: options && {
      authorizationType: options.authorizationType,
      authorizerId: options.authorizerId,
      integration: options.integration,
      methodResponses: options.properties.MethodResponses,
    },
    any: any && {
      authorizationType: any.authorizationType,
      authorizerId: any.authorizerId,
      integration: any.integration,
      methodResponses: any.properties.MethodResponses,
      headerParams: withoutPathParams(any.properties.RequestParameters),
      pathParams: Object.keys(any.properties.RequestParameters ?? {}).filter((k) => k.startsWith('method.request.path.')),
    },
  };
}

/** The console in the template (lib/console.ts): user pool, domain, client, authorizer, routes, outputs. */
describe.each(['dev', 'prod'] as const)('console (%s)', (stage) => {
  const s = synth(stage);
  const c = s.stack.console;

  test('user pool: no self sign-up, e-mail as user name, strong passwords, TOTP MFA optional in dev and required in prod', () => {
    s.template.resourceCountIs('AWS::Cognito::UserPool', 1);
    s.template.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      MfaConfiguration: stage === 'prod' ? 'ON' : 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      Policies: { PasswordPolicy: Match.objectLike({ MinimumLength: 14, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true }) },
    });
  });

  test('a domain with managed login, and its branding for the client', () => {
    s.template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { ManagedLoginVersion: 2 });
    s.template.resourceCountIs('AWS::Cognito::ManagedLoginBranding', 1);
  });

  test("a public client (no secret): code flow only, openid + email, the console's URL for callback and sign-out", () => {
    const clients = Object.values(s.json.Resources).filter((r) => r.Type === 'AWS::Cognito::UserPoolClient');
    expect(clients).toHaveLength(1);
    const p = clients[0]!.Properties!;
    expect(p.GenerateSecret).toBe(false);
    expect(p.AllowedOAuthFlows).toEqual(['code']);
    expect(p.AllowedOAuthScopes.sort()).toEqual(['email', 'openid']);
    expect(p.AllowedOAuthFlowsUserPoolClient).toBe(true);
    const url = JSON.stringify(p.CallbackURLs);
    expect(url).toContain(`/${stage}/console`);
    expect(url).toContain(s.logicalId(s.stack.api));
    expect(p.LogoutURLs).toEqual(p.CallbackURLs);
    // Refresh tokens only: no SRP, password, admin password, choice-based or custom auth on the public client.
    expect(p.ExplicitAuthFlows).toEqual(['ALLOW_REFRESH_TOKEN_AUTH']);
    // Short-lived tokens (15 minutes), refresh tokens the shortest Cognito allows, revocation on.
    expect([p.IdTokenValidity, p.AccessTokenValidity, p.RefreshTokenValidity]).toEqual([15, 15, 60]);
    expect(p.TokenValidityUnits).toEqual({ IdToken: 'minutes', AccessToken: 'minutes', RefreshToken: 'minutes' });
    expect(p.EnableTokenRevocation).toBe(true);
  });

  test("Cognito's e-mail: through SES from the context's address in prod (-c sesFromAddress), Cognito's default in dev; prod pool retained with deletion protection", () => {
    const [pool] = Object.values(s.json.Resources).filter((r) => r.Type === 'AWS::Cognito::UserPool');
    const email = pool!.Properties!.EmailConfiguration;
    if (stage === 'prod') {
      expect(email).toMatchObject({ EmailSendingAccount: 'DEVELOPER', From: expect.stringContaining('<no-reply@example.com>') });
      expect(JSON.stringify(email.SourceArn)).toContain(':identity/no-reply@example.com');
      const custom = synth('prod', { sesFromAddress: 'console@acme.example' }).json.Resources;
      const p2 = Object.values(custom).find((r) => r.Type === 'AWS::Cognito::UserPool')!.Properties!;
      expect(p2.EmailConfiguration.From).toContain('<console@acme.example>');
      expect([pool!.DeletionPolicy, pool!.UpdateReplacePolicy, pool!.Properties!.DeletionProtection]).toEqual(['Retain', 'Retain', 'ACTIVE']);
    } else {
      expect(email?.EmailSendingAccount ?? 'COGNITO_DEFAULT').toBe('COGNITO_DEFAULT');
      expect(pool!.DeletionPolicy).toBe('Delete');
    }
  });

  test('the authorizer and the console refuse a token older than its validity: CONSOLE_TOKEN_MAX_AGE_SECONDS = 900', () => {
    for (const f of [c.authorizerFn, c.fn]) expect(s.json.Resources[s.logicalId(f.fn)]!.Properties!.Environment.Variables.CONSOLE_TOKEN_MAX_AGE_SECONDS).toBe('900');
  });

  test('the console authorizer: REQUEST on Authorization, cached at most 60 s, backed by its own function with the issuer and client id', () => {
    s.template.hasResourceProperties('AWS::ApiGateway::Authorizer', { Type: 'REQUEST', IdentitySource: 'method.request.header.Authorization', AuthorizerResultTtlInSeconds: 60 });
    const fn = s.json.Resources[s.logicalId(c.authorizerFn.fn)]!;
    expect(Object.keys(fn.Properties!.Environment.Variables)).toEqual(expect.arrayContaining(['CONSOLE_ISSUER', 'CONSOLE_CLIENT_ID']));
    // no table access for the authorizer
    const policies = Object.values(s.json.Resources).filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties!.Roles).includes(s.logicalId(c.authorizerFn.role)));
    expect(JSON.stringify(policies)).not.toContain('dynamodb:');
  });

  test("the page's CSP allows the pool domain (token endpoint) next to the issuer: CONSOLE_AUTH_ORIGIN is the domain's base URL", () => {
    const env = s.json.Resources[s.logicalId(c.fn.fn)]!.Properties!.Environment.Variables;
    expect(env.CONSOLE_AUTH_ORIGIN).toEqual(s.stack.resolve(c.domain.baseUrl()));
    expect(JSON.stringify(env.CONSOLE_AUTH_ORIGIN)).toContain('.amazoncognito.com');
    expect(JSON.stringify(env.CONSOLE_ISSUER)).toContain('https://cognito-idp.');
  });

  test('every console route is a method: the public ones without auth, the API behind the console authorizer', () => {
    const authorizerId = s.logicalId(c.authorizer);
    const methods = Object.values(s.json.Resources).filter((r) => r.Type === 'AWS::ApiGateway::Method' && consoleRouteList.some((x) => x.id === r.Properties!.OperationName));
    expect(methods).toHaveLength(consoleRouteList.length);
    for (const route of consoleRouteList) {
      const m = methods.find((x) => x.Properties!.OperationName === route.id)!;
      expect(m.Properties!.HttpMethod).toBe(route.method);
      if (route.access === null) expect(m.Properties!.AuthorizationType).toBe('NONE');
      else expect([route.id, m.Properties!.AuthorizationType, m.Properties!.AuthorizerId]).toEqual([route.id, 'CUSTOM', { Ref: authorizerId }]);
    }
  });

  test('each console method is integrated with the function its route names: the invoice PDF with console-invoice-pdf (same authorizer), every other route with the console function', () => {
    const methods = Object.values(s.json.Resources).filter((r) => r.Type === 'AWS::ApiGateway::Method' && consoleRouteList.some((x) => x.id === r.Properties!.OperationName));
    const fnOf = (id: string) => {
      const uri = JSON.stringify(methods.find((m) => m.Properties!.OperationName === id)!.Properties!.Integration.Uri);
      return [c.fn, c.pdfFn, c.keysFn].filter((f) => uri.includes(s.logicalId(f.fn))).map((f) => f.node.id);
    };
    // The key writes (create, edit, roll, revoke) go to console-keys, the only console role that may write key items.
    expect(consoleRouteList.filter((r) => r.function === 'console-keys').map((r) => r.id)).toEqual([
      'createConsoleApiKey',
      'updateConsoleApiKey',
      'revokeConsoleApiKey',
      'rollConsoleApiKey',
    ]);
    expect(consoleRouteList.filter((r) => r.function === 'console-invoice-pdf').map((r) => [r.id, r.method, r.path])).toEqual([
      ['getConsoleInvoicePdf', 'GET', '/console/api/workspaces/{workspaceId}/invoices/{invoiceId}/pdf'],
    ]);
    for (const route of consoleRouteList) expect([route.id, fnOf(route.id)]).toEqual([route.id, [`Fn-${route.function ?? 'console'}`]]);
    const pdf = methods.find((m) => m.Properties!.OperationName === 'getConsoleInvoicePdf')!;
    expect([pdf.Properties!.AuthorizationType, pdf.Properties!.AuthorizerId]).toEqual(['CUSTOM', { Ref: s.logicalId(c.authorizer) }]);
    // API Gateway may invoke it (one permission per function, not per method)
    const invokers = Object.values(s.json.Resources).filter(
      (r) =>
        r.Type === 'AWS::Lambda::Permission' &&
        JSON.stringify(r.Properties!.FunctionName).includes(s.logicalId(c.pdfFn.fn)) &&
        r.Properties!.Principal === 'apigateway.amazonaws.com',
    );
    expect(invokers).toHaveLength(1);
    const fn = s.json.Resources[s.logicalId(c.pdfFn.fn)]!.Properties!;
    expect(fn.Timeout).toBe(10);
    expect(fn.Environment.Variables.CURSOR_SECRET_ARN).toBeUndefined();
  });

  test('the invoice PDF passes as binary (application/pdf among the binary media types, a route that produces it); the console function keeps its 10 s timeout (invoices are made in steps)', () => {
    s.template.hasResourceProperties('AWS::ApiGateway::RestApi', { BinaryMediaTypes: ['application/pdf'] });
    expect(consoleRouteList.filter((r) => r.produces === 'application/pdf').map((r) => r.id)).toEqual(['getConsoleInvoicePdf']);
    expect(s.json.Resources[s.logicalId(c.fn.fn)]!.Properties!.Timeout).toBe(10);
  });

  test("every console path answers OPTIONS as /v1's paths do: the CORS preflight mock, 204, no authorizer, the local preflight's headers", () => {
    const v1 = edgeOf(s, '/v1/clients').options!;
    expect([v1.authorizationType, v1.authorizerId, v1.integration.Type]).toEqual(['NONE', undefined, 'MOCK']);
    // the local gateway's preflight (shared/api/gateway-edge.ts) for any Origin, request id aside
    const { [REQUEST_ID_HEADER]: _id, ...local } = preflightResponse(['*'], 'https://app.example.com', 'r').headers;
    for (const path of consolePathTemplates().keys()) {
      const options = edgeOf(s, path).options;
      expect([path, options]).toEqual([path, v1]);
      const [response] = options!.integration.IntegrationResponses;
      expect(response.StatusCode).toBe(String(CORS.preflightStatus));
      const deployed = Object.fromEntries(
        Object.entries(response.ResponseParameters as Record<string, string>).map(([k, v]) => [k.replace('method.response.header.', ''), v.replace(/^'|'$/g, '')]),
      );
      expect(deployed).toEqual(local);
    }
  });

  test("every console path has /v1's ANY: methods the path does not offer answer 501 NOT_IMPLEMENTED (the same mock), behind the console authorizer", () => {
    const authorizerId = s.logicalId(c.authorizer);
    const v1 = edgeOf(s, '/v1/clients').any!;
    expect(v1.integration.Type).toBe('MOCK');
    expect(v1.integration.IntegrationResponses[0].StatusCode).toBe('501');
    for (const [path, routes] of consolePathTemplates()) {
      const any = edgeOf(s, path).any;
      expect([path, any?.authorizationType, any?.authorizerId]).toEqual([path, 'CUSTOM', authorizerId]);
      expect([path, any!.integration, any!.methodResponses, any!.headerParams]).toEqual([path, v1.integration, v1.methodResponses, v1.headerParams]);
      // the path's parameters, as its routed methods declare them
      const routed = methodRows(s).find((r) => r.path === path && r.method === routes[0]!.method)!;
      expect(any!.pathParams.sort()).toEqual(Object.keys(routed.properties.RequestParameters ?? {}).sort());
    }
  });

  test("the stack stays within CloudFormation's 500 resources per stack (the console's OPTIONS and ANY methods included)", () => {
    expect(Object.keys(s.json.Resources).length).toBeLessThanOrEqual(500);
  });

  test('outputs ConsoleUrl and UserPoolId', () => {
    expect(Object.keys(s.json.Outputs ?? {})).toEqual(expect.arrayContaining(['ConsoleUrl', 'UserPoolId']));
  });
});

describe('console paths with configured CORS origins (-c corsOrigins)', () => {
  test("several origins: the console's OPTIONS and ANY answer as /v1's (a listed Origin, the request's Origin echoed on the 501)", () => {
    const s = synth('dev', { corsOrigins: ['https://app.example.com', 'https://admin.example.com'] });
    const v1 = edgeOf(s, '/v1/clients');
    expect(v1.any!.headerParams).toEqual({ 'method.request.header.Origin': false });
    expect(v1.options!.integration.IntegrationResponses[0].ResponseParameters['method.response.header.Vary']).toBe("'Origin'");
    for (const path of consolePathTemplates().keys()) {
      const edge = edgeOf(s, path);
      expect([path, edge.options]).toEqual([path, v1.options]);
      expect([path, edge.any!.integration, edge.any!.headerParams]).toEqual([path, v1.any!.integration, v1.any!.headerParams]);
    }
  });
});
