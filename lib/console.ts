import { keys } from '../shared/data/keys';
import { Aws, CfnOutput, Duration, Fn, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { consolePathTemplates } from '../shared/console/routes';
import { functionOf, type ConsoleFunctionName } from '../shared/console/route-table';
import type { StageConfig } from './config';
import type { GatewayEdgeMethods } from './gateway-responses';
import { ServiceFunction } from './service-function';

/** The console authorizer's cache (identity source: Authorization): at most 60 s, as issue 23 asks. */
export const CONSOLE_AUTHORIZER_CACHE_TTL = Duration.seconds(60);
/** The API key authorizer's cache, which the page states (changes reach the gateway within it). */
const API_KEY_CACHE_SECONDS = 300;
/** The ID and access tokens' validity, and the oldest `iat` the verifier accepts. */
export const CONSOLE_TOKEN_VALIDITY = Duration.minutes(15);

/**
 * The console function's assets, built next to its bundle (local/console-assets.ts, as `npm start` builds
 * them): the page's script and style, and the console API's OpenAPI document, which the function serves as a
 * file so that it carries neither the document's builder nor zod's JSON Schema generator (issue 35).
 */
export const consoleAssetCommands = (inputDir: string, outputDir: string): string[] => [`"${inputDir}/node_modules/.bin/tsx" "${inputDir}/local/console-assets.ts" "${outputDir}"`];

export interface ConsoleProps {
  config: StageConfig;
  api: apigw.RestApi;
  /** OPTIONS and ANY on every path, as /v1's (lib/gateway-responses.ts). */
  edge: GatewayEdgeMethods;
  table: dynamodb.Table;
  cursorSecret: secretsmanager.ISecret;
}

/**
 * The console in AWS: a Cognito user pool (no self sign-up, e-mail as user name, a strong password policy,
 * TOTP MFA optional in dev and required in prod), its domain with managed login, a public app client
 * (authorization code + PKCE, no secret) whose callback and sign-out URLs are the console's; the console
 * function (page, assets, console API), the invoice PDF's function, and their own REQUEST authorizer on the Authorization header, which
 * verifies the person's ID token with the same code as the local run (shared/console/token.ts). Every
 * console route comes from the console route table (shared/console/routes.ts). Every console path also has
 * /v1's OPTIONS (the CORS preflight, no token) and ANY (501 NOT_IMPLEMENTED for a method it does not offer,
 * behind the console authorizer), as the local gateway answers them.
 */
export class Console extends Construct {
  readonly userPool: cognito.UserPool;
  readonly client: cognito.UserPoolClient;
  readonly domain: cognito.UserPoolDomain;
  readonly fn: ServiceFunction;
  /** The invoice PDF's function (GET .../invoices/{invoiceId}/pdf): pdf-lib and its fonts are bundled there only. */
  readonly pdfFn: ServiceFunction;
  /** The API-key writes (create, edit, roll, revoke): the only console role that may write key items. */
  readonly keysFn: ServiceFunction;
  readonly authorizerFn: ServiceFunction;
  readonly authorizer: apigw.RequestAuthorizer;
  readonly consoleUrl: string;

  constructor(scope: Construct, id: string, props: ConsoleProps) {
    super(scope, id);
    const { config, api } = props;
    const prod = config.stage === 'prod';

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      userPoolName: `time-tracking-${config.stage}-console`,
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: false } },
      passwordPolicy: { minLength: 14, requireLowercase: true, requireUppercase: true, requireDigits: true, requireSymbols: true, tempPasswordValidity: Duration.days(3) },
      mfa: prod ? cognito.Mfa.REQUIRED : cognito.Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      userInvitation: {
        emailSubject: 'Your time-tracking console account',
        emailBody: 'You were added to a workspace of the time-tracking console. User name: {username}  Temporary password: {####}',
      },
      featurePlan: cognito.FeaturePlan.ESSENTIALS,
      // Production e-mail through Amazon SES (Cognito's own sender has a daily quota AWS calls too low for production).
      ...(config.cognitoEmail.sesFromAddress
        ? { email: cognito.UserPoolEmail.withSES({ fromEmail: config.cognitoEmail.sesFromAddress, fromName: 'Time-tracking console', sesRegion: Aws.REGION }) }
        : {}),
      deletionProtection: prod,
      removalPolicy: config.removalPolicy,
    });
    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG8',
      reason:
        'The Essentials feature plan, not Plus: threat protection (advanced security) needs Plus, billed per monthly active user; accounts are created only by operators (no self sign-up), passwords are long and MFA is TOTP. Switch featurePlan to PLUS when the risk warrants the cost.',
    });
    if (!prod) {
      Validations.of(this.userPool).acknowledge({
        id: 'AwsSolutions-COG2',
        reason: 'TOTP MFA is optional in the dev stage (people enrol in managed login) and required in prod (stage configuration); dev holds no customer data.',
      });
    }

    this.domain = this.userPool.addDomain('Domain', {
      cognitoDomain: { domainPrefix: Fn.join('-', ['time-tracking', config.stage, Aws.ACCOUNT_ID]) },
      managedLoginVersion: cognito.ManagedLoginVersion.NEWER_MANAGED_LOGIN,
    });

    // The console's URL from the API's id (not api.url, which depends on the deployment and so on this client).
    this.consoleUrl = Fn.join('', ['https://', api.restApiId, '.execute-api.', Aws.REGION, '.', Aws.URL_SUFFIX, `/${config.stage}/console`]);
    this.client = this.userPool.addClient('ConsoleClient', {
      userPoolClientName: 'console',
      generateSecret: false,
      // A public client of a browser page: the code flow through managed login only; of the SDK's flows, refresh
      // tokens only (no SRP, password, admin password, choice-based or custom auth against this client).
      authFlows: { userSrp: false, userPassword: false, adminUserPassword: false, custom: false, user: false },
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL],
        callbackUrls: [this.consoleUrl],
        logoutUrls: [this.consoleUrl],
      },
      supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      // Short-lived bearer tokens: the page renews them with prompt=none against the managed-login session
      // (the console page); the verifier also refuses an iat older than this (CONSOLE_TOKEN_MAX_AGE_SECONDS).
      idTokenValidity: CONSOLE_TOKEN_VALIDITY,
      accessTokenValidity: CONSOLE_TOKEN_VALIDITY,
      // The shortest Cognito allows: the page does not keep refresh tokens.
      refreshTokenValidity: Duration.minutes(60),
      enableTokenRevocation: true,
    });
    new cognito.CfnManagedLoginBranding(this, 'ManagedLoginBranding', {
      userPoolId: this.userPool.userPoolId,
      clientId: this.client.userPoolClientId,
      useCognitoProvidedValues: true,
    });

    const issuer = Fn.join('', ['https://cognito-idp.', Aws.REGION, '.', Aws.URL_SUFFIX, '/', this.userPool.userPoolId]);
    const tokenEnv = { CONSOLE_ISSUER: issuer, CONSOLE_CLIENT_ID: this.client.userPoolClientId, CONSOLE_TOKEN_MAX_AGE_SECONDS: String(CONSOLE_TOKEN_VALIDITY.toSeconds()) };

    this.fn = new ServiceFunction(this, 'Fn-console', {
      name: 'console',
      config,
      tableName: props.table.tableName,
      description: `time-tracking ${config.stage}: the console (GET /console, /console/api/...)`,
      environment: {
        ...tokenEnv,
        // The page's CSP allows it next to the issuer: the pool domain serves authorize, token and logout.
        CONSOLE_AUTH_ORIGIN: this.domain.baseUrl(),
        CONSOLE_LOGOUT_URL: Fn.join('', [this.domain.baseUrl(), '/logout?client_id=', this.client.userPoolClientId, '&logout_uri=', this.consoleUrl]),
        API_KEY_CACHE_SECONDS: String(API_KEY_CACHE_SECONDS),
        CURSOR_SECRET_ARN: props.cursorSecret.secretArn,
        // issue 36: members added in the console are invited by the pool
        USER_POOL_ID: this.userPool.userPoolId,
      },
      afterBundling: consoleAssetCommands,
    });
    // Members, audit entries, counters, invoices (WS#), the rate counter, a person's memberships (PERSON# on
    // GSI1), invoice jobs: read and write, no Scan. Key items: read only (a key by id on GSI2); their writes are
    // the keys function's alone.
    this.fn.bindTable(props.table, {
      kind: 'readWrite',
      leadingKeys: [keys.workspacePartition('*'), keys.rateCounter('*', '').PK, keys.memberByPersonPartition('*')],
    });
    // key items read only: by id (GSI2 APIKEYID#, then the item APIKEY#<hash>), for a webhook's key and the audit log's names
    this.fn.bindTable(props.table, { kind: 'read', leadingKeys: [keys.apiKey('*').PK, keys.apiKeyById('*').GSI2PK] });
    props.cursorSecret.grantRead(this.fn.role);
    // issue 36: POST .../members invites the person (AdminCreateUser on this pool only)
    this.userPool.grant(this.fn.role, 'cognito-idp:AdminCreateUser');

    this.keysFn = new ServiceFunction(this, 'Fn-console-keys', {
      name: 'console-keys',
      config,
      tableName: props.table.tableName,
      description: `time-tracking ${config.stage}: the console's API-key writes (create, edit, roll, revoke)`,
      environment: { API_KEY_CACHE_SECONDS: String(API_KEY_CACHE_SECONDS) },
    });
    // The only console role that may write key items (APIKEY#<hash>, APIKEYID#<id> on GSI2), with the
    // membership, audit entries and the key counter (WS#) and the per-person rate counter.
    this.keysFn.bindTable(props.table, {
      kind: 'readWrite',
      leadingKeys: [keys.workspacePartition('*'), keys.rateCounter('*', '').PK, keys.apiKey('*').PK, keys.apiKeyById('*').GSI2PK],
    });

    this.pdfFn = new ServiceFunction(this, 'Fn-console-invoice-pdf', {
      name: 'console-invoice-pdf',
      config,
      tableName: props.table.tableName,
      description: `time-tracking ${config.stage}: the console's invoice PDF (GET /console/api/workspaces/{workspaceId}/invoices/{invoiceId}/pdf)`,
    });
    // The membership, the invoice and its client (GetItem in WS#); the only write is the per-person rate counter.
    this.pdfFn.bindTable(props.table, { kind: 'items', actions: ['dynamodb:GetItem'], leadingKeys: [keys.workspacePartition('*')] });
    this.pdfFn.bindTable(props.table, { kind: 'items', actions: ['dynamodb:UpdateItem'], leadingKeys: [keys.rateCounter('*', '').PK] });

    this.authorizerFn = new ServiceFunction(this, 'Fn-console-authorizer', {
      name: 'console-authorizer',
      config,
      tableName: props.table.tableName,
      memorySize: 256,
      timeout: Duration.seconds(5),
      description: `time-tracking ${config.stage}: REQUEST authorizer verifying the console's ID tokens`,
      environment: tokenEnv,
    });
    // No table access at all: it verifies a signature against the user pool's public JWKS.

    this.authorizer = new apigw.RequestAuthorizer(this, 'ConsoleAuthorizer', {
      authorizerName: `time-tracking-${config.stage}-console`,
      handler: this.authorizerFn.fn,
      identitySources: [apigw.IdentitySource.header('Authorization')],
      resultsCacheTtl: CONSOLE_AUTHORIZER_CACHE_TTL,
    });

    const integrations: Record<ConsoleFunctionName, apigw.LambdaIntegration> = {
      console: new apigw.LambdaIntegration(this.fn.fn, { proxy: true, scopePermissionToMethod: false }),
      'console-invoice-pdf': new apigw.LambdaIntegration(this.pdfFn.fn, { proxy: true, scopePermissionToMethod: false }),
      'console-keys': new apigw.LambdaIntegration(this.keysFn.fn, { proxy: true, scopePermissionToMethod: false }),
    };
    for (const [template, routes] of consolePathTemplates()) {
      const resource = api.root.resourceForPath(template);
      const pathParams = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const requestParameters = Object.fromEntries(pathParams.map((p) => [`method.request.path.${p}`, true]));
      for (const route of routes) {
        const isPublic = route.access === null;
        const method = resource.addMethod(route.method, integrations[functionOf(route)], {
          operationName: route.id,
          requestParameters,
          ...(isPublic ? { authorizationType: apigw.AuthorizationType.NONE } : { authorizer: this.authorizer, authorizationType: apigw.AuthorizationType.CUSTOM }),
        });
        Validations.of(method).acknowledge(
          isPublic
            ? { id: 'AwsSolutions-COG4', reason: `${route.method} ${route.path} is the console's public page, asset or document: it must load before anyone signs in.` }
            : {
                id: 'AwsSolutions-COG4',
                reason: `${route.method} ${route.path} is behind the console's Lambda REQUEST authorizer, which verifies the Cognito ID token (signature against the pool's JWKS, issuer, audience, expiry, token_use) with the same code as the local run.`,
              },
          ...(isPublic ? [{ id: 'AwsSolutions-APIG4', reason: `${route.method} ${route.path} is public by design: the console page and its assets load before sign-in.` }] : []),
        );
      }
      props.edge.addTo(resource, template, { authorizer: this.authorizer, credential: "the person's token (Authorization)", requestParameters });
    }

    new CfnOutput(this, 'ConsoleUrl', { value: this.consoleUrl, description: 'The console (sign in with an account the admin CLI created)' }).overrideLogicalId('ConsoleUrl');
    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId, description: 'USER_POOL_ID for the admin CLI (members add)' }).overrideLogicalId('UserPoolId');
    new CfnOutput(this, 'ConsoleClientId', { value: this.client.userPoolClientId }).overrideLogicalId('ConsoleClientId');
  }
}
