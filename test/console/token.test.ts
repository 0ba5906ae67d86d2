import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { TokenRefused, verifyConsoleToken, bearerOf } from '../../shared/console/token';

/**
 * shared/console/token.ts with jose against a key set of our own (the same function the console authorizer
 * runs, locally and in AWS): every claim it checks, refused one at a time. The real provider's tokens are
 * in test/console/api.test.ts.
 */
const config = { issuer: 'https://issuer.example', clientId: 'console-client' };
let keys: ReturnType<typeof createLocalJWKSet>;
let privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  privateKey = pair.privateKey;
  keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }] });
});

const good = (): JWTPayload => ({
  iss: config.issuer,
  aud: config.clientId,
  sub: 'u1',
  iat: now(),
  exp: now() + 600,
  token_use: 'id',
  email: 'Ann@Example.com',
  email_verified: true,
});
const sign = (claims: JWTPayload, alg = 'RS256') => new SignJWT(claims).setProtectedHeader({ alg, kid: 'k1' }).sign(privateKey);

test('a good ID token: the person is the verified e-mail, lower-cased', async () => {
  await expect(verifyConsoleToken(await sign(good()), config, keys)).resolves.toMatchObject({ email: 'ann@example.com', sub: 'u1' });
});

test.each([
  ['wrong issuer', { iss: 'https://evil.example' }],
  ['wrong audience', { aud: 'another-client' }],
  ['expired (beyond 60 s of clock tolerance)', { exp: now() - 120, iat: now() - 3600 }],
  ['an access token (token_use access)', { token_use: 'access' }],
  ['no token_use', { token_use: undefined }],
  ['e-mail not verified', { email_verified: false }],
  ['no e-mail', { email: undefined }],
  ['no subject', { sub: undefined }],
  ['issued in the future (beyond 60 s of clock tolerance)', { iat: now() + 300 }],
  ['older than the maximum age (iat 2 hours ago, exp still ahead)', { iat: now() - 7200 }],
  ['no iat', { iat: undefined }],
  ['several audiences without azp', { aud: [config.clientId, 'another-client'] }],
  ['several audiences, azp another client', { aud: [config.clientId, 'another-client'], azp: 'another-client' }],
  ['an azp of another client', { azp: 'another-client' }],
])('refused: %s', async (_what, change) => {
  const claims = { ...good(), ...change } as JWTPayload;
  for (const k of Object.keys(claims)) if (claims[k] === undefined) delete claims[k];
  await expect(verifyConsoleToken(await sign(claims), config, keys)).rejects.toBeInstanceOf(TokenRefused);
});

test('accepted: several audiences with azp = the console; iat within the maximum age the config sets', async () => {
  const multi = { ...good(), aud: [config.clientId, 'another-client'], azp: config.clientId };
  await expect(verifyConsoleToken(await sign(multi), config, keys)).resolves.toMatchObject({ sub: 'u1' });
  await expect(verifyConsoleToken(await sign({ ...good(), iat: now() - 600 }), { ...config, maxAgeSeconds: 900 }, keys)).resolves.toMatchObject({ sub: 'u1' });
  await expect(verifyConsoleToken(await sign({ ...good(), iat: now() - 1200 }), { ...config, maxAgeSeconds: 900 }, keys)).rejects.toBeInstanceOf(TokenRefused);
});

test('refused: alg none, an HMAC token, a signature of another key', async () => {
  const [, payload] = (await sign(good())).split('.');
  const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
  await expect(verifyConsoleToken(none, config, keys)).rejects.toBeInstanceOf(TokenRefused);
  const hmac = await new SignJWT(good()).setProtectedHeader({ alg: 'HS256', kid: 'k1' }).sign(new TextEncoder().encode('x'.repeat(32)));
  await expect(verifyConsoleToken(hmac, config, keys)).rejects.toBeInstanceOf(TokenRefused);
  const other = await generateKeyPair('RS256');
  const foreign = await new SignJWT(good()).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(other.privateKey);
  await expect(verifyConsoleToken(foreign, config, keys)).rejects.toBeInstanceOf(TokenRefused);
});

test('bearerOf: only a well-formed Bearer header', () => {
  expect(bearerOf('Bearer abc.def.ghi')).toBe('abc.def.ghi');
  expect(bearerOf('bearer abc')).toBe('abc');
  expect(bearerOf('Basic abc')).toBeUndefined();
  expect(bearerOf(undefined)).toBeUndefined();
  expect(bearerOf('Bearer a b')).toBeUndefined();
});
