import { findById } from '../data/apikey-store';
import type { Endpoint } from './store';
import { keyState, type ApiKeyRecord } from '../domain/apikeys';
import * as settings from '../platform/settings';

/**
 * A key's power ends with its scopes (issue 36): a webhook delivers only the events of resources the API key
 * that made it (or re-enabled it) may read at delivery time, never more than it could read when it made the
 * webhook; a webhook whose key is revoked, expired or gone stops delivering (the caller disables it, saying
 * why). A rolled key is one identity with its successor (`replacedBy`): once the old key is past its grace or
 * revoked, the webhook follows the successor, so a rotation does not stop an integration. The key is read by id (GSI2 + GetItem) and kept no longer than the authorizer's cache
 * (`API_KEY_CACHE_SECONDS` / `AUTH_CACHE_TTL_SECONDS`, 300 s): a key narrowed or revoked reaches delivery
 * when it reaches the API. A webhook made before its key was recorded keeps what it was made for.
 */
export type KeyPower = { readable: readonly string[] } | { stopped: string };

const cache = new Map<string, { until: number; rec: ApiKeyRecord | undefined }>();

async function keyOf(id: string): Promise<ApiKeyRecord | undefined> {
  const now = Date.now();
  const hit = cache.get(id);
  if (hit && hit.until > now) return hit.rec;
  const rec = await findById(id);
  cache.set(id, { until: now + settings.apiKeyCacheSeconds() * 1000, rec });
  return rec;
}

export async function keyPower(workspaceId: string, ep: Pick<Endpoint, 'readable' | 'createdByKey'>, now = new Date()): Promise<KeyPower> {
  if (!ep.createdByKey) return { readable: ep.readable };
  let rec = await keyOf(ep.createdByKey);
  if (!rec || rec.workspaceId !== workspaceId) return { stopped: 'the API key that made it no longer exists' };
  // a rolled key is one identity with its successor: past the roll, the webhook follows the successor
  for (let hops = 0; hops < 10 && rec.replacedBy && keyState(rec, now) !== 'active'; hops++) {
    const next = await keyOf(rec.replacedBy);
    if (!next || next.workspaceId !== workspaceId) break;
    rec = next;
  }
  const state = keyState(rec, now);
  if (state !== 'active')
    return { stopped: `the API key that made it (${rec.prefix ?? rec.id}, "${rec.name}") is ${state}; enable it again with a key that may read what it sends` };
  const scopes = new Set<string>(rec.scopes);
  return { readable: ep.readable.filter((resource) => scopes.has(`${resource}:read`)) };
}
