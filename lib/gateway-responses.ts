import { Duration, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { CORS, GATEWAY_ANSWERS, gatewayAnswerList, gatewayAnswerTemplate, gatewayCorsOrigin, type GatewayAnswer } from '../shared/api/gateway-edge';

/**
 * The answers API Gateway itself gives, as Gateway Responses and the 501 mock template: only a mapping of
 * the table in shared/api/gateway-edge.ts (status, code, message, headers), which the local gateway and
 * the OpenAPI document use too.
 */

/** API Gateway's response type of that name (a name the CDK does not know fails the synth). */
function responseTypeOf(name: string): apigw.ResponseType {
  const type: unknown = Reflect.get(apigw.ResponseType, name);
  if (!(type instanceof apigw.ResponseType)) throw new Error(`Unknown API Gateway response type: ${name}`);
  return type;
}

/** Header values of a gateway or integration response are quoted literals. */
const quotedHeaders = (answer: GatewayAnswer): Record<string, string> => Object.fromEntries(Object.entries(answer.headers).map(([name, value]) => [name, `'${value}'`]));

/**
 * The CORS headers of the gateway's own answers (shared/api/gateway-edge.ts, gatewayCorsOrigin): a quoted
 * literal, or the request's Origin header (a mapping from method.request.header.Origin) with several origins.
 */
export function gatewayCorsHeaders(origins: readonly string[]): Record<string, string> {
  const o = gatewayCorsOrigin(origins);
  return {
    'Access-Control-Allow-Origin': 'literal' in o ? `'${o.literal}'` : `method.request.header.${o.echoRequestHeader}`,
    'Access-Control-Expose-Headers': `'${CORS.exposeHeaders.join(', ')}'`,
  };
}

export function addGatewayErrors(api: apigw.RestApi, corsOrigins: readonly string[]): void {
  for (const answer of gatewayAnswerList) {
    if (answer.deployed.kind !== 'gateway-response') continue;
    const { responseType } = answer.deployed;
    api.addGatewayResponse(`GatewayResponse${responseType}`, {
      type: responseTypeOf(responseType),
      // DEFAULT_4XX/5XX keep the status API Gateway chose.
      ...(answer.statusFromGateway ? {} : { statusCode: String(answer.status) }),
      responseHeaders: { ...quotedHeaders(answer), ...gatewayCorsHeaders(corsOrigins) },
      templates: { 'application/json': gatewayAnswerTemplate(answer) },
    });
  }
}

const NOT_OFFERED = GATEWAY_ANSWERS.METHOD_NOT_OFFERED;

/** Body of the 501 answered for a method the API does not offer on a known path. */
export const NOT_IMPLEMENTED_TEMPLATE = gatewayAnswerTemplate(NOT_OFFERED);

/** The MOCK integration response of that 501: status, headers (CORS included) and body from the table. */
export const notOfferedIntegrationResponse = (corsOrigins: readonly string[]): apigw.IntegrationResponse => ({
  statusCode: String(NOT_OFFERED.status),
  responseTemplates: { 'application/json': NOT_IMPLEMENTED_TEMPLATE },
  responseParameters: Object.fromEntries(
    Object.entries({ ...quotedHeaders(NOT_OFFERED), ...gatewayCorsHeaders(corsOrigins) }).map(([name, value]) => [`method.response.header.${name}`, value]),
  ),
});

/** The method response the ANY method declares for that 501: the same status and header names. */
export const notOfferedMethodResponse = (): apigw.MethodResponse => ({
  statusCode: String(NOT_OFFERED.status),
  responseParameters: Object.fromEntries(
    [...Object.keys(NOT_OFFERED.headers), 'Access-Control-Allow-Origin', 'Access-Control-Expose-Headers'].map((name) => [`method.response.header.${name}`, true]),
  ),
});

/** The request header the ANY method must declare for its 501 to echo the Origin (several CORS origins). */
export const notOfferedRequestParameters = (corsOrigins: readonly string[]): Record<string, boolean> => {
  const o = gatewayCorsOrigin(corsOrigins);
  return 'literal' in o ? {} : { [`method.request.header.${o.echoRequestHeader}`]: false };
};

/** Content types the 501 mock answers for (any other gets 415 from API Gateway, in the error body). */
const MOCK_CONTENT_TYPES = ['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/xml', 'text/xml'];

/**
 * The two methods the gateway answers itself on every known path, `/v1`'s and the console's alike (what
 * local/gateway.ts does for both): `OPTIONS`, the CORS preflight of shared/api/gateway-edge.ts (a mock, 204,
 * no credentials, as browsers send it), and `ANY` for a method the path does not offer, behind the path's
 * authorizer (after authentication, as locally), a MOCK integration answering 501 NOT_IMPLEMENTED in the
 * error body (explicit methods win over ANY). One 501 integration for the whole API.
 */
export class GatewayEdgeMethods {
  private readonly notOffered: apigw.MockIntegration;

  constructor(private readonly corsOrigins: readonly string[]) {
    this.notOffered = new apigw.MockIntegration({
      passthroughBehavior: apigw.PassthroughBehavior.NEVER,
      requestTemplates: Object.fromEntries(MOCK_CONTENT_TYPES.map((t) => [t, '{"statusCode": 501}'])),
      integrationResponses: [notOfferedIntegrationResponse(corsOrigins)],
    });
  }

  /**
   * Adds ANY (behind `authorizer`, whose credential `credential` names) and OPTIONS to the resource of the
   * path template `template`; `requestParameters` are its path parameters.
   */
  addTo(resource: apigw.IResource, template: string, opts: { authorizer: apigw.IAuthorizer; credential: string; requestParameters: Record<string, boolean> }): void {
    const any = resource.addMethod('ANY', this.notOffered, {
      authorizer: opts.authorizer,
      authorizationType: apigw.AuthorizationType.CUSTOM,
      requestParameters: { ...opts.requestParameters, ...notOfferedRequestParameters(this.corsOrigins) },
      methodResponses: [notOfferedMethodResponse()],
    });
    Validations.of(any).acknowledge({
      id: 'AwsSolutions-COG4',
      reason: `ANY ${template} answers 501 for the methods the path does not offer (a mock, no data), behind the Lambda REQUEST authorizer of ${opts.credential}, as every other method of the path.`,
    });
    const preflight = resource.addCorsPreflight({
      allowOrigins: [...this.corsOrigins],
      allowHeaders: [...CORS.allowHeaders],
      allowMethods: [...CORS.allowMethods],
      maxAge: Duration.seconds(CORS.maxAgeSeconds),
      statusCode: CORS.preflightStatus,
    });
    Validations.of(preflight).acknowledge(
      {
        id: 'AwsSolutions-APIG4',
        reason: `OPTIONS ${template} is the CORS preflight: browsers send it without credentials, so it cannot require ${opts.credential}; it is a mock that answers headers only.`,
      },
      { id: 'AwsSolutions-COG4', reason: `OPTIONS ${template} is the CORS preflight (a mock, no data): no authorizer by the CORS protocol.` },
    );
  }
}
