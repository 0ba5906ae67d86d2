import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consoleOpenApiText } from '../../local/console-assets';
import { CONSOLE_ASSETS } from '../../shared/console/page';
import { createGateway, type Gateway } from '../../local/gateway';
import { signIn } from '../../local/oidc-sign-in';
import { ensureAccount } from '../../shared/data/accounts';
import { addMember } from '../../shared/data/members';
import type { Role } from '../../shared/domain/roles';

/**
 * The console's tests: a real OpenID Provider (local/oidc-process.ts: the one npm start embeds, in a child
 * process), real sign-ins over HTTP (authorization code + PKCE S256, state and nonce, through oauth4webapi
 * and the provider's own sign-in form), and the console routes through the local gateway (the console
 * authorizer verifies the token with jose against the provider's JWKS).
 */
export { CONSOLE_URL, signIn, startOidc, type Oidc } from '../../local/oidc-sign-in';

/** A person with an account (password known) and, when a role is given, a membership. */
export async function person(issuer: string, workspaceId: string | undefined, role: Role | undefined, label = 'p'): Promise<{ email: string; token: string; password: string }> {
  const email = `${label}-${randomBytes(4).toString('hex')}@example.com`;
  const password = `Pw-${randomBytes(8).toString('hex')}`;
  await ensureAccount(email, password);
  if (workspaceId && role) await addMember(workspaceId, email, role, 'test');
  return { email, password, token: await signIn(issuer, email, password) };
}

export function consoleClient(gateway: Gateway = createGateway({ authCacheTtlSeconds: 300 })) {
  const call = async <T = any>(
    method: string,
    path: string,
    opts: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; query?: Record<string, string> } = {},
  ) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token !== undefined) headers.Authorization = `Bearer ${opts.token}`;
    const body = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    if (body !== undefined) headers['Content-Type'] ??= 'application/json';
    const res = await gateway.handle({ method, path, query: opts.query ?? {}, headers, ...(body !== undefined ? { body } : {}) });
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text: res.body };
  };
  return { gateway, call };
}

/**
 * The console's OpenAPI document where the console function reads it (CONSOLE_ASSETS_DIR): the stack builds it
 * with the function's bundle and `npm start` with the page's assets (local/console-assets.ts); a test that
 * calls the function in process writes it into a directory of its own. Returns that directory.
 */
export function writeConsoleDocument(): string {
  const dir = mkdtempSync(join(tmpdir(), 'console-document-'));
  writeFileSync(join(dir, CONSOLE_ASSETS.openapi), consoleOpenApiText());
  process.env.CONSOLE_ASSETS_DIR = dir;
  return dir;
}

export const sha = (s: string) => createHash('sha256').update(s).digest('hex');
