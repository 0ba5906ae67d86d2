import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { headerValue } from '../../shared/api/gateway-edge';
import { logger } from '../../shared/platform/logger';
import { createMetrics, recordOutcome } from '../../shared/platform/metrics';
import { bearerOf, jwksUrlOf, KeySetUnavailable, keySetOf, tokenConfigFromEnv, TokenRefused, verifyConsoleToken } from '../../shared/console/token';

const metrics = createMetrics('console-authorizer');

/**
 * The console's REQUEST authorizer (identity source: the Authorization header; API Gateway caches its
 * answer at most 60 s, CONSOLE_AUTHORIZER_CACHE_TTL in lib/console.ts; the local gateway the same). It
 * verifies the person's ID token (shared/console/token.ts: jose against the issuer's JWKS) and passes on
 * their verified e-mail; the console function resolves their memberships. An API key, a missing or a bad
 * token: 'Unauthorized' (401). The issuer's key set unavailable (and the token needs a key the last good set
 * lacks): logged as such ("Console key set unavailable") and thrown on, which the gateway answers 503
 * SERVICE_UNAVAILABLE (an authorizer error: the console authorizer's errors alarm). The policy allows the
 * console API's methods of the stage, and only them.
 */
export function consoleApiArn(methodArn: string): string {
  const [prefix, stage] = methodArn.split('/');
  return `${prefix}/${stage}/*/console/api/*`;
}

export const handler = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  logger.setCorrelationId(event.requestContext?.requestId);
  const token = bearerOf(headerValue(event.headers, 'Authorization'));
  if (!token) {
    logger.info('Console authorization failed', { reason: 'no bearer token' });
    recordOutcome(metrics, { status: 401 });
    throw new Error('Unauthorized');
  }
  try {
    const config = tokenConfigFromEnv();
    const keys = keySetOf(jwksUrlOf(config), (err) => logger.warn('Console key set refresh failed; the last good set is kept', { url: err.url, reason: err.reason }));
    const person = await verifyConsoleToken(token, config, keys.getKey);
    recordOutcome(metrics, { status: 200 });
    return {
      principalId: person.sub,
      policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: consoleApiArn(event.methodArn) }] },
      context: { email: person.email },
    };
  } catch (err) {
    if (err instanceof TokenRefused) {
      logger.info('Console authorization failed', { reason: err.reason });
      recordOutcome(metrics, { status: 401 });
      throw new Error('Unauthorized');
    }
    if (err instanceof KeySetUnavailable) {
      logger.error('Console key set unavailable', { url: err.url, reason: err.reason });
      recordOutcome(metrics, { status: 503 });
      throw err;
    }
    logger.error('Console authorizer failed', err as Error);
    throw err;
  }
};
