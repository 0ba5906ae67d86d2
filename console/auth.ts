import * as oauth from 'oauth4webapi';
import { base, client, ok, setToken } from './api/client';

/**
 * Sign-in: OpenID Connect authorization code + PKCE S256 with `state` and `nonce`, checked by oauth4webapi,
 * as a public client (no secret). The ID token lives in memory only (api/client.ts). A reload, or an
 * expired token, first tries a silent authorization request (`prompt=none`): while the provider's session
 * lasts it answers with a code at once, without its form, and the page returns to the view it showed (the
 * hash is kept with the sign-in in progress). Only the PKCE verifier, state, nonce and that hash wait in
 * sessionStorage for the redirect back, and are removed then.
 */
export type Config = Awaited<ReturnType<typeof loadConfig>>;
const PENDING = 'console.signin';
export const consoleUrl = new URL('console', base).href;

export async function loadConfig() {
  return ok(await client.GET('/console/config.json'));
}

let as: oauth.AuthorizationServer;
let oidcClient: oauth.Client;
let insecure: Record<symbol, boolean> = {};
let cfg: Config;

export async function discover(config: Config) {
  cfg = config;
  const issuer = new URL(cfg.issuer);
  // The local provider of `npm start` is plain http on the loopback interface; every other issuer is https.
  insecure = issuer.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname) ? { [oauth.allowInsecureRequests]: true } : {};
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }));
  oidcClient = { client_id: cfg.clientId };
}

interface Pending {
  code_verifier: string;
  state: string;
  nonce: string;
  hash: string;
  silent: boolean;
}
function readPending(): Pending | null {
  const raw: unknown = JSON.parse(sessionStorage.getItem(PENDING) ?? 'null');
  sessionStorage.removeItem(PENDING);
  if (!raw || typeof raw !== 'object') return null;
  const get = (k: string): unknown => Reflect.get(raw, k);
  const [code_verifier, state, nonce, hash, silent] = ['code_verifier', 'state', 'nonce', 'hash', 'silent'].map(get);
  if (typeof code_verifier !== 'string' || typeof state !== 'string' || typeof nonce !== 'string') return null;
  return { code_verifier, state, nonce, hash: typeof hash === 'string' ? hash : '', silent: silent === true };
}

/** Goes to the provider; `silent`: prompt=none (no form: the provider answers at once, with a code or login_required). */
export async function signIn({ silent }: { silent: boolean }) {
  const code_verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const pending: Pending = { code_verifier, state, nonce, hash: location.hash, silent };
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  const url = new URL(as.authorization_endpoint!);
  url.searchParams.set('client_id', cfg.clientId);
  url.searchParams.set('redirect_uri', consoleUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', cfg.scope);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(code_verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  url.searchParams.set('nonce', nonce);
  if (silent) url.searchParams.set('prompt', 'none');
  location.assign(url.href);
}

/**
 * Back from the provider: 'signed-in' (the token is in memory), 'signed-out' (a silent request the provider
 * answered with login_required or the like: show the Sign in button), or 'none' (not a redirect back).
 */
export async function completeSignIn(): Promise<'signed-in' | 'signed-out' | 'none'> {
  const current = new URL(location.href);
  if (!current.searchParams.has('code') && !current.searchParams.has('error')) return 'none';
  const pending = readPending();
  history.replaceState(null, '', consoleUrl + (pending?.hash ?? '')); // the code leaves the address bar at once
  if (!pending) throw new Error('No sign-in in progress: sign in again');
  if (pending.silent && current.searchParams.has('error')) return 'signed-out';
  const params = oauth.validateAuthResponse(as, oidcClient, current, pending.state);
  const response = await oauth.authorizationCodeGrantRequest(as, oidcClient, oauth.None(), params, consoleUrl, pending.code_verifier, insecure);
  const result = await oauth.processAuthorizationCodeResponse(as, oidcClient, response, { expectedNonce: pending.nonce, requireIdToken: true });
  setToken(result.id_token);
  return 'signed-in';
}

export function signOut(hint: string | undefined) {
  setToken(undefined);
  if (cfg.logoutUrl) return location.assign(cfg.logoutUrl); // Cognito's /logout (ends its managed-login session)
  if (!as.end_session_endpoint) return location.assign(consoleUrl);
  const url = new URL(as.end_session_endpoint);
  url.searchParams.set('client_id', cfg.clientId);
  url.searchParams.set('post_logout_redirect_uri', consoleUrl);
  if (hint) url.searchParams.set('id_token_hint', hint);
  location.assign(url.href);
}
