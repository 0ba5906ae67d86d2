import * as z from 'zod/mini';
import { SCOPES } from '../../domain/auth';
import { EXAMPLE_IDS } from '../../domain/examples';
import { LIMITS, meta, timestamp } from '../../domain/fields';
import { ANY_KEY, lazyRoutes, type RouteDef } from './define';

/** One window of the calling key's quota, counting the request that asked. */
const quotaWindow = z.object({
  limit: meta(z.int().check(z.gte(1)), { description: 'Requests allowed in the window', example: 60 }),
  remaining: meta(z.int().check(z.gte(0)), { description: 'Requests left in the current window after this one', example: 57 }),
  resetSeconds: meta(z.int().check(z.gte(1), z.lte(3600)), { description: 'Seconds until the current window ends and its count starts over', example: 23 }),
});
/** GET /v1/me: the calling key and its quota. */
export const meSchema = meta(
  z.object({
    id: meta(z.string().check(z.maxLength(LIMITS.id)), { description: "The key's public id (key_...); never the key itself", example: EXAMPLE_IDS.key }),
    name: meta(z.string().check(z.maxLength(LIMITS.name)), { example: 'Billing sync' }),
    workspaceId: meta(z.string().check(z.maxLength(LIMITS.id)), { example: EXAMPLE_IDS.workspace }),
    scopes: meta(z.array(z.string().check(z.maxLength(64))).check(z.maxLength(SCOPES.length)), {
      description: 'The scopes the key holds',
      example: ['time-entries:read', 'projects:read', 'clients:read'],
    }),
    limits: z.object({ perMinute: meta(z.int().check(z.gte(1)), { example: 60 }), perHour: meta(z.int().check(z.gte(1)), { example: 1000 }) }),
    expiresAt: meta(z.nullable(timestamp), { description: 'When the key stops working; null when it does not expire', example: '2027-01-01T00:00:00.000Z' }),
    quota: meta(z.object({ minute: quotaWindow, hour: quotaWindow }), {
      description: 'The quota left in both windows, this request counted (as in the RateLimit header)',
      example: { minute: { limit: 60, remaining: 57, resetSeconds: 23 }, hour: { limit: 1000, remaining: 994, resetSeconds: 1823 } },
    }),
  }),
  { id: 'ApiKeyInfo' },
);

/** Routes about the calling key rather than a resource of the workspace. */
export const meRoutes = lazyRoutes({
  getMe: {
    method: 'GET',
    path: '/v1/me',
    resource: 'me',
    scope: ANY_KEY,
    summary: 'The calling API key: its id, name, workspace, scopes, limits, expiry, and the quota left in both windows',
    description: 'The key as the API enforces it now (the authorizer answer is cached up to 5 minutes), and its quota after counting this request.',
    response: meSchema,
    successStatus: 200,
  },
} satisfies Record<string, RouteDef>);
