import type { AuthContext } from './auth';
import { consume, type Limits, type RateDecision } from '../data/rate-counter';
import { ApiError, forbidden } from './errors';
import { logger } from '../platform/logger';

/**
 * Per-key rate limits at the API: the counting is shared/data/rate-counter.ts (one conditional
 * UpdateItem per request); this module answers with quota headers, a 403 + Retry-After over a limit,
 * and a 503 when the counter cannot be written (fail closed). docs/rate-limits.md explains the design.
 */
/**
 * Quota headers (draft-ietf-httpapi-ratelimit-headers-10): the two policies, and for each the
 * remaining requests and the seconds until its window resets.
 *   RateLimit-Policy: "minute";q=60;w=60, "hour";q=1000;w=3600
 *   RateLimit: "minute";r=57;t=23, "hour";r=994;t=1823
 */
export function policyHeader(limits: Limits): string {
  return `"minute";q=${limits.perMinute};w=60, "hour";q=${limits.perHour};w=3600`;
}
/** The `RateLimit` header: remaining requests (never below 0) and seconds to the reset of each window. */
export function rateLimitHeader(limits: Limits, d: RateDecision): string {
  const minuteLeft = Math.max(0, limits.perMinute - d.minuteCount);
  const hourLeft = Math.max(0, limits.perHour - d.hourCount);
  return `"minute";r=${minuteLeft};t=${d.window.minuteResetSeconds}, "hour";r=${hourLeft};t=${d.window.hourResetSeconds}`;
}
/** The quota left in both windows after a request (GET /v1/me; the same numbers as the RateLimit header). */
export function quotaOf(limits: Limits, d: RateDecision) {
  return {
    minute: { limit: limits.perMinute, remaining: Math.max(0, limits.perMinute - d.minuteCount), resetSeconds: d.window.minuteResetSeconds },
    hour: { limit: limits.perHour, remaining: Math.max(0, limits.perHour - d.hourCount), resetSeconds: d.window.hourResetSeconds },
  };
}
export type Quota = ReturnType<typeof quotaOf>;
export function quotaHeaders(limits: Limits, d: RateDecision): Record<string, string> {
  return { 'RateLimit-Policy': policyHeader(limits), RateLimit: rateLimitHeader(limits, d) };
}

/**
 * The middleware's work, run right after authentication and before anything else: count the request,
 * put the quota headers on the request's response headers, and refuse a request over a limit with
 * 403 FORBIDDEN + Retry-After. Failure policy: FAIL CLOSED. When the counter cannot be written
 * (throttled, timeout, unreachable) the request is answered 503 SERVICE_UNAVAILABLE with
 * Retry-After: 1 and nothing else runs; docs/rate-limits.md gives the reasons.
 */
export async function enforceRateLimit(auth: AuthContext, responseHeaders: Record<string, string>): Promise<RateDecision> {
  const limits: Limits = { perMinute: auth.perMinute, perHour: auth.perHour };
  responseHeaders['RateLimit-Policy'] = policyHeader(limits);
  let d: RateDecision;
  try {
    d = await consume(auth.keyId, limits);
  } catch (err) {
    logger.error('Rate-limit counter unavailable; request refused (fail closed)', err as Error);
    throw new ApiError('SERVICE_UNAVAILABLE', 'The service is busy; retry after a short wait', undefined, { 'Retry-After': '1' });
  }
  responseHeaders.RateLimit = rateLimitHeader(limits, d);
  if (d.allowed) return d;
  const [limit, unit, retryAfter] =
    d.exceeded === 'hour' ? [limits.perHour, 'hour' as const, d.window.hourResetSeconds] : [limits.perMinute, 'minute' as const, d.window.minuteResetSeconds];
  logger.info('Rate limit exceeded', { limit: `${limit}/${unit}`, retryAfter });
  throw forbidden(`Rate limit exceeded: ${limit} requests per ${unit}`, { reason: 'RATE_LIMITED', window: unit, limit, retryAfter }, { 'Retry-After': String(retryAfter) });
}
