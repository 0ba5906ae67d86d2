import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { invalidField } from '../domain/errors';
import { getCursorSecret } from './secrets';

/**
 * Signed, encrypted page cursors. A cursor is `<payload>.<signature>`, both base64url:
 *
 *   payload   = AES-256-GCM(iv, JSON { v: 1, w: <workspaceId>, b: <binding hash>, k: <position key> }), as iv|tag|ciphertext
 *   signature = HMAC-SHA256(cursor secret, "cursor.v1." + payload)
 *
 * - `k` is the storage key (table key plus index key attributes) of the last item the page returned; it
 *   becomes the next Query's ExclusiveStartKey. It holds the workspace id and the table's key layout,
 *   which the API never shows (responses carry no storage attribute and no workspace id): so the JSON is
 *   encrypted, with a key derived from the cursor secret, and the cursor is opaque to the client.
 * - `w` binds the cursor to the caller's workspace and `b` to the query it was issued for (a SHA-256 of
 *   the canonical JSON of the query definition: index, key condition and its values, filter, direction).
 *   The same filters written differently (a date vs the same instant as a date-time) canonicalize to the
 *   same query, so they accept each other's cursors; any other query rejects them.
 *
 * Every failure is a 400 VALIDATION_ERROR on the field `cursor`, raised before any data is read.
 * Cursors do not expire; rotating the secret invalidates every outstanding cursor (clients restart).
 */
export interface CursorBinding {
  workspaceId: string;
  /** Anything JSON-serializable that describes the query; only its canonical hash is kept. */
  query: unknown;
}

export type CursorKey = Record<string, string>;

const VERSION = 1;
const DOMAIN = 'cursor.v1.';

/** JSON with object keys sorted at every level, so equal values always serialize identically. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const fields: Array<[string, unknown]> = Object.entries(value);
  const entries = fields.filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function bindingHash(query: unknown): string {
  return createHash('sha256').update(canonicalJson(query)).digest('base64url');
}

async function sign(payload: string): Promise<Buffer> {
  return createHmac('sha256', await getCursorSecret())
    .update(DOMAIN + payload)
    .digest();
}

/** The payload's encryption key: derived from the cursor secret, distinct from the signing use of it. */
async function encryptionKey(): Promise<Buffer> {
  return createHmac('sha256', await getCursorSecret())
    .update('cursor.v1.encryption-key')
    .digest();
}

export async function encodeCursor(binding: CursorBinding, key: CursorKey): Promise<string> {
  const plain = Buffer.from(JSON.stringify({ v: VERSION, w: binding.workspaceId, b: bindingHash(binding.query), k: key }));
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await encryptionKey(), iv);
  const encrypted = Buffer.concat([cipher.update(plain), cipher.final()]);
  const payload = Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64url');
  return `${payload}.${(await sign(payload)).toString('base64url')}`;
}

async function decrypt(payload: string): Promise<string> {
  const raw = Buffer.from(payload, 'base64url');
  if (raw.length < 29) throw new Error('short');
  const decipher = createDecipheriv('aes-256-gcm', await encryptionKey(), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

const invalid = (message: string) => invalidField('cursor', message);
const B64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Verifies a cursor and returns its position key. `keyAttributes` are the attribute names the key must
 * have (exactly those, all strings).
 */
export async function decodeCursor(cursor: string, binding: CursorBinding, keyAttributes: readonly string[]): Promise<CursorKey> {
  const parts = cursor.split('.');
  if (parts.length !== 2 || !B64URL.test(parts[0]!) || !B64URL.test(parts[1]!)) {
    throw invalid('is not a valid cursor; pass the nextCursor of the previous page unchanged');
  }
  const [payload, signature] = parts as [string, string];
  const expected = await sign(payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw invalid('is not a valid cursor (it was altered or truncated); pass the nextCursor of the previous page unchanged');
  }
  let body: { v?: unknown; w?: unknown; b?: unknown; k?: unknown };
  try {
    body = JSON.parse(await decrypt(payload)) as typeof body;
  } catch {
    throw invalid('is not a valid cursor');
  }
  if (body.v !== VERSION) throw invalid('was issued by an older version of the API; start again without a cursor');
  if (body.w !== binding.workspaceId) throw invalid('was not issued for this workspace');
  if (body.b !== bindingHash(binding.query)) {
    throw invalid('was issued for other filters; repeat the request with the same filters, or start again without a cursor');
  }
  const key = body.k;
  if (!isPositionKey(key, keyAttributes)) throw invalid('is not a valid cursor');
  return key;
}

/** Whether a decrypted `k` is a position key: an object of exactly the attributes named, each a string. */
function isPositionKey(key: unknown, keyAttributes: readonly string[]): key is CursorKey {
  if (!key || typeof key !== 'object' || Array.isArray(key)) return false;
  const attributes: Array<[string, unknown]> = Object.entries(key);
  return attributes.length === keyAttributes.length && keyAttributes.every((a) => attributes.some(([name, v]) => name === a && typeof v === 'string'));
}
