import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { ERROR_STATUS, UNAUTHORIZED_MESSAGE, type ErrorCode } from '../shared/api/errors';

/**
 * The answers API Gateway itself gives (before or instead of a handler), all in the spec's error body
 * `{"error":{"code","message","requestId"}}`. Codes and statuses come from shared/errors.ts.
 */
export interface GatewayErrorDef {
  readonly type: apigw.ResponseType;
  readonly code: ErrorCode;
  /** Overrides the HTTP status of the code (DEFAULT_4XX/5XX keep the status API Gateway chose). */
  readonly statusCode?: string;
  /** Literal message, or `raw` VTL that yields a JSON string (e.g. $context.error.messageString). */
  readonly message: { text: string } | { raw: string };
  readonly headers?: Record<string, string>;
}

export const GATEWAY_ERRORS: readonly GatewayErrorDef[] = [
  // Missing X-API-Key header, or the authorizer threw 'Unauthorized' (malformed, unknown, expired, revoked).
  { type: apigw.ResponseType.UNAUTHORIZED, code: 'UNAUTHORIZED', message: { text: UNAUTHORIZED_MESSAGE } },
  // The authorizer returned a Deny policy.
  { type: apigw.ResponseType.ACCESS_DENIED, code: 'FORBIDDEN', message: { text: 'Access denied' } },
  // No resource/method matches the path: with an ANY method on every known path, this means an unknown route.
  { type: apigw.ResponseType.MISSING_AUTHENTICATION_TOKEN, code: 'NOT_FOUND', statusCode: '404', message: { text: 'Route not found' } },
  // The authorizer crashed or returned something unusable.
  { type: apigw.ResponseType.AUTHORIZER_FAILURE, code: 'INTERNAL_ERROR', statusCode: '500', message: { text: 'Authorization failed unexpectedly' } },
  // The authorizer could not be reached (e.g. Lambda throttled): transient, the client may retry.
  {
    type: apigw.ResponseType.AUTHORIZER_CONFIGURATION_ERROR,
    code: 'SERVICE_UNAVAILABLE',
    message: { text: 'Authorization is temporarily unavailable, retry later' },
    headers: { 'Retry-After': '1' },
  },
  { type: apigw.ResponseType.REQUEST_TOO_LARGE, code: 'PAYLOAD_TOO_LARGE', message: { text: 'Request body too large' } },
  // Stage throttling (the guard in front of the per-key limits).
  { type: apigw.ResponseType.THROTTLED, code: 'THROTTLED', message: { text: 'Too many requests, retry later' }, headers: { 'Retry-After': '1' } },
  { type: apigw.ResponseType.INTEGRATION_TIMEOUT, code: 'INTERNAL_ERROR', statusCode: '504', message: { text: 'The request timed out' } },
  // Anything else API Gateway answers itself (unsupported media type, bad request, ...): keep its status.
  { type: apigw.ResponseType.DEFAULT_4XX, code: 'VALIDATION_ERROR', statusCode: undefined, message: { raw: '$context.error.messageString' } },
  { type: apigw.ResponseType.DEFAULT_5XX, code: 'INTERNAL_ERROR', statusCode: undefined, message: { text: 'Internal server error' } },
];

/** The VTL template of one gateway response (valid JSON once API Gateway substitutes the variables). */
export function gatewayErrorTemplate(def: Pick<GatewayErrorDef, 'code' | 'message'>): string {
  const message = 'text' in def.message ? JSON.stringify(def.message.text) : def.message.raw;
  return `{"error":{"code":${JSON.stringify(def.code)},"message":${message},"requestId":"$context.requestId"}}`;
}

const statusOf = (def: GatewayErrorDef): string | undefined =>
  def.type === apigw.ResponseType.DEFAULT_4XX || def.type === apigw.ResponseType.DEFAULT_5XX
    ? undefined
    : (def.statusCode ?? String(ERROR_STATUS[def.code]));

export function addGatewayErrors(api: apigw.RestApi): void {
  for (const def of GATEWAY_ERRORS) {
    const status = statusOf(def);
    api.addGatewayResponse(`GatewayResponse${def.type.responseType}`, {
      type: def.type,
      ...(status ? { statusCode: status } : {}),
      responseHeaders: {
        'Content-Type': "'application/json'",
        ...Object.fromEntries(Object.entries(def.headers ?? {}).map(([k, v]) => [k, `'${v}'`])),
      },
      templates: { 'application/json': gatewayErrorTemplate(def) },
    });
  }
}

/** Body of the 501 answered for a method the API does not offer on a known path. */
export const NOT_IMPLEMENTED_TEMPLATE = gatewayErrorTemplate({
  code: 'NOT_IMPLEMENTED',
  message: { text: 'This method is not implemented on this path' },
});
