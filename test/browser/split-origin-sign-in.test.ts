import { freePort } from '../../local/dynamodb';
import { patientPages, startConsole, type ConsoleRun } from './support';

/**
 * Sign-in against Cognito's layout (issue 33 item 1): the issuer's origin serves discovery and the JWKS
 * only, the user pool's domain (another origin) serves authorize, token and logout. `npm start` with
 * OIDC_AUTH_PORT starts the local provider that way; the real page, in chromium, with its CSP on, signs in
 * through the provider's form and reaches its first section: the code exchange at the other origin passed.
 */
jest.setTimeout(180_000);

let run: ConsoleRun;
beforeAll(async () => {
  run = await startConsole('split-origin', { OIDC_AUTH_PORT: String(await freePort()) });
}, 150_000);
afterAll(() => run?.stop());
// pages whose steps wait up to 60 s (support.ts), not Playwright's 30 s: the file shares a loaded machine
const { newPage } = patientPages(() => run.browser);
const printed = (pattern: RegExp) => run.printed(pattern);

test("sign-in passes with the CSP on when the token endpoint is on another origin than the issuer (Cognito's pool domain)", async () => {
  const issuer = printed(/OpenID Provider \(issuer\): (http:\/\/127\.0\.0\.1:\d+)/);
  const authOrigin = printed(/endpoints: (http:\/\/127\.0\.0\.1:\d+)/);
  expect(authOrigin).not.toBe(issuer);

  // The provider is split as Cognito is: discovery names the other origin; the issuer serves no token endpoint.
  const discovery = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<string, string>;
  expect(discovery.issuer).toBe(issuer);
  for (const name of ['authorization_endpoint', 'token_endpoint', 'end_session_endpoint']) expect(new URL(discovery[name]!).origin).toBe(authOrigin);
  expect((await fetch(`${issuer}/token`, { method: 'POST' })).status).toBe(404);

  const page = await newPage();
  const problems: string[] = [];
  const tokenCalls: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('response', (r) => {
    if (r.url() === discovery.token_endpoint) tokenCalls.push(`${r.request().method()} ${r.status()}`);
  });

  const res = await page.goto(`${run.base}/console`);
  const csp = res!.headers()['content-security-policy']!;
  const connectSrc = csp
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith('connect-src '))!;
  expect(connectSrc.split(/\s+/).slice(1).sort()).toEqual(["'self'", authOrigin, issuer].sort());

  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.origin === authOrigin);
  await page.getByLabel('Email').fill(printed(/Email: +(\S+)/));
  await page.getByLabel('Password').fill(printed(/Password: +(\S+)/));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'API Keys' }).waitFor();
  expect(tokenCalls).toEqual(['POST 200']);
  expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
  await page.close();
});
