import { createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTHeaderParameters, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { normalizeEmail } from '../domain/roles';
import * as settings from '../platform/settings';

/**
 * Verifies the token the console page sends (`Authorization: Bearer <ID token>`) with `jose` against the
 * issuer's JWKS: RS256 signature by a key of that JWKS (no `alg: none`, no HMAC), `iss` = the issuer, `aud`
 * = the console's client id (and, when `aud` names several, `azp` = the client id: OpenID Connect Core 3.1.3.7),
 * `exp` in the future and `iat` not in the future and at most `maxAgeSeconds` old (60 s of clock tolerance;
 * jose's `maxTokenAge`), `token_use` = `id` (what Cognito
 * puts in its ID tokens; the local provider adds the same claim), and an `email` with `email_verified`
 * true. The person is that e-mail. The same code runs in the console authorizer in AWS (Cognito) and
 * locally (the provider `npm start` embeds): only CONSOLE_ISSUER, CONSOLE_CLIENT_ID and CONSOLE_JWKS_URL differ.
 */
export interface TokenConfig {
  issuer: string;
  clientId: string;
  /** Default: `<issuer>/.well-known/jwks.json` (Cognito's, and the local provider's). */
  jwksUrl?: string;
  /** The oldest `iat` accepted (default 3600 s; the stack sets the ID token validity, 15 minutes: CONSOLE_TOKEN_MAX_AGE_SECONDS). */
  maxAgeSeconds?: number;
}
export const DEFAULT_TOKEN_MAX_AGE_SECONDS = 3600;

export function tokenConfigFromEnv(): TokenConfig {
  const issuer = settings.consoleIssuer();
  const clientId = settings.consoleClientId();
  const jwksUrl = settings.consoleJwksUrl();
  const maxAge = settings.consoleTokenMaxAgeSeconds();
  if (!issuer || !clientId) throw new Error('CONSOLE_ISSUER and CONSOLE_CLIENT_ID must be set');
  return { issuer, clientId, maxAgeSeconds: maxAge, ...(jwksUrl ? { jwksUrl } : {}) };
}

export const jwksUrlOf = (c: TokenConfig) => c.jwksUrl ?? `${c.issuer.replace(/\/$/, '')}/.well-known/jwks.json`;

/** Why a token was refused (logged, never sent: the caller always gets the same 401). */
export class TokenRefused extends Error {
  constructor(readonly reason: string) {
    super(`token refused: ${reason}`);
    this.name = 'TokenRefused';
  }
}

export interface Person {
  email: string;
  /** The token's subject at its issuer. */
  sub: string;
  /** When the token expires (seconds since the epoch). */
  exp: number;
}

/**
 * The issuer's key set could not be fetched or read, and the token needs a key the last good set does not
 * have (or there is no last good set yet): not the caller's fault. The authorizer throws it on, which both
 * gateways answer 503 SERVICE_UNAVAILABLE with Retry-After (AUTHORIZER_CONFIGURATION_ERROR), never 401.
 */
export class KeySetUnavailable extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`the key set at ${url} is unavailable: ${reason}`);
    this.name = 'KeySetUnavailable';
  }
}

export interface KeySetOptions {
  /** Timeout of one fetch (default 1 s): two attempts and the pause between stay well under the authorizer's 5 s. */
  timeoutMs?: number;
  /** Fetches per refresh (default 2). */
  attempts?: number;
  /** Age after which the set is refreshed in the background while it keeps being used (default 10 minutes). */
  refreshAfterMs?: number;
  /** A token naming a key the set does not have refreshes it at most this often (default 30 s). */
  cooldownMs?: number;
}

/**
 * The issuer's JWKS with the last good set kept: a failed refresh never drops it, so people signed in keep
 * working through an outage of the key set. The set is fetched on first use (a failure: KeySetUnavailable);
 * past `refreshAfterMs` it is refreshed in the background (the request goes on with the set it has); a
 * token naming an unknown `kid` refreshes it at once (at most every `cooldownMs`), and if that refresh
 * fails, or the last one did, the token is answered KeySetUnavailable (503), not refused (401). Keys are
 * selected and imported by jose (createLocalJWKSet over the fetched set).
 */
export class LastGoodKeySet {
  private keys?: JWTVerifyGetKey;
  private kids = new Set<string>();
  private fetchedAt = 0;
  private lastAttempt = 0;
  private lastFailure?: string;
  private refreshing?: Promise<void>;
  private readonly opts: Required<KeySetOptions>;

  constructor(
    readonly url: string,
    opts: KeySetOptions = {},
    private readonly onBackgroundFailure: (err: KeySetUnavailable) => void = () => undefined,
  ) {
    this.opts = { timeoutMs: 1000, attempts: 2, refreshAfterMs: 10 * 60_000, cooldownMs: 30_000, ...opts };
  }

  /** jose's key lookup (the JWTVerifyGetKey of jwtVerify). */
  readonly getKey = async (header: JWTHeaderParameters, token: Parameters<JWTVerifyGetKey>[1]) => {
    if (!this.keys) await this.refresh();
    else if (Date.now() - this.fetchedAt > this.opts.refreshAfterMs && !this.refreshing) this.refresh().catch((err: KeySetUnavailable) => this.onBackgroundFailure(err));
    if (header.kid !== undefined && !this.kids.has(header.kid)) {
      if (Date.now() - this.lastAttempt >= this.opts.cooldownMs) await this.refresh();
      else if (this.lastFailure !== undefined) throw new KeySetUnavailable(this.url, this.lastFailure);
    }
    return this.keys!(header, token);
  };

  /** One refresh at a time; resolves once the set is fresh, rejects with KeySetUnavailable (the last good set stays). */
  refresh(): Promise<void> {
    this.refreshing ??= this.fetchSet().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async fetchSet(): Promise<void> {
    this.lastAttempt = Date.now();
    let reason = 'no attempt';
    for (let attempt = 1; attempt <= this.opts.attempts; attempt++) {
      if (attempt > 1) await new Promise((r) => setTimeout(r, 100));
      try {
        const res = await fetch(this.url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(this.opts.timeoutMs) });
        if (res.status !== 200) {
          reason = `HTTP ${res.status}`;
          await res.body?.cancel();
          continue;
        }
        const set = (await res.json()) as JSONWebKeySet;
        const keys = createLocalJWKSet(set); // jose checks the set's shape (JWKSInvalid)
        this.keys = keys;
        this.kids = new Set(set.keys.flatMap((k) => (typeof k.kid === 'string' ? [k.kid] : [])));
        this.fetchedAt = Date.now();
        this.lastFailure = undefined;
        return;
      } catch (err) {
        reason = (err as Error).name === 'TimeoutError' ? `no answer within ${this.opts.timeoutMs} ms` : (err as Error).message;
      }
    }
    this.lastFailure = reason;
    throw new KeySetUnavailable(this.url, reason);
  }
}

const keySets = new Map<string, LastGoodKeySet>();
/** The process's key set of that URL (kept across invocations of a warm function). */
export function keySetOf(url: string, onBackgroundFailure?: (err: KeySetUnavailable) => void): LastGoodKeySet {
  let set = keySets.get(url);
  if (!set) keySets.set(url, (set = new LastGoodKeySet(url, {}, onBackgroundFailure)));
  return set;
}

/** Verifies a bearer token; throws TokenRefused with the reason. */
export async function verifyConsoleToken(token: string, config: TokenConfig, keys: JWTVerifyGetKey = keySetOf(jwksUrlOf(config)).getKey): Promise<Person> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keys, {
      issuer: config.issuer,
      audience: config.clientId,
      algorithms: ['RS256'],
      clockTolerance: 60,
      // iat present, not in the future and at most this old (jose: JWTExpired / JWTClaimValidationFailed on "iat").
      maxTokenAge: config.maxAgeSeconds ?? DEFAULT_TOKEN_MAX_AGE_SECONDS,
      requiredClaims: ['exp', 'iat', 'sub'],
    }));
  } catch (err) {
    // The key set could not be fetched or read: not the caller's fault (503, logged), never a refusal.
    if (err instanceof KeySetUnavailable || err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid) throw err;
    if (err instanceof errors.JOSEError) throw new TokenRefused(err.code);
    throw err;
  }
  // Several audiences: the authorized party must be the console (OpenID Connect Core 3.1.3.7, steps 4 and 5).
  // Any azp present must be the console too.
  if ((Array.isArray(payload.aud) && payload.aud.length > 1) || payload.azp !== undefined) {
    if (payload.azp !== config.clientId) throw new TokenRefused('azp');
  }
  if (payload.token_use !== 'id') throw new TokenRefused('token_use');
  if (typeof payload.email !== 'string' || payload.email.length === 0 || payload.email.length > 254) throw new TokenRefused('email');
  if (payload.email_verified !== true && payload.email_verified !== 'true') throw new TokenRefused('email_verified');
  return { email: normalizeEmail(payload.email), sub: String(payload.sub), exp: Number(payload.exp) };
}

/** The bearer token of an Authorization header, or undefined. */
export function bearerOf(header: string | undefined): string | undefined {
  const m = /^Bearer\s+([A-Za-z0-9_.~+/=-]+)$/i.exec(header?.trim() ?? '');
  return m?.[1];
}
