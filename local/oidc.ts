import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Adapter, type AdapterFactory, type AdapterPayload, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { checkPassword, invitationState, MIN_PASSWORD_LENGTH, redeemInvitation } from '../shared/data/accounts';
import { normalizeEmail } from '../shared/domain/roles';
import { CONSOLE_CLIENT_ID } from './config';

/**
 * The local OpenID Provider `npm start` embeds: `oidc-provider` (a certified OpenID Provider) with the
 * console as its one client (public: no secret; authorization code with PKCE S256 required), accounts from
 * the table (shared/data/accounts.ts: bcrypt hashes; the admin CLI's `members add` creates them), and its
 * own sign-in page (fields "Email" and "Password", button "Sign in"). There is no development interaction
 * that accepts any password. ID tokens carry `email`, `email_verified` and `token_use: "id"`, as Cognito's
 * do, so the console's verification (shared/console/token.ts) is the same code for both. Its JWKS is at
 * `<issuer>/.well-known/jwks.json` (Cognito's path); the signing key is made at start (tokens do not
 * survive a restart: sign in again).
 */
export { CONSOLE_CLIENT_ID };

export interface LocalOidcOptions {
  issuer: string;
  /** The console's URLs (redirect and post-logout), e.g. http://127.0.0.1:3000/console. */
  consoleUrls: string[];
  /** ID token lifetime in seconds (default 3600). */
  idTokenTtlSeconds?: number;
  /**
   * Cognito's layout: the issuer's origin serves discovery and the JWKS only; the user pool's domain (another
   * origin) serves authorize, token, userinfo, revocation and logout. Set: the discovery document names this
   * origin for those endpoints (the provider serves them there, see startLocalOidc's `authPort`).
   */
  authOrigin?: string;
}

/** Paths the issuer's origin serves when the endpoints are on another origin (Cognito's cognito-idp host: discovery and JWKS). */
const ISSUER_ONLY_PATHS = new Set(['/.well-known/openid-configuration', '/.well-known/jwks.json']);
const ENDPOINTS_ON_AUTH_ORIGIN = ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'revocation_endpoint', 'end_session_endpoint'] as const;

const page = (title: string, body: string) => `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><link rel="icon" href="data:,">
<style>body{font-family:system-ui,sans-serif;max-width:22rem;margin:4rem auto;padding:0 1rem}label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.4rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem}.error{color:#b00020}</style>
</head><body><h1>${title}</h1>${body}</body></html>`;
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginForm(uid: string, error?: string, email = '') {
  return page(
    'Sign in to the time-tracking console',
    `${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}
<form method="post" action="/interaction/${esc(uid)}/login" autocomplete="on">
<label for="email">Email</label><input id="email" name="email" type="email" required autofocus value="${esc(email)}">
<label for="password">Password</label><input id="password" name="password" type="password" required>
<button type="submit">Sign in</button>
</form>`,
  );
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.on('data', (c: Buffer) => {
      data += c.toString('utf8');
      if (data.length > 10_000) req.destroy();
    });
    req.on('end', () => resolve(new URLSearchParams(data)));
    req.on('error', reject);
  });
}

/**
 * The provider's state (interactions, sessions, codes, grants) kept in this process, by our choice: like
 * its signing key, made at start, nothing of it is meant to survive a restart or be shared with another
 * process (sign in again after a restart). oidc-provider's own fallback for an unset adapter is a
 * development-only one that warns at start; this one is ours, so nothing warns. Entries expire with the
 * lifetime the provider gives them.
 */
export function processAdapter(): AdapterFactory {
  const entries = new Map<string, { payload: AdapterPayload; expiresAt: number }>();
  const bySessionUid = new Map<string, string>();
  const byUserCode = new Map<string, string>();
  const byGrant = new Map<string, Set<string>>();
  const live = (key: string): AdapterPayload | undefined => {
    const e = entries.get(key);
    if (e && e.expiresAt <= Date.now()) entries.delete(key);
    return e && e.expiresAt > Date.now() ? e.payload : undefined;
  };
  const sweep = () => {
    for (const [key, e] of entries) if (e.expiresAt <= Date.now()) entries.delete(key);
  };
  return (model: string): Adapter => {
    const keyOf = (id: string) => `${model}:${id}`;
    return {
      upsert: async (id, payload, expiresIn) => {
        if (entries.size >= 1000) sweep();
        entries.set(keyOf(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
        if (model === 'Session' && payload.uid) bySessionUid.set(payload.uid, id);
        if (payload.userCode) byUserCode.set(payload.userCode, id);
        if (payload.grantId) byGrant.set(payload.grantId, (byGrant.get(payload.grantId) ?? new Set()).add(keyOf(id)));
      },
      find: async (id) => live(keyOf(id)),
      findByUid: async (uid) => {
        const id = bySessionUid.get(uid);
        return id === undefined ? undefined : live(keyOf(id));
      },
      findByUserCode: async (userCode) => {
        const id = byUserCode.get(userCode);
        return id === undefined ? undefined : live(keyOf(id));
      },
      consume: async (id) => {
        const payload = live(keyOf(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      destroy: async (id) => {
        entries.delete(keyOf(id));
      },
      revokeByGrantId: async (grantId) => {
        for (const key of byGrant.get(grantId) ?? []) entries.delete(key);
        byGrant.delete(grantId);
      },
    };
  };
}

export async function createLocalOidcProvider(opts: LocalOidcOptions): Promise<Provider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: `local-${randomBytes(4).toString('hex')}`, alg: 'RS256', use: 'sig' };
  const origins = new Set(opts.consoleUrls.map((u) => new URL(u).origin));
  const configuration: Configuration = {
    adapter: processAdapter(),
    clients: [
      {
        client_id: CONSOLE_CLIENT_ID,
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: opts.consoleUrls,
        post_logout_redirect_uris: opts.consoleUrls,
        id_token_signed_response_alg: 'RS256',
      },
    ],
    claims: { openid: ['sub', 'token_use'], email: ['email', 'email_verified'] },
    // The ID token carries the e-mail even in the code flow (Cognito's do): the console needs nothing else.
    conformIdTokenClaims: false,
    scopes: ['openid', 'email'],
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({ sub, email: sub, email_verified: true, token_use: 'id' }),
    }),
    // A first-party client: the grant is given at sign-in (no consent screen).
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid email');
      await grant.save();
      return grant;
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.body = page(
            'Sign out',
            `${form}<p>Sign out of the time-tracking console?</p><button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button> <button type="submit" form="op.logoutForm">No, stay signed in</button>`,
          );
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.body = page('Signed out', '<p>You are signed out.</p>');
        },
      },
    },
    pkce: { required: () => true },
    clientBasedCORS: (_ctx, origin) => origins.has(origin),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    routes: { jwks: '/.well-known/jwks.json' },
    ttl: { IdToken: opts.idTokenTtlSeconds ?? 3600, AccessToken: 3600, AuthorizationCode: 60, Interaction: 3600, Session: 8 * 3600, Grant: 8 * 3600 },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = page('Sign-in error', `<p class="error">${esc(String(out.error_description ?? out.error))}</p>`);
    },
  };
  const provider = new Provider(opts.issuer, configuration);
  provider.proxy = false;
  const authOrigin = opts.authOrigin;
  if (authOrigin) {
    // The discovery document names the pool-domain origin for the endpoints Cognito serves there.
    provider.use(async (ctx, next) => {
      await next();
      if (ctx.path === '/.well-known/openid-configuration' && ctx.body && typeof ctx.body === 'object') {
        const body = ctx.body as Record<string, unknown>;
        for (const name of ENDPOINTS_ON_AUTH_ORIGIN) {
          const value = body[name];
          if (typeof value === 'string') {
            const url = new URL(value);
            body[name] = new URL(`${url.pathname}${url.search}`, authOrigin).href;
          }
        }
      }
    });
  }
  return provider;
}

/**
 * Starts the provider on a loopback port (0: any free one) and returns its issuer and server. The issuer
 * is http://127.0.0.1:<port>: the port is known before the provider is made.
 */
export async function startLocalOidc(
  port: number,
  consoleUrls: (issuer: string) => string[],
  opts: { idTokenTtlSeconds?: number; authPort?: number } = {},
): Promise<{ issuer: string; server: Server; provider: Provider; authOrigin?: string; authServer?: Server }> {
  const listen = async (p: number, handler: (req: IncomingMessage, res: ServerResponse) => void) => {
    const server = createServer(handler);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    return { server, origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : p}` };
  };
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const split = opts.authPort !== undefined;
  const { server, origin: issuer } = await listen(port, (req, res) => {
    // Split like Cognito: the issuer's origin answers discovery and the JWKS, nothing else.
    if (split && !ISSUER_ONLY_PATHS.has(new URL(req.url ?? '/', 'http://localhost').pathname)) return void res.writeHead(404).end();
    handle(req, res);
  });
  const auth = split ? await listen(opts.authPort!, (req, res) => handle(req, res)) : undefined;
  const provider = await createLocalOidcProvider({
    issuer,
    consoleUrls: consoleUrls(issuer),
    ...(opts.idTokenTtlSeconds ? { idTokenTtlSeconds: opts.idTokenTtlSeconds } : {}),
    ...(auth ? { authOrigin: auth.origin } : {}),
  });
  handle = oidcRequestHandler(provider, consoleUrls(issuer)[0]);
  return { issuer, server, provider, ...(auth ? { authOrigin: auth.origin, authServer: auth.server } : {}) };
}

/**
 * The provider's requests: its sign-in page at /interaction/<uid>, the set-password page of an invitation at
 * /invitation/<token> (issue 36), everything else oidc-provider's.
 */
export function oidcRequestHandler(provider: Provider, consoleUrl?: string): (req: IncomingMessage, res: ServerResponse) => void {
  const callback = provider.callback();
  const send = (res: ServerResponse, status: number, html: string) => {
    res.writeHead(status, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Frame-Options': 'DENY',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'",
    });
    res.end(html);
  };
  return (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const inv = /^\/invitation\/([^/]+)$/.exec(url.pathname);
      if (inv)
        return invitationPage(req, res, inv[1]!, (status, html) => send(res, status, html), consoleUrl).catch((err: unknown) => {
          console.error('local OpenID Provider: invitation failed', (err as Error).name);
          send(res, 500, page('Invitation', '<p class="error">Something went wrong.</p>'));
        });
      const m = /^\/interaction\/([A-Za-z0-9_-]+)(\/login)?$/.exec(url.pathname);
      if (!m) return callback(req, res);
      try {
        const details = await provider.interactionDetails(req, res);
        if (details.uid !== m[1]) return send(res, 400, page('Sign-in error', '<p class="error">This sign-in has expired; start again from the console.</p>'));
        if (!m[2] && req.method === 'GET') {
          if (details.prompt.name === 'login') return send(res, 200, loginForm(details.uid));
          // consent: granted at sign-in (loadExistingGrant); finish with what was asked
          return await provider.interactionFinished(req, res, {}, { mergeWithLastSubmission: true });
        }
        if (m[2] && req.method === 'POST') {
          const form = await readForm(req);
          const email = normalizeEmail(form.get('email') ?? '');
          const account = email ? await checkPassword(email, form.get('password') ?? '') : undefined;
          if (!account) return send(res, 200, loginForm(details.uid, 'Wrong e-mail or password.', email));
          return await provider.interactionFinished(req, res, { login: { accountId: account } }, { mergeWithLastSubmission: false });
        }
        return send(res, 405, page('Sign-in error', '<p class="error">Method not allowed.</p>'));
      } catch (err) {
        const name = (err as Error).name;
        if (name === 'SessionNotFound' || name === 'InvalidRequest')
          return send(res, 400, page('Sign-in error', '<p class="error">This sign-in has expired; start again from the console.</p>'));
        console.error('local OpenID Provider: interaction failed', err);
        return send(res, 500, page('Sign-in error', '<p class="error">Something went wrong.</p>'));
      }
    })();
  };
}

const INVITATION_REFUSED = {
  unknown: 'This invitation link is not valid.',
  used: 'This invitation link was already used. Ask an owner of your workspace for a new one.',
  expired: 'This invitation link has expired (links work for 7 days). Ask an owner of your workspace for a new one.',
} as const;

function passwordForm(token: string, email: string, error?: string) {
  return page(
    'Set your password',
    `${error ? `<p class="error" role="alert" id="error">${esc(error)}</p>` : ''}<p>You were invited to the time-tracking console as <strong>${esc(email)}</strong>.</p>
<form method="post" action="/invitation/${esc(token)}">
<label for="password">New password</label><input id="password" name="password" type="password" required minlength="${MIN_PASSWORD_LENGTH}" autocomplete="new-password" autofocus${error ? ' aria-invalid="true" aria-describedby="error"' : ''}>
<label for="confirm">Repeat the password</label><input id="confirm" name="confirm" type="password" required minlength="${MIN_PASSWORD_LENGTH}" autocomplete="new-password">
<button type="submit">Set password</button>
</form>`,
  );
}

/** GET: the form (or why the link does not work); POST: the password set once, then a link to the console's sign-in. */
async function invitationPage(req: IncomingMessage, res: ServerResponse, token: string, send: (status: number, html: string) => void, consoleUrl?: string): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'POST') return send(405, page('Invitation', '<p class="error">Method not allowed.</p>'));
  const state = await invitationState(token);
  if (typeof state === 'string') return send(state === 'unknown' ? 404 : 410, page('Invitation', `<p class="error" role="alert">${INVITATION_REFUSED[state]}</p>`));
  if (req.method === 'GET') return send(200, passwordForm(token, state.email));
  const form = await readForm(req);
  const password = form.get('password') ?? '';
  if (password.length < MIN_PASSWORD_LENGTH || password.length > 256)
    return send(400, passwordForm(token, state.email, `The password must be ${MIN_PASSWORD_LENGTH} to 256 characters.`));
  if (password !== form.get('confirm')) return send(400, passwordForm(token, state.email, 'The two passwords differ.'));
  const done = await redeemInvitation(token, password);
  if (typeof done === 'string') return send(410, page('Invitation', `<p class="error" role="alert">${INVITATION_REFUSED[done]}</p>`));
  return send(200, page('Password set', `<p>Your password is set. <a href="${esc(consoleUrl ?? '/')}">Sign in to the console</a> as ${esc(done.email)}.</p>`));
}
