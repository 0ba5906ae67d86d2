import { createHash, randomBytes } from 'node:crypto';
import type { Scope } from './auth';

/**
 * API key format: `svc_live_` + 34 random base62 characters + 6 base62 checksum characters = 49.
 * The checksum (first 6 base62 digits of SHA-256 over prefix+random) lets the authorizer reject a
 * mistyped or invented key without a database read. Only SHA-256(key) is ever stored.
 */
export const KEY_PREFIX = 'svc_live_';
const RANDOM_LENGTH = 34;
const CHECKSUM_LENGTH = 6;
export const KEY_LENGTH = KEY_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(bytes: Buffer, length: number): string {
  let n = BigInt('0x' + bytes.toString('hex'));
  let out = '';
  for (let i = 0; i < length; i++) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}

function checksum(body: string): string {
  return base62(createHash('sha256').update(body).digest(), CHECKSUM_LENGTH);
}

export function generateApiKey(): string {
  // Rejection-free: 34 base62 digits carry ~202 bits; take them from 32 random bytes (256 bits).
  const body = KEY_PREFIX + base62(randomBytes(32), RANDOM_LENGTH);
  return body + checksum(body);
}

/** Format and checksum only; says nothing about whether the key exists. */
export function isWellFormedApiKey(key: unknown): key is string {
  if (typeof key !== 'string' || key.length !== KEY_LENGTH || !KEY_PATTERN.test(key)) return false;
  const body = key.slice(0, KEY_LENGTH - CHECKSUM_LENGTH);
  return checksum(body) === key.slice(KEY_LENGTH - CHECKSUM_LENGTH);
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * Workspace ids become the first segment of every storage key (`WS#<id>...`), so they may not contain
 * the key separator `#` or anything else outside a plain identifier alphabet.
 */
export const WORKSPACE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const isValidWorkspaceId = (id: string): boolean => WORKSPACE_ID_PATTERN.test(id);

export const DEFAULT_LIMITS = { perMinute: 60, perHour: 1000 } as const;

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  name: string;
  scopes: Scope[];
  perMinute: number;
  perHour: number;
  expiresAt?: string;
  createdAt: string;
  /** `svc_live_` and the next 4 characters; absent on keys made before it was kept. */
  prefix?: string;
  /** Who made it: a person's e-mail (the console) or `admin-cli`; absent on keys made before it was kept. */
  createdBy?: string;
  lastUsedAt?: string;
  revokedAt?: string;
  /** The key this one succeeded by a roll (its id). */
  replaces?: string;
  /** This key's successor by its latest roll (its id). */
  replacedBy?: string;
  /** The expiry the key had before its first roll (null: none): a roll during the grace gives the successor this one. */
  preRollExpiresAt?: string | null;
}

/** A key's public prefix: `svc_live_` and the next 4 characters (shown in the console; not a secret). */
export const PREFIX_LENGTH = KEY_PREFIX.length + 4;
export const keyPrefixOf = (key: string) => key.slice(0, PREFIX_LENGTH);

export type KeyState = 'active' | 'revoked' | 'expired';
export function keyState(rec: Pick<ApiKeyRecord, 'revokedAt' | 'expiresAt'>, now = new Date()): KeyState {
  if (rec.revokedAt) return 'revoked';
  if (rec.expiresAt && Date.parse(rec.expiresAt) <= now.getTime()) return 'expired';
  return 'active';
}
