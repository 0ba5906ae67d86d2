import { CHANGE_ACTIONS, CHANGE_ENTITIES, changeResource, changeTypeMatcher, entityOfChange, type ChangeEvent } from '../domain/changes';
import { isScope } from '../domain/auth';
import { webhooks } from '../domain/entities/webhooks';
import { invalidField, notFound } from '../domain/errors';
import { ulid } from '../domain/ids';
import { newWebhookSecret, PING_TYPE } from '../domain/webhooks';
import { deliveryQueue } from './queue';
import { attemptsPage, createEndpoint, endpoint, rotateEndpointSecret, updateEndpoint, type Endpoint } from './store';
import type { AuthContext } from '../api/auth';
import { forbidden } from '../api/errors';
import { keepBeforeEffect } from '../api/idempotency';
import { recordReply, writeOptions } from '../api/crud';
import { Reply, type RouteImpls } from '../api/handler';
import { checkDestination, PREVIOUS_SECRET_MS, queuePing, type DeliveryMessage } from './delivery';

/**
 * The webhook routes that do more than the generic entity operations (shared/api/crud.ts): create and
 * update check the URL (scheme, then DNS and every address: docs/webhooks.md, "Security") and the event
 * types; create makes the signing secret (shown once, stored encrypted) and records which resources
 * the creating key can read; rotate-secret, test and deliveries. Get, list and delete are generic.
 */
async function assertUrl(url: string): Promise<void> {
  const dest = await checkDestination(url);
  if ('refused' in dest) throw invalidField('url', dest.refused);
}
const assertEvents = (events: readonly string[]) => void changeTypeMatcher(events, 'events');

/** The resources whose events an endpoint created by this key receives: those it holds the read scope of. */
const readableBy = (auth: AuthContext) => auth.scopes.filter((s) => s.endsWith(':read') && s !== 'webhooks:read').map((s) => s.slice(0, -':read'.length));

/**
 * The resources whose events an endpoint sends: those its creating key could read (`readable`, fixed at
 * create) whose change types its `events` ask for.
 */
function deliveredResources(readable: readonly string[], events: readonly string[]): string[] {
  const wants = changeTypeMatcher(events);
  return readable.filter((r) => CHANGE_ENTITIES.some((e) => e.resource === r && CHANGE_ACTIONS.some((a) => wants(`${changeResource(e)}.${a}`))));
}

/**
 * Issue 22: changing where an endpoint's events go (url), what they are signed with (rotate-secret) or
 * which are sent (events, enabled) needs every read scope of the events it sends, before and after the
 * change; else 403 MISSING_SCOPE naming the first one missing. A key cannot steer to itself records it
 * may not read.
 */
function assertMaySteer(auth: AuthContext, ep: Endpoint, events: readonly string[] = ep.events): void {
  const needed = new Set([...deliveredResources(ep.readable, ep.events), ...deliveredResources(ep.readable, events)]);
  for (const resource of needed) {
    const scope = `${resource}:read`;
    if (isScope(scope) && !auth.scopes.includes(scope)) {
      throw forbidden(
        `This API key lacks the required scope: ${scope} (this webhook sends ${resource} events; changing its url, secret, events or enabled needs the read scope of each)`,
        {
          reason: 'MISSING_SCOPE',
          scope,
        },
      );
    }
  }
}

/** Whether a key may see an attempt of this event type in a delivery log: pings always, others with the resource's read scope. */
function mayRead(auth: AuthContext, type: string): boolean {
  if (type === PING_TYPE) return true;
  const entity = entityOfChange(type.slice(0, type.indexOf('.')));
  const scope = entity ? `${entity.resource}:read` : '';
  return isScope(scope) && auth.scopes.includes(scope);
}

async function existing(workspaceId: string, id: string) {
  const ep = await endpoint(workspaceId, id);
  if (!ep) throw notFound(webhooks.kind);
  return ep;
}

export const webhookOperations: RouteImpls = {
  createWebhook: async ({ auth, body }) => {
    assertEvents(body.events);
    await assertUrl(body.url);
    const secret = newWebhookSecret();
    const record = await createEndpoint(auth.workspaceId, body, { secret, readable: readableBy(auth), createdByKey: auth.keyId });
    return new Reply({ ...record, secret }, recordReply(record).headers);
  },

  updateWebhook: async ({ auth, params, body, headers }) => {
    if (body.events) assertEvents(body.events);
    // Steering (url, events, enabled) is checked against the endpoint read first; a description alone is
    // the generic one write.
    const steers = body.url !== undefined || body.events !== undefined || body.enabled !== undefined;
    const before = steers ? await existing(auth.workspaceId, params.id) : undefined;
    if (before) assertMaySteer(auth, before, body.events ?? before.events);
    if (body.url) await assertUrl(body.url);
    // Re-enabling resumes with the events from now on, and forgets the failures that disabled it.
    // The key that re-enables it becomes its key: what it delivers is bounded by that key's scopes from then on.
    const resume = body.enabled === true && !!before && !before.enabled ? { byKey: auth.keyId } : undefined;
    const record = await updateEndpoint(auth.workspaceId, params.id, body, { ...writeOptions(headers), ...(resume ? { resume } : {}) });
    return recordReply(record);
  },

  rotateWebhookSecret: async ({ auth, params }) => {
    const before = await existing(auth.workspaceId, params.id);
    assertMaySteer(auth, before);
    const secret = newWebhookSecret();
    await rotateEndpointSecret(auth.workspaceId, before, secret, PREVIOUS_SECRET_MS);
    return { id: params.id, secret };
  },

  testWebhook: async ({ auth, params }) => {
    const ep = await existing(auth.workspaceId, params.id);
    const event: ChangeEvent = {
      id: `evt_${ulid()}`,
      type: PING_TYPE,
      resource: 'webhook',
      resourceId: ep.id,
      occurredAt: new Date().toISOString(),
      data: { webhookId: ep.id, url: ep.url },
    };
    const answer = { id: event.id, type: PING_TYPE, queued: true };
    // The queue is not the table: with an Idempotency-Key, the answer is kept before the ping is queued.
    await keepBeforeEffect({ status: 200, body: answer, headers: {} }, () => queuePing(auth.workspaceId, ep, event, deliveryQueue<DeliveryMessage>()));
    return answer;
  },

  listWebhookDeliveries: async ({ auth, params, query }) => {
    await existing(auth.workspaceId, params.id);
    // Attempts of events the key could not read itself are left out (a page may hold fewer than `limit`).
    const page = await attemptsPage(auth.workspaceId, params.id, query.limit ?? 50, query.cursor);
    return { ...page, items: page.items.filter((a) => mayRead(auth, a.type)) };
  },
};
