import { keyState, type ApiKeyRecord } from '../../domain/apikeys';
import { conflict, invalidField, notFound } from '../../domain/errors';
import type { Scope } from '../../domain/auth';
import { createApiKey, findInWorkspace, listApiKeys, revokeApiKey, rollApiKey, updateApiKey, type KeyChange } from '../../data/apikey-store';
import { hourlyUsage } from '../../data/rate-counter';
import { consoleRoute } from '../route-table';
import * as s from '../schemas';

/** The API Keys section: list, create, read, edit, roll, revoke, usage. Owners and admins write; viewers read. */
const TAG = 'API keys';
const base = '/console/api/workspaces/{workspaceId}/api-keys';

export function presentKey(r: ApiKeyRecord, now = new Date()) {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix ?? null,
    scopes: r.scopes,
    perMinute: r.perMinute,
    perHour: r.perHour,
    expiresAt: r.expiresAt ?? null,
    createdAt: r.createdAt,
    createdBy: r.createdBy ?? null,
    lastUsedAt: r.lastUsedAt ?? null,
    revokedAt: r.revokedAt ?? null,
    status: keyState(r, now),
    replaces: r.replaces ?? null,
    replacedBy: r.replacedBy ?? null,
  };
}

async function keyOf(workspaceId: string, keyId: string): Promise<ApiKeyRecord> {
  const rec = await findInWorkspace(workspaceId, keyId);
  if (!rec) throw notFound('API key');
  return rec;
}

export const apiKeyRoutes = {
  listConsoleApiKeys: consoleRoute(
    {
      method: 'GET',
      path: base,
      access: 'viewer',
      tag: TAG,
      summary: "The workspace's API keys, newest first",
      params: s.workspaceParams,
      response: s.listOf(s.apiKeySchema),
      successStatus: 200,
    },
    async ({ params }) => ({ items: (await listApiKeys(params.workspaceId)).map((k) => presentKey(k)) }),
  ),
  createConsoleApiKey: consoleRoute(
    {
      method: 'POST',
      path: base,
      access: 'admin',
      function: 'console-keys', // key writes: the only console role that may write key items (lib/console.ts)
      tag: TAG,
      summary: 'Create a key; the key itself is in this answer only',
      description: 'At most 500 active keys per workspace (409 beyond). Defaults: 60 requests a minute, 1,000 an hour, no expiry.',
      params: s.workspaceParams,
      body: s.createKeyBody,
      response: s.createdKeySchema,
      successStatus: 201,
      secret: true,
      conflict: true,
    },
    async ({ params, body, person }) => {
      const { key, record } = await createApiKey({
        workspaceId: params.workspaceId,
        name: body.name,
        scopes: body.scopes as Scope[],
        createdBy: person.email,
        ...(body.perMinute !== undefined ? { perMinute: body.perMinute } : {}),
        ...(body.perHour !== undefined ? { perHour: body.perHour } : {}),
        ...(body.expiresAt ? { expiresAt: new Date(body.expiresAt).toISOString() } : {}),
      });
      return { key, apiKey: presentKey(record) };
    },
  ),
  getConsoleApiKey: consoleRoute(
    { method: 'GET', path: `${base}/{keyId}`, access: 'viewer', tag: TAG, summary: 'One key', params: s.keyParams, response: s.apiKeySchema, successStatus: 200 },
    async ({ params }) => presentKey(await keyOf(params.workspaceId, params.keyId)),
  ),
  updateConsoleApiKey: consoleRoute(
    {
      method: 'PATCH',
      path: `${base}/{keyId}`,
      access: 'admin',
      function: 'console-keys', // key writes: the only console role that may write key items (lib/console.ts)
      tag: TAG,
      summary: "Change a key's name, scopes, limits or expiry (fields not sent keep their value; expiresAt null: never)",
      description:
        'Reaches the gateway within the authorizer cache time (5 minutes). A revoked key cannot be changed (409). A change that makes an expired key (or one whose roll grace ended) active again takes a slot under the active-key bound (MAX_ACTIVE_KEYS, 500): at the bound it is 409.',
      params: s.keyParams,
      body: s.updateKeyBody,
      response: s.apiKeySchema,
      successStatus: 200,
      conflict: true,
    },
    async ({ params, body, person }) => {
      const old = await keyOf(params.workspaceId, params.keyId);
      if (old.revokedAt) throw conflict('A revoked key cannot be changed');
      const perMinute = body.perMinute ?? old.perMinute;
      const perHour = body.perHour ?? old.perHour;
      if (perMinute > perHour) throw invalidField(body.perMinute !== undefined ? 'perMinute' : 'perHour', 'perMinute must be at most perHour');
      const change: KeyChange = {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.scopes !== undefined ? { scopes: [...new Set(body.scopes)] as Scope[] } : {}),
        ...(body.perMinute !== undefined ? { perMinute: body.perMinute } : {}),
        ...(body.perHour !== undefined ? { perHour: body.perHour } : {}),
        ...(body.expiresAt !== undefined ? { expiresAt: body.expiresAt === null ? null : new Date(body.expiresAt).toISOString() } : {}),
      };
      const rec = await updateApiKey(old.id, change, person.email);
      if (!rec) throw notFound('API key');
      return presentKey(rec);
    },
  ),
  revokeConsoleApiKey: consoleRoute(
    {
      method: 'DELETE',
      path: `${base}/{keyId}`,
      access: 'admin',
      function: 'console-keys', // key writes: the only console role that may write key items (lib/console.ts)
      tag: TAG,
      summary: 'Revoke a key (the record stays, status revoked); refused by the gateway within the authorizer cache time (5 minutes)',
      params: s.keyParams,
      response: s.apiKeySchema,
      successStatus: 200,
    },
    async ({ params, person }) => {
      const old = await keyOf(params.workspaceId, params.keyId);
      if (old.revokedAt) return presentKey(old);
      const rec = await revokeApiKey(old.id, new Date(), person.email);
      if (!rec) throw notFound('API key');
      return presentKey(rec);
    },
  ),
  rollConsoleApiKey: consoleRoute(
    {
      method: 'POST',
      path: `${base}/{keyId}/roll`,
      access: 'admin',
      function: 'console-keys', // key writes: the only console role that may write key items (lib/console.ts)
      tag: TAG,
      summary: 'Roll a key: a new key with the same name, scopes, limits and expiry; the old one keeps working expireOldInSeconds more (never past its own expiry)',
      description:
        'The new key `replaces` the old one and the old one is `replacedBy` the new one. Rolling a key again during its grace gives a successor the expiry the key had before its first roll. Of concurrent rolls of one key exactly one succeeds; the others are 409. Only an active key can be rolled (409).',
      params: s.keyParams,
      body: s.rollBody,
      bodyOptional: true,
      response: s.rolledKeySchema,
      successStatus: 201,
      secret: true,
      conflict: true,
    },
    async ({ params, body, person }) => {
      const old = await keyOf(params.workspaceId, params.keyId);
      const rolled = await rollApiKey(old.id, body.expireOldInSeconds, person.email);
      if (!rolled) throw notFound('API key');
      return { key: rolled.key, apiKey: presentKey(rolled.record), previous: presentKey(rolled.previous) };
    },
  ),
  getConsoleApiKeyUsage: consoleRoute(
    {
      method: 'GET',
      path: `${base}/{keyId}/usage`,
      access: 'viewer',
      tag: TAG,
      summary: "A key's requests per clock hour over the last `hours` hours (default 168), oldest first; rateLimited: the requests refused for a limit",
      params: s.keyParams,
      query: s.usageQuery,
      response: s.usageSchema,
      successStatus: 200,
    },
    async ({ params, query }) => {
      const rec = await keyOf(params.workspaceId, params.keyId);
      return { items: await hourlyUsage(rec.id, query.hours) };
    },
  ),
};
