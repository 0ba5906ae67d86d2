import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { KeySetUnavailable, keySetOf, LastGoodKeySet, TokenRefused, verifyConsoleToken } from '../../shared/console/token';

/**
 * A JWKS that cannot lock everyone out (issue 33 item 4): a real HTTP server serves the issuer's key set,
 * then answers 500 for a while. People signed in keep working on the last good set (also past its refresh
 * age: the background refresh fails, the set stays); a fresh token naming a key the set lacks is
 * KeySetUnavailable (the authorizer throws it on: 503 at both gateways), not TokenRefused (401); once the
 * key set answers again, the new key is fetched and its token passes.
 */
const issuer = 'https://issuer.example';
const config = { issuer, clientId: 'console-client' };
const now = () => Math.floor(Date.now() / 1000);
const claims = (): JWTPayload => ({ iss: issuer, aud: config.clientId, sub: 'u1', iat: now(), exp: now() + 600, token_use: 'id', email: 'ann@example.com', email_verified: true });

type Pair = Awaited<ReturnType<typeof generateKeyPair>>;
let k1: Pair;
let k2: Pair;
let server: Server;
let url: string;
let served: JWK[] = [];
let failing = false;
let hits = 0;

beforeAll(async () => {
  k1 = await generateKeyPair('RS256', { extractable: true });
  k2 = await generateKeyPair('RS256', { extractable: true });
  served = [{ ...(await exportJWK(k1.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }];
  server = createServer((_req, res) => {
    hits++;
    if (failing) return void res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: served }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  failing = false;
  hits = 0;
});

const sign = (pair: Pair, kid: string, c: JWTPayload = claims()) => new SignJWT(c).setProtectedHeader({ alg: 'RS256', kid }).sign(pair.privateKey);

test('the key set answers 500 for a while: signed-in people keep working on the last good set; an unknown kid is KeySetUnavailable, not a refusal; recovery fetches the new key', async () => {
  const backgroundFailures: string[] = [];
  const set = new LastGoodKeySet(url, { refreshAfterMs: 50, cooldownMs: 0, timeoutMs: 500 }, (e) => backgroundFailures.push(e.reason));
  const signedIn = await sign(k1, 'k1');
  await expect(verifyConsoleToken(signedIn, config, set.getKey)).resolves.toMatchObject({ email: 'ann@example.com' });

  failing = true;
  await new Promise((r) => setTimeout(r, 80)); // past the refresh age: the next use refreshes in the background
  await expect(verifyConsoleToken(signedIn, config, set.getKey)).resolves.toMatchObject({ sub: 'u1' });
  await set.refresh().catch(() => undefined); // let the background refresh settle
  for (let i = 0; i < 3; i++) await expect(verifyConsoleToken(await sign(k1, 'k1'), config, set.getKey)).resolves.toMatchObject({ sub: 'u1' });
  expect(backgroundFailures.length).toBeGreaterThanOrEqual(1);
  expect(backgroundFailures[0]).toBe('HTTP 500');

  // A token of a key the set lacks (the issuer rotated): 503 material, never 401.
  const rotated = await sign(k2, 'k2');
  const refusal = verifyConsoleToken(rotated, config, set.getKey);
  await expect(refusal).rejects.toBeInstanceOf(KeySetUnavailable);
  await expect(refusal).rejects.not.toBeInstanceOf(TokenRefused);
  const before = hits;
  await expect(verifyConsoleToken(rotated, config, set.getKey)).rejects.toMatchObject({ reason: 'HTTP 500' });
  expect(hits - before).toBe(2); // two attempts per refresh

  // Still a refusal for what is the caller's fault: a bad signature by a known kid.
  const forged = await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(k2.privateKey);
  await expect(verifyConsoleToken(forged, config, set.getKey)).rejects.toBeInstanceOf(TokenRefused);

  // The key set answers again, with the new key: the rotated token passes, the old one too.
  failing = false;
  served = [...served, { ...(await exportJWK(k2.publicKey)), kid: 'k2', alg: 'RS256', use: 'sig' }];
  await expect(verifyConsoleToken(rotated, config, set.getKey)).resolves.toMatchObject({ sub: 'u1' });
  await expect(verifyConsoleToken(signedIn, config, set.getKey)).resolves.toMatchObject({ sub: 'u1' });
});

test('within the cooldown after a failed refresh, an unknown kid is still KeySetUnavailable (no fetch); after a good refresh it is refused (401)', async () => {
  served = [{ ...(await exportJWK(k1.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }];
  const set = new LastGoodKeySet(url, { cooldownMs: 60_000, timeoutMs: 500 });
  await expect(verifyConsoleToken(await sign(k1, 'k1'), config, set.getKey)).resolves.toBeDefined();
  // A good refresh just happened: an unknown kid is the caller's (a refusal), and does not fetch again.
  const before = hits;
  await expect(verifyConsoleToken(await sign(k2, 'nope'), config, set.getKey)).rejects.toBeInstanceOf(TokenRefused);
  expect(hits).toBe(before);

  failing = true;
  await expect(set.refresh()).rejects.toBeInstanceOf(KeySetUnavailable);
  const after = hits;
  await expect(verifyConsoleToken(await sign(k2, 'nope'), config, set.getKey)).rejects.toBeInstanceOf(KeySetUnavailable);
  expect(hits).toBe(after);
  await expect(verifyConsoleToken(await sign(k1, 'k1'), config, set.getKey)).resolves.toBeDefined();
});

test('no last good set yet and the key set fails: KeySetUnavailable; a key set that does not answer times out well under the function timeout', async () => {
  failing = true;
  await expect(verifyConsoleToken(await sign(k1, 'k1'), config, new LastGoodKeySet(url).getKey)).rejects.toBeInstanceOf(KeySetUnavailable);
  const silent = createServer(() => undefined); // accepts, never answers
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  try {
    const set = new LastGoodKeySet(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/jwks.json`);
    const token = await sign(k1, 'k1'); // signed before the clock starts: only the verification is timed
    const started = Date.now();
    await expect(verifyConsoleToken(token, config, set.getKey)).rejects.toMatchObject({ name: 'KeySetUnavailable', reason: 'no answer within 1000 ms' });
    expect(Date.now() - started).toBeLessThan(4000); // two 1 s attempts: well under the authorizer's 5 s
  } finally {
    silent.closeAllConnections();
    await new Promise<void>((r) => silent.close(() => r()));
  }
});

test("the console authorizer: the key set failing for an unknown kid throws on (the gateways' 503), a bad token is 'Unauthorized' (401)", async () => {
  process.env.CONSOLE_ISSUER = issuer;
  process.env.CONSOLE_CLIENT_ID = config.clientId;
  process.env.CONSOLE_JWKS_URL = url;
  const { handler } = await import('../../functions/console-authorizer');
  const event = (token: string) =>
    ({
      type: 'REQUEST',
      methodArn: 'arn:aws:execute-api:eu-west-1:1:api/dev/GET/console/api/me',
      headers: { Authorization: `Bearer ${token}` },
      requestContext: {},
    }) as unknown as APIGatewayRequestAuthorizerEvent;
  served = [{ ...(await exportJWK(k1.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }];
  await expect(handler(event(await sign(k1, 'k1')))).resolves.toMatchObject({ context: { email: 'ann@example.com' } });
  await expect(handler(event(await sign(k1, 'k1', { ...claims(), aud: 'other' })))).rejects.toThrow('Unauthorized');
  failing = true;
  await keySetOf(url)
    .refresh()
    .catch(() => undefined); // the set's refresh (background, or a kid it lacked) met the outage
  const err = (await handler(event(await sign(k2, 'k-new'))).catch((e: unknown) => e)) as Error;
  expect(err).toBeInstanceOf(KeySetUnavailable);
  expect(err.message).not.toBe('Unauthorized');
  await expect(handler(event(await sign(k1, 'k1')))).resolves.toMatchObject({ context: { email: 'ann@example.com' } });
});
