import * as z from 'zod/mini';
import { SCOPES } from '../domain/auth';
import { ROLES } from '../domain/roles';
import { WORKSPACE_ID_PATTERN } from '../domain/apikeys';
import { meta } from '../domain/fields';

/** The console API's shapes (zod), shared by its route declarations and its OpenAPI document. */
export const workspaceParams = z.strictObject({ workspaceId: meta(z.string().check(z.regex(WORKSPACE_ID_PATTERN)), { description: 'The workspace' }) });
export const keyParams = z.strictObject({
  workspaceId: workspaceParams.shape.workspaceId,
  keyId: meta(z.string().check(z.minLength(1), z.maxLength(64)), { description: 'The key id (key_...)' }),
});
export const memberParams = z.strictObject({
  workspaceId: workspaceParams.shape.workspaceId,
  email: meta(z.email().check(z.maxLength(254)), { description: "The member's e-mail" }),
});

export const roleSchema = z.enum(ROLES);
export const scopeSchema = z.enum(SCOPES as [string, ...string[]]);
const instant = z.iso.datetime({ offset: true });
const nullableInstant = z.nullable(instant);

export const KEY_STATUSES = ['active', 'expired', 'revoked'] as const;
export const apiKeySchema = meta(
  z.object({
    id: z.string(),
    name: z.string(),
    prefix: meta(z.nullable(z.string()), { description: '`svc_live_` and the next 4 characters (null for keys made before prefixes were kept)' }),
    scopes: z.array(scopeSchema),
    perMinute: z.int(),
    perHour: z.int(),
    expiresAt: nullableInstant,
    createdAt: instant,
    createdBy: meta(z.nullable(z.string()), { description: 'The e-mail of the person who made it, `admin-cli`, or null' }),
    lastUsedAt: meta(nullableInstant, { description: 'Recorded by the authorizer: as fresh as its cache (5 minutes)' }),
    revokedAt: nullableInstant,
    status: z.enum(KEY_STATUSES),
    replaces: meta(z.nullable(z.string()), { description: 'The id of the key this one succeeded by a roll, or null' }),
    replacedBy: meta(z.nullable(z.string()), { description: "The id of this key's successor by its latest roll, or null" }),
  }),
  { id: 'ConsoleApiKey' },
);

export const createdKeySchema = z.object({
  key: meta(z.nullable(z.string()), { description: 'The API key itself: shown once, never again (null on an answer replayed for an Idempotency-Key)' }),
  apiKey: apiKeySchema,
});
export const rolledKeySchema = z.object({
  key: meta(z.nullable(z.string()), { description: 'The new API key: shown once (null on an answer replayed for an Idempotency-Key)' }),
  apiKey: apiKeySchema,
  previous: apiKeySchema,
});

export const nameField = z.string().check(z.trim(), z.minLength(1, 'must be 1-100 characters'), z.maxLength(100, 'must be 1-100 characters'));
export const limitField = z.int('must be a positive integer').check(z.positive('must be a positive integer'), z.lte(1_000_000));
export const futureInstant = instant.check(z.refine((v) => Date.parse(v) > Date.now(), 'must be in the future'));

export const createKeyBody = z
  .strictObject({
    name: nameField,
    scopes: z.array(scopeSchema, 'must be a list of scopes').check(z.minLength(1, 'at least one scope'), z.maxLength(SCOPES.length * 2)),
    perMinute: z.optional(limitField),
    perHour: z.optional(limitField),
    expiresAt: z.optional(futureInstant),
  })
  .check(
    z.superRefine((b, ctx) => {
      if ((b.perMinute ?? 60) > (b.perHour ?? 1000)) ctx.addIssue({ code: 'custom', path: ['perMinute'], message: 'must be at most perHour' });
    }),
  );
export const updateKeyBody = z.strictObject({
  name: z.optional(nameField),
  scopes: z.optional(z.array(scopeSchema, 'must be a list of scopes').check(z.minLength(1, 'at least one scope'), z.maxLength(SCOPES.length * 2))),
  perMinute: z.optional(limitField),
  perHour: z.optional(limitField),
  expiresAt: meta(z.optional(z.nullable(futureInstant)), { description: 'null: never expires' }),
});
export const MAX_ROLL_GRACE_SECONDS = 604_800;
export const rollBody = z.strictObject({
  expireOldInSeconds: meta(z._default(z.int('must be an integer').check(z.gte(0), z.lte(MAX_ROLL_GRACE_SECONDS)), 86_400), {
    description: 'How long the old key keeps working (never past its own expiry)',
  }),
});
export const usageQuery = z.strictObject({
  hours: z._default(z.coerce.number('must be an integer').check(z.int('must be an integer'), z.gte(1), z.lte(168)), 168),
});
export const usageSchema = z.object({
  items: z.array(z.object({ hour: instant, requests: z.int(), rateLimited: z.int() })).check(z.maxLength(168)),
});

export const memberSchema = meta(z.object({ email: z.string(), role: roleSchema, addedAt: instant, addedBy: z.string() }), { id: 'ConsoleMember' });
export const addedMemberSchema = z.object({
  ...memberSchema.shape,
  invitation: meta(z.nullable(z.object({ url: z.string(), expiresAt: instant })), {
    description:
      "Locally, for a person without a sign-in account: a one-time link to the local provider's set-password page (valid 7 days), shown once. Null in AWS (Cognito e-mails the invitation), for a person who has an account, and on a replayed answer.",
  }),
});
export const addMemberBody = z.strictObject({ email: z.email('must be an e-mail address').check(z.maxLength(254)), role: roleSchema });
export const updateMemberBody = z.strictObject({ role: roleSchema });

export const auditQuery = z.strictObject({
  limit: z._default(z.coerce.number('must be an integer').check(z.int('must be an integer'), z.gte(1), z.lte(200)), 50),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  action: meta(z.optional(z.string().check(z.minLength(1), z.maxLength(64))), { description: 'Only entries of this action, e.g. api-key.revoked' }),
  actor: meta(z.optional(z.string().check(z.minLength(1), z.maxLength(254))), { description: 'Only entries by this actor (an e-mail, or admin-cli)' }),
  targetId: meta(z.optional(z.string().check(z.minLength(1), z.maxLength(254))), {
    description: 'Only entries about this target (a key id, a member e-mail, an invoice or webhook id)',
  }),
});
export const auditEntrySchema = meta(
  z.object({
    id: z.string(),
    at: instant,
    actor: z.string(),
    action: z.string(),
    target: z.object({ type: z.enum(['api-key', 'member', 'invoice', 'webhook', 'workspace']), id: z.string() }),
    changes: z.record(z.string(), z.object({ from: z.optional(z.unknown()), to: z.optional(z.unknown()) })),
    targetName: meta(z.nullable(z.string()), {
      description: "The target's name when the page was read: a key's name and prefix, a member's e-mail, an invoice's number and client, a webhook's URL (null: since deleted)",
    }),
    summary: meta(z.array(z.string()), { description: 'Each change as "field: before -> after" (none: no value)' }),
  }),
  { id: 'ConsoleAuditEntry' },
);
export const auditPage = z.object({ items: z.array(auditEntrySchema).check(z.maxLength(200)), nextCursor: z.nullable(z.string()), hasMore: z.boolean() });

export const meSchema = z.object({ email: z.string(), memberships: z.array(z.object({ workspaceId: z.string(), role: roleSchema })) });
export const listOf = <T extends z.ZodMiniType>(item: T) => z.object({ items: z.array(item) });
export const textSchema = z.string();
export const configSchema = z.object({
  issuer: z.string(),
  clientId: z.string(),
  scope: z.string(),
  logoutUrl: z.nullable(z.string()),
  authorizerCacheSeconds: z.int(),
  scopes: z.array(z.string()),
});

/** The page's query: what the OpenID Provider sends back to it (read by the page's script, not the server). */
export const pageQuery = z.looseObject({
  code: z.optional(z.string().check(z.maxLength(2048))),
  state: z.optional(z.string().check(z.maxLength(512))),
  iss: z.optional(z.string().check(z.maxLength(2048))),
  error: z.optional(z.string().check(z.maxLength(256))),
  error_description: z.optional(z.string().check(z.maxLength(2048))),
});
