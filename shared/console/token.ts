import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { normalizeEmail } from '../domain/roles';
import * as settings from '../platform/settings';

/**
 * Verifies the token the console page sends (`Authorization: Bearer <ID token>`) with `jose` against the
 * issuer's JWKS: RS256 signature by a key of that JWKS (no `alg: none`, no HMAC), `iss` = the issuer, `aud`
 * = the console's client id, `exp` in the future (60 s of clock tolerance), `token_use` = `id` (what Cognito
 * puts in its ID tokens; the local provider adds the same claim), and an `email` with `email_verified`
 * true. The person is that e-mail. The same code runs in the console authorizer in AWS (Cognito) and
 * locally (the provider `npm start` embeds): only CONSOLE_ISSUER, CONSOLE_CLIENT_ID and CONSOLE_JWKS_URL differ.
 */
export interface TokenConfig {
  issuer: string;
  clientId: string;
  /** Default: `<issuer>/.well-known/jwks.json` (Cognito's, and the local provider's). */
  jwksUrl?: string;
}

export function tokenConfigFromEnv(): TokenConfig {
  const issuer = settings.consoleIssuer();
  const clientId = settings.consoleClientId();
  const jwksUrl = settings.consoleJwksUrl();
  if (!issuer || !clientId) throw new Error('CONSOLE_ISSUER and CONSOLE_CLIENT_ID must be set');
  return { issuer, clientId, ...(jwksUrl ? { jwksUrl } : {}) };
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

const jwksCache = new Map<string, JWTVerifyGetKey>();
function jwksOf(url: string): JWTVerifyGetKey {
  let set = jwksCache.get(url);
  // The key set is fetched once and kept (re-fetched when a token names a key it does not know, at most every 30 s).
  if (!set) jwksCache.set(url, (set = createRemoteJWKSet(new URL(url), { cooldownDuration: 30_000, timeoutDuration: 5_000 })));
  return set;
}

/** Verifies a bearer token; throws TokenRefused with the reason. */
export async function verifyConsoleToken(token: string, config: TokenConfig, keys: JWTVerifyGetKey = jwksOf(jwksUrlOf(config))): Promise<Person> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keys, {
      issuer: config.issuer,
      audience: config.clientId,
      algorithms: ['RS256'],
      clockTolerance: 60,
      requiredClaims: ['exp', 'iat', 'sub'],
    }));
  } catch (err) {
    // The key set could not be fetched or read: not the caller's fault (a 500, logged), never a refusal.
    if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid) throw err;
    if (err instanceof errors.JOSEError) throw new TokenRefused(err.code);
    throw err; // the JWKS could not be fetched: not the caller's fault
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
