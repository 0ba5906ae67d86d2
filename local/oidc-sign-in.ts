import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import * as oauth from 'oauth4webapi';
import { CONSOLE_CLIENT_ID } from './config';

/**
 * A scripted sign-in at the local OpenID Provider (local/oidc-process.ts: the one npm start embeds, in a
 * child process): authorization code + PKCE S256, state and nonce through oauth4webapi, and the provider's
 * own sign-in form. The console's tests and the benchmark's console section sign in with it.
 */
export const CONSOLE_URL = 'http://127.0.0.1:3999/console';
const ROOT = join(__dirname, '..');

export interface Oidc {
  issuer: string;
  stop: () => Promise<void>;
}

export async function startOidc(extraEnv: Record<string, string> = {}): Promise<Oidc> {
  const child: ChildProcess = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'local', 'oidc-process.ts')], {
    env: { ...process.env, OIDC_PORT: '0', CONSOLE_URLS: CONSOLE_URL, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const issuer = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.startsWith('{"issuer"'));
      if (line) resolve((JSON.parse(line) as { issuer: string }).issuer);
    });
    child.once('exit', (code) => reject(new Error(`oidc-process exited ${code}: ${stderr}`)));
  });
  process.env.CONSOLE_ISSUER = issuer;
  process.env.CONSOLE_CLIENT_ID = CONSOLE_CLIENT_ID;
  return {
    issuer,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A cookie jar good enough for one provider on one host. */
class Jar {
  private cookies = new Map<string, string>();
  take(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1);
      if (/expires=Thu, 01 Jan 1970/i.test(c) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** Signs in through the provider's own form (Email, Password, Sign in) and returns the ID token. */
export async function signIn(issuerUrl: string, email: string, password: string): Promise<string> {
  const issuer = new URL(issuerUrl);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }));
  const client: oauth.Client = { client_id: CONSOLE_CLIENT_ID };
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const auth = new URL(as.authorization_endpoint!);
  for (const [k, v] of Object.entries({
    client_id: CONSOLE_CLIENT_ID,
    redirect_uri: CONSOLE_URL,
    response_type: 'code',
    scope: 'openid email',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  }))
    auth.searchParams.set(k, v);
  const jar = new Jar();
  let url = auth.href;
  let posted = false;
  for (let hop = 0; hop < 12; hop++) {
    if (url.startsWith(CONSOLE_URL)) {
      const params = oauth.validateAuthResponse(as, client, new URL(url), state);
      const res = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, CONSOLE_URL, verifier, insecure);
      const result = await oauth.processAuthorizationCodeResponse(as, client, res, { expectedNonce: nonce, requireIdToken: true });
      return result.id_token!;
    }
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(res);
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url).href;
      continue;
    }
    const html = await res.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action || posted) throw new Error(`sign-in failed at ${url}: ${res.status} ${html.slice(0, 300)}`);
    posted = true;
    const form = await fetch(new URL(action, url), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password }).toString(),
    });
    jar.take(form);
    if (form.status === 200) throw new Error(`sign-in refused for ${email}`);
    url = new URL(form.headers.get('location')!, url).href;
  }
  throw new Error('sign-in: too many redirects');
}
