import * as z from 'zod/mini';
import { webhooks, type WebhookRecord } from '../../domain/entities/webhooks';
import { webhookAttemptSchema } from '../../domain/webhook-attempt';
import { conflict } from '../../domain/errors';
import { meta } from '../../domain/fields';
import { findById } from '../../data/apikey-store';
import { auditOp } from '../../data/audit';
import { repository } from '../../data/repository';
import { attemptsPage, endpoint, updateEndpoint } from '../../webhooks/store';
import { keyPower } from '../../webhooks/key-power';
import { consoleRoute } from '../route-table';
import * as s from '../schemas';

/**
 * The Webhooks section (issue 36): the workspace's webhooks with the key that made each (name, prefix), their
 * last delivery and their recent attempts; owners and admins disable, enable and delete one (viewers read).
 * Creating a webhook stays an integration's act (`POST /v1/webhooks`, with a key whose scopes bound it).
 */
const TAG = 'Webhooks';
const base = '/console/api/workspaces/{workspaceId}/webhooks';
const repo = () => repository(webhooks);

const params = z.strictObject({
  workspaceId: s.workspaceParams.shape.workspaceId,
  webhookId: meta(z.string().check(z.minLength(1), z.maxLength(64)), { description: 'The webhook id' }),
});
const instant = z.iso.datetime({ offset: true });
export const consoleWebhookSchema = meta(
  z.object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.nullable(z.string()),
    enabled: z.boolean(),
    disabledReason: meta(z.nullable(z.string()), { description: 'Why the server disabled it (its key revoked or expired, or failed deliveries); null while enabled' }),
    createdAt: instant,
    key: meta(z.nullable(z.object({ id: z.string(), name: z.string(), prefix: z.nullable(z.string()), status: z.enum(s.KEY_STATUSES) })), {
      description: 'The API key that made (or last re-enabled) it; null for webhooks made before it was recorded, or a key since gone',
    }),
    lastDelivery: meta(z.nullable(z.object({ at: instant, type: z.string(), statusCode: z.nullable(z.int()), error: z.nullable(z.string()) })), {
      description: 'Its latest delivery attempt (null: none yet)',
    }),
  }),
  { id: 'ConsoleWebhook' },
);
const updateBody = z.strictObject({ enabled: meta(z.boolean(), { description: 'false disables it; true enables it again (events from then on)' }) });
const attemptsQuery = z.strictObject({
  limit: z._default(z.coerce.number('must be an integer').check(z.int('must be an integer'), z.gte(1), z.lte(100)), 20),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
});
const attemptsSchema = z.object({ items: z.array(webhookAttemptSchema).check(z.maxLength(100)), nextCursor: z.nullable(z.string()), hasMore: z.boolean() });

async function present(workspaceId: string, w: WebhookRecord) {
  const ep = await endpoint(workspaceId, w.id);
  const key = ep?.createdByKey ? await findById(ep.createdByKey) : undefined;
  const last = (await attemptsPage(workspaceId, w.id, 1)).items[0];
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    description: w.description ?? null,
    enabled: w.enabled !== false,
    disabledReason: w.enabled === false ? (w.disabledReason ?? null) : null,
    createdAt: w.createdAt,
    key: key && key.workspaceId === workspaceId ? { id: key.id, name: key.name, prefix: key.prefix ?? null, status: keyStatus(key) } : null,
    lastDelivery: last ? { at: last.at, type: last.type, statusCode: last.statusCode ?? null, error: last.error ?? null } : null,
  };
}
const keyStatus = (k: { revokedAt?: string; expiresAt?: string }) => (k.revokedAt ? 'revoked' : k.expiresAt && Date.parse(k.expiresAt) <= Date.now() ? 'expired' : 'active');

async function webhookOf(workspaceId: string, id: string): Promise<WebhookRecord> {
  return repo().get(workspaceId, { id });
}

export const webhookRoutes = {
  listConsoleWebhooks: consoleRoute(
    {
      method: 'GET',
      path: base,
      access: 'viewer',
      tag: TAG,
      summary: "The workspace's webhooks, with the key that made each and its last delivery",
      params: s.workspaceParams,
      response: s.listOf(consoleWebhookSchema),
      successStatus: 200,
    },
    async ({ params }) => ({ items: await Promise.all((await repo().listAll(params.workspaceId)).map((w) => present(params.workspaceId, w))) }),
  ),
  getConsoleWebhook: consoleRoute(
    { method: 'GET', path: `${base}/{webhookId}`, access: 'viewer', tag: TAG, summary: 'One webhook', params, response: consoleWebhookSchema, successStatus: 200 },
    async ({ params: p }) => present(p.workspaceId, await webhookOf(p.workspaceId, p.webhookId)),
  ),
  updateConsoleWebhook: consoleRoute(
    {
      method: 'PATCH',
      path: `${base}/{webhookId}`,
      access: 'admin',
      tag: TAG,
      summary: 'Disable or enable a webhook',
      description:
        'Enabling resumes with the events from then on and forgets the failures that disabled it. A webhook whose key is revoked or expired cannot be enabled here (409): an integration re-enables it with a key that may read what it sends (PUT /v1/webhooks/{id}).',
      params,
      body: updateBody,
      response: consoleWebhookSchema,
      successStatus: 200,
      conflict: true,
    },
    async ({ params: p, body, person }) => {
      const ep = await endpoint(p.workspaceId, p.webhookId);
      const before = await webhookOf(p.workspaceId, p.webhookId);
      if (body.enabled === (before.enabled !== false)) return present(p.workspaceId, before);
      if (body.enabled && ep) {
        const power = await keyPower(p.workspaceId, ep);
        if ('stopped' in power) throw conflict(`This webhook cannot be enabled: ${power.stopped}`);
      }
      const audit = auditOp({
        workspaceId: p.workspaceId,
        actor: person.email,
        action: body.enabled ? 'webhook.enabled' : 'webhook.disabled',
        target: { type: 'webhook', id: p.webhookId },
        changes: { enabled: { from: !body.enabled, to: body.enabled }, url: { to: before.url } },
      });
      const after = await updateEndpoint(p.workspaceId, p.webhookId, { enabled: body.enabled }, { also: [audit], ...(body.enabled ? { resume: {} } : {}) });
      return present(p.workspaceId, after);
    },
  ),
  deleteConsoleWebhook: consoleRoute(
    {
      method: 'DELETE',
      path: `${base}/{webhookId}`,
      access: 'admin',
      tag: TAG,
      summary: 'Delete a webhook (nothing more is sent to it)',
      params,
      response: consoleWebhookSchema,
      successStatus: 200,
    },
    async ({ params: p, person }) => {
      const shown = await present(p.workspaceId, await webhookOf(p.workspaceId, p.webhookId));
      const audit = auditOp({
        workspaceId: p.workspaceId,
        actor: person.email,
        action: 'webhook.deleted',
        target: { type: 'webhook', id: p.webhookId },
        changes: { url: { from: shown.url } },
      });
      await repo().delete(p.workspaceId, { id: p.webhookId }, { also: [audit] });
      return shown;
    },
  ),
  listConsoleWebhookDeliveries: consoleRoute(
    {
      method: 'GET',
      path: `${base}/{webhookId}/deliveries`,
      access: 'viewer',
      tag: TAG,
      summary: "A webhook's recent delivery attempts, newest first (paged; kept 31 days)",
      params,
      query: attemptsQuery,
      response: attemptsSchema,
      successStatus: 200,
    },
    async ({ params: p, query }) => {
      await webhookOf(p.workspaceId, p.webhookId);
      const page = await attemptsPage(p.workspaceId, p.webhookId, query.limit, query.cursor);
      return { items: page.items, nextCursor: page.nextCursor ?? null, hasMore: page.hasMore };
    },
  ),
};
