import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import { changeTypeMatcher, entityOfChange, type ChangeEvent } from '../domain/changes';
import { webhooks } from '../domain/entities/webhooks';
import { parseWebhookUrl, PING_TYPE, refusedAddress, retrySchedule } from '../domain/webhooks';
import { gapTimeoutMs, readChanges } from '../data/changes';
import { repository } from '../data/repository';
import {
  advanceDispatch,
  claimAttempt,
  countExhausted,
  decryptSecret,
  dispatchPosition,
  endpoint,
  endpointsOf,
  ensureDelivery,
  getDelivery,
  lastFeedPosition,
  recordAttempt,
  resetExhausted,
  setDeliveryState,
  type Delivery,
  type Endpoint,
} from './store';
import type { Queue } from './queue';
import { keyPower } from './key-power';
import { logger } from '../platform/logger';
import * as settings from '../platform/settings';

/**
 * Webhook delivery, the same code in AWS and on a local run (docs/webhooks.md):
 *
 * - dispatch(workspace): follows the workspace's change feed from the dispatcher's own stored position;
 *   for each event and each enabled endpoint that wants it, writes the delivery item once (conditional
 *   Put keyed by endpoint + event) and queues a message; then advances the position. A crash in between
 *   re-reads the events and re-queues their deliveries (the sender ignores finished ones): at least once.
 * - handleMessage(message): one attempt of one delivery: DNS resolved and every address checked, the
 *   POST signed with the `standardwebhooks` library, the outcome logged; a failure is queued again after
 *   the next delay of the schedule; an event that exhausts the schedule counts against its endpoint, which
 *   is disabled after WEBHOOK_DISABLE_AFTER such events in a row.
 *
 * The queue is SQS in AWS (functions/webhook-dispatcher, functions/webhook-sender) and a table-backed
 * queue locally (local/webhooks.ts). Messages are deleted only after they were handled.
 */

export type DeliveryMessage = { kind: 'deliver'; workspaceId: string; webhookId: string; eventId: string } | { kind: 'dispatch'; workspaceId: string };
export type DeliveryQueue = Queue<DeliveryMessage>;

// ---- settings ----

export const webhookTimeoutMs = (): number => settings.webhookTimeoutMs();
/** http and loopback receivers: on for a local run (`WEBHOOK_ALLOW_LOOPBACK`, set by npm start), never in Lambda. */
export const allowLoopback = (): boolean => settings.webhookAllowLoopback();
export const disableAfter = (): number => settings.webhookDisableAfter();
/** At most this much of a receiver's answer is read (then the connection is closed). */
export const MAX_ANSWER_BYTES = 64 * 1024;
/** How long a rotated-out secret still signs (receivers switch over). */
export const PREVIOUS_SECRET_MS = 24 * 3_600_000;

type Resolver = (host: string) => Promise<LookupAddress[]>;
const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));
let resolver: Resolver = systemResolver;
/** Replaces DNS resolution (tests: a name that resolves to a private address); no argument restores it. */
export function setWebhookResolver(r?: Resolver): void {
  resolver = r ?? systemResolver;
}

/**
 * Where a delivery to `raw` may connect: the URL and the one checked address to connect to (so a DNS
 * answer cannot change between the check and the connection), or why it is refused.
 */
export async function checkDestination(raw: string): Promise<{ url: URL; address: string; family: number } | { refused: string }> {
  const loopbackOk = allowLoopback();
  const url = parseWebhookUrl(raw, loopbackOk);
  if (typeof url === 'string') return { refused: url };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  try {
    addresses = await resolver(host);
  } catch {
    return { refused: `host ${host.slice(0, 253)} does not resolve` };
  }
  if (addresses.length === 0) return { refused: `host ${host.slice(0, 253)} does not resolve` };
  for (const a of addresses) {
    const why = refusedAddress(a.address, loopbackOk);
    if (why) return { refused: why };
  }
  return { url, address: addresses[0]!.address, family: addresses[0]!.family };
}

// ---- sending ----

export interface PostOutcome {
  statusCode?: number;
  error?: string;
  durationMs: number;
}

/**
 * One attempt: DNS resolution and the POST within one hard timeout (WEBHOOK_TIMEOUT_MS, from before the DNS
 * lookup: a slow resolver cannot hold a batch of other workspaces' messages past the sender's own timeout),
 * no redirect followed (a 3xx is a failure), the answer read up to MAX_ANSWER_BYTES.
 */
export async function post(raw: string, body: string, headers: Record<string, string>): Promise<PostOutcome> {
  const started = performance.now();
  const timeoutMs = webhookTimeoutMs();
  const done = (o: Omit<PostOutcome, 'durationMs'>): PostOutcome => ({ ...o, durationMs: Math.round(performance.now() - started) });
  const timedOut = { error: `timeout after ${timeoutMs} ms` };
  let dnsTimer: NodeJS.Timeout | undefined;
  const dest = await Promise.race([checkDestination(raw), new Promise<'timeout'>((resolve) => (dnsTimer = setTimeout(() => resolve('timeout'), timeoutMs)))]).finally(() =>
    clearTimeout(dnsTimer),
  );
  if (dest === 'timeout') return done({ error: `${timedOut.error} (DNS lookup)` });
  if ('refused' in dest) return done({ error: `refused: ${dest.refused}` });
  const remainingMs = Math.max(0, timeoutMs - (performance.now() - started));
  const { url, address, family } = dest;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const finish = (o: Omit<PostOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(done(o));
    };
    const req = send(
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'User-Agent': 'timetrack-webhooks/1', 'Content-Length': String(Buffer.byteLength(body)), ...headers },
        // connect to the address that was checked, whatever DNS says now
        lookup: (_host, _opts, cb: (err: Error | null, address: string, family: number) => void) => cb(null, address, family),
        servername: url.hostname,
        agent: false,
      },
      (res: IncomingMessage) => {
        let read = 0;
        res.on('data', (c: Buffer) => {
          read += c.length;
          if (read > MAX_ANSWER_BYTES) finish({ statusCode: res.statusCode ?? 0 });
        });
        res.on('end', () => finish({ statusCode: res.statusCode ?? 0 }));
        res.on('error', () => finish({ statusCode: res.statusCode ?? 0 }));
      },
    );
    const timer = setTimeout(() => finish(timedOut), remainingMs);
    req.on('error', (err: NodeJS.ErrnoException) => finish({ error: err.code ?? 'connection failed' }));
    req.end(body);
  });
}

/**
 * The endpoint's signing secrets, opened: the current one, and the previous one while it still signs.
 * Opened before an attempt is claimed, so a key ring that cannot open them (a key removed too early:
 * docs/operations.md) fails the message without holding a claim.
 */
export async function openSecrets(ep: Endpoint, at = new Date()): Promise<string[]> {
  const secrets = [await decryptSecret(ep.sealedSecret)];
  if (ep.sealedPrevSecret && (ep.prevSecretUntil ?? 0) > at.getTime()) secrets.push(await decryptSecret(ep.sealedPrevSecret));
  return secrets;
}
/** The Standard Webhooks headers of a message, signed with each of the endpoint's opened secrets. */
export function signedHeaders(secrets: readonly string[], eventId: string, body: string, at = new Date()): Record<string, string> {
  const signature = secrets.map((s) => new Webhook(s).sign(eventId, at, body)).join(' ');
  return { 'webhook-id': eventId, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
}

// ---- dispatching ----

/** Whether an endpoint receives an event: enabled, wants its type, its key may read the resource (`readable`: shared/webhooks/key-power.ts), and it occurred while active. */
export function wants(ep: Endpoint, event: ChangeEvent, readable: readonly string[] = ep.readable): boolean {
  if (!ep.enabled || event.occurredAt < ep.activeSince) return false;
  const resource = entityOfChange(event.resource)?.resource;
  if (!resource || !readable.includes(resource)) return false;
  try {
    return changeTypeMatcher(ep.events)(event.type);
  } catch {
    return false;
  }
}

const BATCH = 100;

/**
 * Dispatches the workspace's new feed events to its endpoints (see the top of the file). When the read
 * stopped before a gap that may still fill, a 'dispatch' message brings the dispatcher back after the
 * gap timeout (no later write may come to wake it).
 */
export async function dispatch(workspaceId: string, queue: DeliveryQueue): Promise<{ queued: number }> {
  const endpoints: Array<Endpoint & { power: readonly string[] }> = [];
  for (const ep of (await endpointsOf(workspaceId)).filter((e) => e.enabled)) {
    const power = await keyPower(workspaceId, ep);
    if ('stopped' in power) await disableEndpoint(workspaceId, ep.id, power.stopped);
    else endpoints.push({ ...ep, power: power.readable });
  }
  if (endpoints.length === 0) return { queued: 0 };
  let position = await dispatchPosition(workspaceId);
  let queued = 0;
  for (;;) {
    const read = await readChanges(workspaceId, { after: position, limit: BATCH });
    const messages: Array<{ body: DeliveryMessage; delaySeconds: number }> = [];
    for (const event of read.events) {
      for (const ep of endpoints) {
        if (!wants(ep, event, ep.power)) continue;
        const d = await ensureDelivery(workspaceId, ep.id, event);
        if (d.status === 'pending') messages.push({ body: { kind: 'deliver', workspaceId, webhookId: ep.id, eventId: event.id }, delaySeconds: 0 });
      }
    }
    if (messages.length) await queue.send(messages);
    queued += messages.length;
    if (read.position > position) await advanceDispatch(workspaceId, read.position);
    position = read.position;
    if (!read.hasMore) break;
  }
  if ((await lastFeedPosition(workspaceId)) > position) {
    await queue.send([{ body: { kind: 'dispatch', workspaceId }, delaySeconds: Math.ceil(gapTimeoutMs() / 1000) + 1 }]);
  }
  return { queued };
}

/** Queues a `webhook.ping` to one endpoint (POST /v1/webhooks/{id}/test). */
export async function queuePing(workspaceId: string, ep: { id: string }, event: ChangeEvent, queue: DeliveryQueue): Promise<void> {
  await ensureDelivery(workspaceId, ep.id, event);
  await queue.send([{ body: { kind: 'deliver', workspaceId, webhookId: ep.id, eventId: event.id }, delaySeconds: 0 }]);
}

// ---- one message ----

/** SQS delays a message at most 15 minutes: a longer wait is several hops. */
export const MAX_DELAY_SECONDS = 900;

/** A message that is neither a well-formed 'deliver' nor 'dispatch' one: it fails (then goes to the dead-letter queue). */
class MalformedMessage extends Error {
  constructor() {
    super('malformed webhook message');
    this.name = 'MalformedMessage';
  }
}
const isText = (v: unknown) => typeof v === 'string' && v.length > 0;
function assertMessage(m: unknown): asserts m is DeliveryMessage {
  const ok =
    typeof m === 'object' &&
    m !== null &&
    'workspaceId' in m &&
    'kind' in m &&
    isText(m.workspaceId) &&
    (m.kind === 'dispatch' || (m.kind === 'deliver' && 'webhookId' in m && 'eventId' in m && isText(m.webhookId) && isText(m.eventId)));
  if (!ok) throw new MalformedMessage();
}

export async function handleMessage(msg: DeliveryMessage, queue: DeliveryQueue): Promise<void> {
  assertMessage(msg);
  if (msg.kind === 'dispatch') {
    await dispatch(msg.workspaceId, queue);
    return;
  }
  const d = await getDelivery(msg.workspaceId, msg.webhookId, msg.eventId);
  if (!d || d.status !== 'pending') return; // finished (a duplicate message), or expired
  const now = Date.now();
  if (d.nextAttemptAt > now + 500) {
    // not due yet: a long delay in hops, or a message re-handled after a crash that had already scheduled it
    await queue.send([{ body: msg, delaySeconds: Math.min(MAX_DELAY_SECONDS, (d.nextAttemptAt - now) / 1000) }]);
    return;
  }
  const ep = await endpoint(msg.workspaceId, msg.webhookId);
  // the key's power at sending time too (a retry hours later): revoked or expired stops it, narrowed drops the event
  const power = ep?.enabled ? await keyPower(msg.workspaceId, ep) : undefined;
  if (power && 'stopped' in power) await disableEndpoint(msg.workspaceId, ep!.id, power.stopped);
  if (!ep || !power || 'stopped' in power || (d.event.type !== PING_TYPE && !wants({ ...ep, activeSince: '' }, d.event, power.readable))) {
    await setDeliveryState(d, { status: 'dropped', nextAttemptAt: d.nextAttemptAt });
    return;
  }
  const secrets = await openSecrets(ep);
  const claim = await claimAttempt(d, webhookTimeoutMs() + CLAIM_MARGIN_MS);
  if (claim === 'moved') return; // another handler made this attempt
  if (claim !== 'claimed') {
    await queue.send([{ body: msg, delaySeconds: Math.min(MAX_DELAY_SECONDS, claim / 1000 + 0.05) }]);
    return;
  }
  await attempt(d, ep, secrets, queue);
}
/** A claim outlives the attempt's timeout (DNS and POST together) by this much (signing, the table calls around it). */
const CLAIM_MARGIN_MS = 20_000;

async function attempt(d: Delivery, ep: Endpoint, secrets: readonly string[], queue: DeliveryQueue): Promise<void> {
  const body = JSON.stringify(d.event);
  const at = new Date();
  const outcome = await post(ep.url, body, signedHeaders(secrets, d.event.id, body, at));
  const ok = outcome.statusCode !== undefined && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const number = d.attempts + 1;
  const schedule = retrySchedule();
  const delay = ok ? undefined : schedule[number - 1];
  const nextAttemptAt = delay === undefined ? 0 : Date.now() + delay * 1000;
  const status = ok ? 'delivered' : delay === undefined ? 'failed' : 'pending';
  const recorded = await recordAttempt(
    d,
    {
      eventId: d.event.id,
      type: d.event.type,
      attempt: number,
      at: at.toISOString(),
      ...(outcome.statusCode !== undefined ? { statusCode: outcome.statusCode } : {}),
      ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      durationMs: outcome.durationMs,
      ...(status === 'pending' ? { nextRetryAt: new Date(nextAttemptAt).toISOString() } : {}),
    },
    { status, nextAttemptAt },
  );
  logger.info('Webhook attempt', { webhookId: ep.id, eventId: d.event.id, attempt: number, statusCode: outcome.statusCode, error: outcome.error, status });
  if (!recorded) return; // another handler of the same message moved the delivery on first
  if (status === 'pending') {
    // SQS takes whole seconds (shared/webhooks/queue.ts rounds up); the local queue keeps fractions (short test schedules)
    await queue.send([{ body: { kind: 'deliver', workspaceId: d.workspaceId, webhookId: ep.id, eventId: d.event.id }, delaySeconds: Math.min(MAX_DELAY_SECONDS, delay!) }]);
  } else if (status === 'delivered') {
    if (ep.failedEvents > 0) await resetExhausted(d.workspaceId, ep.id);
  } else if (d.event.type !== PING_TYPE) {
    const failed = await countExhausted(d.workspaceId, ep.id);
    if (failed >= disableAfter()) await disableEndpoint(d.workspaceId, ep.id, `${failed} events in a row exhausted their retries without a 2xx answer`);
  }
}

/** Disables an endpoint (through the repository's one write path), saying why. */
async function disableEndpoint(workspaceId: string, id: string, why: string): Promise<void> {
  const reason = `Disabled on ${new Date().toISOString()}: ${why}`;
  try {
    await repository(webhooks).update(workspaceId, { id }, { enabled: false }, { system: { set: { disabledReason: reason } } });
  } catch (err) {
    logger.warn('Could not disable webhook', { webhookId: id, error: (err as Error).name });
  }
}
