import * as z from 'zod';
import { SCOPES } from '../domain/auth';
import { ROLES } from '../domain/roles';
import { WORKSPACE_ID_PATTERN } from '../domain/apikeys';

/** The console API's shapes (zod), shared by its route declarations and its OpenAPI document. */
export const workspaceParams = z.strictObject({ workspaceId: z.string().regex(WORKSPACE_ID_PATTERN).describe('The workspace') });
export const keyParams = z.strictObject({ workspaceId: workspaceParams.shape.workspaceId, keyId: z.string().min(1).max(64).describe('The key id (key_...)') });
export const memberParams = z.strictObject({ workspaceId: workspaceParams.shape.workspaceId, email: z.email().max(254).describe("The member's e-mail") });

export const roleSchema = z.enum(ROLES);
export const scopeSchema = z.enum(SCOPES as [string, ...string[]]);
const instant = z.iso.datetime({ offset: true });
const nullableInstant = instant.nullable();

export const KEY_STATUSES = ['active', 'expired', 'revoked'] as const;
export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().nullable().describe('`svc_live_` and the next 4 characters (null for keys made before prefixes were kept)'),
    scopes: z.array(scopeSchema),
    perMinute: z.int(),
    perHour: z.int(),
    expiresAt: nullableInstant,
    createdAt: instant,
    createdBy: z.string().nullable().describe('The e-mail of the person who made it, `admin-cli`, or null'),
    lastUsedAt: nullableInstant.describe('Recorded by the authorizer: as fresh as its cache (5 minutes)'),
    revokedAt: nullableInstant,
    status: z.enum(KEY_STATUSES),
  })
  .meta({ id: 'ConsoleApiKey' });

export const createdKeySchema = z.object({ key: z.string().describe('The API key itself: shown once, never again'), apiKey: apiKeySchema });
export const rolledKeySchema = z.object({ key: z.string().describe('The new API key: shown once'), apiKey: apiKeySchema, previous: apiKeySchema });

export const nameField = z.string().trim().min(1, 'must be 1-100 characters').max(100, 'must be 1-100 characters');
export const limitField = z.int('must be a positive integer').positive('must be a positive integer').max(1_000_000);
export const futureInstant = instant.refine((v) => Date.parse(v) > Date.now(), 'must be in the future');

export const createKeyBody = z
  .strictObject({
    name: nameField,
    scopes: z
      .array(scopeSchema, 'must be a list of scopes')
      .min(1, 'at least one scope')
      .max(SCOPES.length * 2),
    perMinute: limitField.optional(),
    perHour: limitField.optional(),
    expiresAt: futureInstant.optional(),
  })
  .superRefine((b, ctx) => {
    if ((b.perMinute ?? 60) > (b.perHour ?? 1000)) ctx.addIssue({ code: 'custom', path: ['perMinute'], message: 'must be at most perHour' });
  });
export const updateKeyBody = z.strictObject({
  name: nameField.optional(),
  scopes: z
    .array(scopeSchema, 'must be a list of scopes')
    .min(1, 'at least one scope')
    .max(SCOPES.length * 2)
    .optional(),
  perMinute: limitField.optional(),
  perHour: limitField.optional(),
  expiresAt: futureInstant.nullable().optional().describe('null: never expires'),
});
export const MAX_ROLL_GRACE_SECONDS = 604_800;
export const rollBody = z.strictObject({
  expireOldInSeconds: z.int('must be an integer').min(0).max(MAX_ROLL_GRACE_SECONDS).default(86_400).describe('How long the old key keeps working (never past its own expiry)'),
});
export const usageQuery = z.strictObject({
  hours: z.coerce.number('must be an integer').int('must be an integer').min(1).max(168).default(168),
});
export const usageSchema = z.object({
  items: z.array(z.object({ hour: instant, requests: z.int(), rateLimited: z.int() })).max(168),
});

export const memberSchema = z.object({ email: z.string(), role: roleSchema, addedAt: instant, addedBy: z.string() }).meta({ id: 'ConsoleMember' });
export const addMemberBody = z.strictObject({ email: z.email('must be an e-mail address').max(254), role: roleSchema });
export const updateMemberBody = z.strictObject({ role: roleSchema });

export const auditQuery = z.strictObject({
  limit: z.coerce.number('must be an integer').int('must be an integer').min(1).max(200).default(50),
  cursor: z.string().min(1).max(2048).optional(),
});
export const auditEntrySchema = z
  .object({
    id: z.string(),
    at: instant,
    actor: z.string(),
    action: z.string(),
    target: z.object({ type: z.enum(['api-key', 'member', 'invoice']), id: z.string() }),
    changes: z.record(z.string(), z.object({ from: z.unknown().optional(), to: z.unknown().optional() })),
  })
  .meta({ id: 'ConsoleAuditEntry' });
export const auditPage = z.object({ items: z.array(auditEntrySchema).max(200), nextCursor: z.string().nullable(), hasMore: z.boolean() });

export const meSchema = z.object({ email: z.string(), memberships: z.array(z.object({ workspaceId: z.string(), role: roleSchema })) });
export const listOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item) });
export const textSchema = z.string();
export const configSchema = z.object({
  issuer: z.string(),
  clientId: z.string(),
  scope: z.string(),
  logoutUrl: z.string().nullable(),
  authorizerCacheSeconds: z.int(),
  scopes: z.array(z.string()),
});

/** The page's query: what the OpenID Provider sends back to it (read by the page's script, not the server). */
export const pageQuery = z.looseObject({
  code: z.string().max(2048).optional(),
  state: z.string().max(512).optional(),
  iss: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
});
