import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { hashApiKey, isWellFormedApiKey, keyState } from '../../shared/domain/apikeys';
import { encodeAuthContext } from '../../shared/api/auth';
import { apiKeyOf } from '../../shared/api/gateway-edge';
import { findApiKeyByHash, touchLastUsed } from '../../shared/data/apikey-store';
import { logger } from '../../shared/platform/logger';
import { createMetrics, recordOutcome } from '../../shared/platform/metrics';

const metrics = createMetrics('authorizer');

/**
 * REQUEST authorizer. Resolves X-API-Key to its workspace, scopes and limits. API Gateway caches the
 * answer for 5 minutes keyed on the header, so the policy allows every method of the stage (the
 * same cached answer serves all routes) and scopes are enforced by the resource Lambdas.
 * Any failure throws 'Unauthorized', which API Gateway answers with 401 (Gateway Response).
 *
 * arn:aws:execute-api:region:account:apiId/stage/METHOD/path → arn:...:apiId/stage/*\/* */
export function stageWildcardArn(methodArn: string): string {
  const [prefix, stage] = methodArn.split('/');
  return `${prefix}/${stage}/*/*`;
}

export type AuthorizerResult = APIGatewayAuthorizerResult;

export const handler = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  logger.setCorrelationId(event.requestContext?.requestId);
  const key = apiKeyOf(event.headers);
  if (!isWellFormedApiKey(key)) {
    logger.info('Authorization failed', { reason: key ? 'malformed' : 'missing' });
    recordOutcome(metrics, { status: 401 });
    throw new Error('Unauthorized');
  }
  const hash = hashApiKey(key);
  const rec = await findApiKeyByHash(hash);
  const state = rec ? keyState(rec) : 'unknown';
  if (!rec || state !== 'active') {
    logger.info('Authorization failed', { reason: state, keyId: rec?.id });
    recordOutcome(metrics, { status: 401 });
    throw new Error('Unauthorized');
  }
  try {
    await touchLastUsed(hash);
  } catch (err) {
    // lastUsedAt is informational: never refuse a valid key because it could not be recorded.
    logger.warn('Could not record lastUsedAt', { keyId: rec.id, error: (err as Error).name });
  }
  recordOutcome(metrics, { status: 200 });
  return {
    principalId: rec.id,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: stageWildcardArn(event.methodArn) }],
    },
    context: encodeAuthContext({
      workspaceId: rec.workspaceId,
      keyId: rec.id,
      keyName: rec.name,
      scopes: rec.scopes,
      perMinute: rec.perMinute,
      perHour: rec.perHour,
      ...(rec.expiresAt ? { expiresAt: rec.expiresAt } : {}),
    }),
  };
};
