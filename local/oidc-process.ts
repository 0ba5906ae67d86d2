import { startLocalOidc } from './oidc';

/**
 * The local OpenID Provider alone, in its own process (the console's API tests start it: oidc-provider is
 * an ES module their jest runtime does not load). Prints `{"issuer": ...}` once listening. Environment:
 * OIDC_PORT (0: any), CONSOLE_URLS (comma list), ID_TOKEN_TTL_SECONDS, and the table's (DYNAMODB_ENDPOINT,
 * TABLE_NAME) for the accounts.
 */
async function main() {
  const urls = (process.env.CONSOLE_URLS ?? 'http://127.0.0.1:3000/console').split(',');
  const ttl = Number(process.env.ID_TOKEN_TTL_SECONDS ?? 0);
  const { issuer } = await startLocalOidc(Number(process.env.OIDC_PORT ?? 0), () => urls, ttl ? { idTokenTtlSeconds: ttl } : {});
  console.log(JSON.stringify({ issuer }));
}
main().catch((err) => {
  console.error(err);
  process.exit(1);
});
