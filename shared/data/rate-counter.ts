import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, queryAll, tableName, type StoredItem } from './db';
import { keys } from './keys';
import { TABLE_TTL_ATTRIBUTE, TYPE_ATTRIBUTE } from './table';
import { ITEM_TYPES } from './item-types';

/**
 * The rate-counter store: per-key rate limits of N requests per clock minute and M per clock hour (fixed
 * windows that reset at the start of each minute and hour, as the spec says), counted here; the API's
 * middleware (shared/api/rate-limit.ts) turns the decision into headers and a 403. docs/rate-limits.md
 * explains the design.
 *
 * Storage: ONE counter item per key per hour, `RATE#<keyId>` / `<hour start, ISO>`, holding
 *   h    – requests accepted in this hour
 *   mNN  – requests accepted in minute NN (00..59) of this hour, one attribute per minute
 *   r    – requests refused in this hour for a limit (written only by a refused request, see below)
 *   ttl  – hour end + 8 days (DynamoDB TTL cleans up; correctness never depends on it). The hour items
 *          are also the console's per-key usage (`h` and `r` of the last 168 hours, hourlyUsage), which
 *          is why they are kept 8 days rather than one hour: usage costs no extra call on the request path.
 *
 * Because every minute has its own attribute, the minute "rollover" needs no reset and no branch:
 * every request, first of a minute or not, is the same single conditional UpdateItem
 *
 *   SET ttl = :ttl, _type = :type  ADD h :1, mNN :1
 *   IF (h missing OR h < perHour) AND (mNN missing OR mNN < perMinute)
 *
 * DynamoDB applies condition and update atomically per item, so concurrent requests are counted
 * exactly (N concurrent requests against limit L: exactly min(N, L) pass). A rejected request is not
 * counted (the condition fails, nothing is written) and the old item comes back with the error
 * (ReturnValuesOnConditionCheckFailure), so deciding which limit was hit costs no extra read.
 * The hour item never exceeds ~60 small attributes (< 1 KB): every call is 1 WCU.
 */

/** Milliseconds since the epoch. Tests replace it (setRateLimitClock) to move through windows. */
let clock: () => number = () => Date.now();
export const rateLimitNow = (): number => clock();
/** Overrides the limiter's clock (tests, bench); call without an argument to restore Date.now. */
export function setRateLimitClock(now?: () => number): void {
  clock = now ?? (() => Date.now());
}

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** Kept 8 days after the hour ends: the console charts the last 7 days (168 hours) of a key's usage. */
export const TTL_AFTER_HOUR_END_SECONDS = 8 * 86_400;
const COUNTER_TYPE = ITEM_TYPES.rateCounter;

export interface Window {
  /** Start of the hour (ms). */
  hourStart: number;
  /** Minute of the hour, 0..59. */
  minuteOfHour: number;
  /** Whole seconds until the current minute / hour ends: 1..60 and 1..3600. */
  minuteResetSeconds: number;
  hourResetSeconds: number;
}

export function windowAt(now: number): Window {
  const hourStart = Math.floor(now / HOUR) * HOUR;
  const minuteStart = Math.floor(now / MINUTE) * MINUTE;
  return {
    hourStart,
    minuteOfHour: (minuteStart - hourStart) / MINUTE,
    minuteResetSeconds: Math.max(1, Math.ceil((minuteStart + MINUTE - now) / 1000)),
    hourResetSeconds: Math.max(1, Math.ceil((hourStart + HOUR - now) / 1000)),
  };
}

/** The storage key of a key's counter for the hour that starts at hourStart. */
export const counterKey = (keyId: string, hourStart: number) => keys.rateCounter(keyId, new Date(hourStart).toISOString());
export const minuteAttribute = (minuteOfHour: number) => `m${String(minuteOfHour).padStart(2, '0')}`;

export interface Limits {
  perMinute: number;
  perHour: number;
}

export type RateDecision =
  | { allowed: true; minuteCount: number; hourCount: number; window: Window }
  | { allowed: false; exceeded: 'minute' | 'hour'; minuteCount: number; hourCount: number; window: Window };

/** A number from a returned item, marshalled ({ N: '3' }) or not (3); 0 when absent. */
function countOf(item: StoredItem | undefined, name: string): number {
  const v = item?.[name] as { N?: string } | number | undefined;
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && typeof v.N === 'string') return Number(v.N);
  return 0;
}

/**
 * Counts one request of a key against both windows with exactly one DynamoDB call (a conditional
 * UpdateItem). Throws whatever DynamoDB throws other than the condition failure (see enforceRateLimit
 * for the failure policy).
 */
export async function consume(keyId: string, limits: Limits, now = rateLimitNow()): Promise<RateDecision> {
  const window = windowAt(now);
  const m = minuteAttribute(window.minuteOfHour);
  try {
    const res = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: counterKey(keyId, window.hourStart),
        UpdateExpression: 'SET #ttl = :ttl, #type = :type ADD #h :one, #m :one',
        ConditionExpression: '(attribute_not_exists(#h) OR #h < :perHour) AND (attribute_not_exists(#m) OR #m < :perMinute)',
        ExpressionAttributeNames: { '#ttl': TABLE_TTL_ATTRIBUTE, '#type': TYPE_ATTRIBUTE, '#h': 'h', '#m': m },
        ExpressionAttributeValues: {
          ':ttl': Math.floor((window.hourStart + HOUR) / 1000) + TTL_AFTER_HOUR_END_SECONDS,
          ':type': COUNTER_TYPE,
          ':one': 1,
          ':perHour': limits.perHour,
          ':perMinute': limits.perMinute,
        },
        ReturnValues: 'UPDATED_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { allowed: true, minuteCount: countOf(res.Attributes, m), hourCount: countOf(res.Attributes, 'h'), window };
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
    const old = err.Item as StoredItem | undefined;
    const hourCount = countOf(old, 'h');
    const minuteCount = countOf(old, m);
    // Both exhausted: the hour is the binding limit (waiting for the next minute would not help).
    const exceeded = hourCount >= limits.perHour ? 'hour' : 'minute';
    await countRefused(keyId, window);
    return { allowed: false, exceeded, minuteCount, hourCount, window };
  }
}

/**
 * Counts a refused request in the hour's `r` (the console's "rate-limited" series). Only a refused request
 * pays this second write; an accepted one still makes exactly one call. Best effort: a failure here never
 * changes the answer (the request is refused either way).
 */
async function countRefused(keyId: string, window: Window): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: counterKey(keyId, window.hourStart),
        UpdateExpression: 'ADD #r :one',
        ExpressionAttributeNames: { '#r': 'r' },
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
  } catch {
    // informational only
  }
}

export interface HourUsage {
  /** Start of the hour, ISO 8601. */
  hour: string;
  requests: number;
  rateLimited: number;
}

/**
 * A key's requests per clock hour over the last `hours` hours (this one included), oldest first, with the
 * hours without any request as zeros: one Query over the key's counter items (at most 168 items of < 1 KB).
 */
export async function hourlyUsage(keyId: string, hours: number, now = rateLimitNow()): Promise<HourUsage[]> {
  const last = windowAt(now).hourStart;
  const first = last - (hours - 1) * HOUR;
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :a AND :b',
    ExpressionAttributeValues: { ':pk': counterKey(keyId, 0).PK, ':a': new Date(first).toISOString(), ':b': new Date(last).toISOString() },
    ProjectionExpression: 'SK, h, r',
  });
  const found = new Map<string, StoredItem>(items.map((item) => [String(item.SK), item]));
  const out: HourUsage[] = [];
  for (let t = first; t <= last; t += HOUR) {
    const hour = new Date(t).toISOString();
    const item = found.get(hour);
    out.push({ hour, requests: countOf(item, 'h'), rateLimited: countOf(item, 'r') });
  }
  return out;
}
