import { hashApiKey } from '../../shared/domain/apikeys';
import { findApiKeyByHash } from '../../shared/data/apikey-store';
import { apiKeyOf } from '../../shared/api/gateway-edge';
import { resourceHandler } from '../../shared/api/handler';
import { meRoutes } from '../../shared/api/routes/me';

/**
 * GET /v1/me: the calling key as the API enforces it (the authorizer's answer: scopes, limits, expiry)
 * and its quota left in both windows after this request, which the stack has just counted. Any valid
 * key may call it. No read but for a context cached before the authorizer sent the key's name.
 */
export const handler = resourceHandler(meRoutes, {
  getMe: async ({ auth, quota, headers }) => {
    const name = auth.keyName ?? (await findApiKeyByHash(hashApiKey(apiKeyOf(headers) ?? '')))?.name ?? '';
    return {
      id: auth.keyId,
      name,
      workspaceId: auth.workspaceId,
      scopes: auth.scopes,
      limits: { perMinute: auth.perMinute, perHour: auth.perHour },
      expiresAt: auth.expiresAt ?? null,
      quota,
    };
  },
});
