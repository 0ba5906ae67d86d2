import { getSecret } from '../platform/secret-value';
import * as settings from '../platform/settings';

/**
 * The cursor-signing secret.
 *
 * - Locally (local gateway, tests, admin CLI): `CURSOR_SECRET` holds a development secret.
 * - In AWS: `CURSOR_SECRET_ARN` names a Secrets Manager secret generated at deploy time by the CDK stack.
 *   Its value is never in the template or in the function's environment; it is fetched once per cold
 *   start (shared/platform/secret-value.ts: @aws-sdk/client-secrets-manager, from the runtime) and kept for the life of the
 *   execution environment.
 *
 * A failed fetch is not cached, so the next call retries.
 */
let cached: Promise<string> | undefined;

export async function getCursorSecret(): Promise<string> {
  const local = settings.cursorSecret();
  if (local) return local;

  const arn = settings.cursorSecretArn();
  if (!arn) {
    throw new Error('Cursor-signing secret not configured: set CURSOR_SECRET (local run, tests) or CURSOR_SECRET_ARN (AWS, set by the CDK stack)');
  }

  cached ??= fetchSecret(arn).catch((err: unknown) => {
    cached = undefined;
    throw err;
  });
  return cached;
}

async function fetchSecret(arn: string): Promise<string> {
  const value = await getSecret(arn);
  if (typeof value !== 'string' || value.length === 0) {
    throw new Error('Cursor-signing secret (CURSOR_SECRET_ARN) has no string value');
  }
  return value;
}

/** For tests: forget the cached value. */
export function resetCursorSecretCache(): void {
  cached = undefined;
}

/**
 * The key ring of webhook signing secrets (docs/operations.md, "Rotating the webhook key ring"): the keys
 * that encrypt the `whsec_` secrets stored in the table, separate from the cursor secret so that rotating
 * either never breaks the other. Its value is JSON: `{"current":"<key id>","<key id>":"<key material>",...}`
 * (key ids of 1-32 letters, digits, `_` or `-`). New ciphertexts use `current`; every ciphertext names
 * the key id it was sealed under, so a rotation adds a key and moves `current`, and the old keys stay
 * until `admin webhooks reencrypt` reports that no ciphertext uses them.
 *
 * - Locally (npm start, tests, admin CLI): `WEBHOOK_SECRET_KEYS` holds the JSON, read at every use.
 * - In AWS: `WEBHOOK_KEYS_SECRET_ARN` names a Secrets Manager secret (generated at deploy time with one
 *   key), fetched once per cold start; a ciphertext naming a key id the cached ring lacks (sealed by a
 *   function that already saw a newer ring) fetches the ring again once.
 */
export interface KeyRing {
  current: string;
  keys: ReadonlyMap<string, string>;
}
export const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
/** The development key ring of a local run (npm start, the admin CLI against DynamoDB Local); deployed stacks generate theirs. */
export const LOCAL_WEBHOOK_KEY_RING = JSON.stringify({ current: 'dev1', dev1: 'local-development-webhook-key-not-for-production' });

export function parseKeyRing(value: string): KeyRing {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new Error('Webhook key ring is not JSON: expected {"current":"<key id>","<key id>":"<key material>"}');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('Webhook key ring must be a JSON object');
  const entries: Array<[string, unknown]> = Object.entries(parsed);
  const current = entries.find(([id]) => id === 'current')?.[1];
  const keys = new Map<string, string>();
  for (const [id, material] of entries.filter(([name]) => name !== 'current')) {
    if (!KEY_ID.test(id)) throw new Error(`Webhook key ring: key id ${JSON.stringify(id.slice(0, 40))} is not 1-32 letters, digits, _ or -`);
    if (typeof material !== 'string' || material.length < 32) throw new Error(`Webhook key ring: key ${id} must be a string of at least 32 characters`);
    keys.set(id, material);
  }
  if (typeof current !== 'string' || !keys.has(current)) throw new Error('Webhook key ring: "current" must name one of its keys');
  return { current, keys };
}

let ringCache: Promise<KeyRing> | undefined;
async function fetchRing(arn: string): Promise<KeyRing> {
  const value = await getSecret(arn);
  if (typeof value !== 'string' || value.length === 0) throw new Error('Webhook key ring (WEBHOOK_KEYS_SECRET_ARN) has no string value');
  return parseKeyRing(value);
}

/** The key ring; `refresh` fetches it again (a key id the cached ring does not know). */
export async function getWebhookKeyRing(refresh = false): Promise<KeyRing> {
  const local = settings.webhookSecretKeys();
  if (local) return parseKeyRing(local);
  const arn = settings.webhookKeysSecretArn();
  if (!arn) {
    throw new Error('Webhook key ring not configured: set WEBHOOK_SECRET_KEYS (local run, tests) or WEBHOOK_KEYS_SECRET_ARN (AWS, set by the CDK stack)');
  }
  if (refresh) ringCache = undefined;
  ringCache ??= fetchRing(arn).catch((err: unknown) => {
    ringCache = undefined;
    throw err;
  });
  return ringCache;
}
