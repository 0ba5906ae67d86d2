/**
 * Runtime settings: every environment variable the shared code reads, read here and nowhere else in
 * shared/ (README, "Running locally", and docs/operations.md describe them). Each is read when asked for,
 * not once at load, so tests and the local run may change them between calls; one export each, so a
 * bundle carries only the ones its code reads (`import * as settings`). Values are returned as the
 * callers always read them (a missing variable gives the documented default; parsing that is a rule
 * of its own, such as the retry schedule or the CORS origins, stays with its rule).
 */
/** Any variable by name (the per-entity list bounds, `MAX_CLIENTS`, ..., are named by the declarations; `CORS_ORIGINS`). */
export const raw = (name: string): string | undefined => process.env[name];
const number = (name: string, fallback: number): number => Number(raw(name) ?? fallback);

// ---- DynamoDB ----
export const tableName = () => raw('TABLE_NAME');
export const dynamodbEndpoint = () => raw('DYNAMODB_ENDPOINT');
export const awsRegion = () => raw('AWS_REGION');
export const dynamodbMaxAttempts = () => number('DYNAMODB_MAX_ATTEMPTS', 3);
/** `WRITE_CONTENTION_BUDGET_MS` as written (shared/data/write.ts gives its default). */
export const writeContentionBudget = () => raw('WRITE_CONTENTION_BUDGET_MS');
export const maxListBytes = () => raw('MAX_LIST_BYTES');
export const maxPageBytes = () => raw('MAX_PAGE_BYTES');
export const changesGapTimeoutMs = () => number('CHANGES_GAP_TIMEOUT_MS', 5000);
export const maxActiveKeys = () => number('MAX_ACTIVE_KEYS', 500);

// ---- secrets: a development value (local run, tests) or the ARN of the deployed secret ----
export const cursorSecret = () => raw('CURSOR_SECRET');
export const cursorSecretArn = () => raw('CURSOR_SECRET_ARN');
export const webhookSecretKeys = () => raw('WEBHOOK_SECRET_KEYS');
export const webhookKeysSecretArn = () => raw('WEBHOOK_KEYS_SECRET_ARN');

// ---- webhooks ----
export const webhookQueueUrl = () => raw('WEBHOOK_QUEUE_URL');
export const webhookRetrySchedule = () => raw('WEBHOOK_RETRY_SCHEDULE');
export const webhookTimeoutMs = () => number('WEBHOOK_TIMEOUT_MS', 10_000);
export const webhookDisableAfter = () => number('WEBHOOK_DISABLE_AFTER', 5);
/** http and loopback receivers: on for a local run (`WEBHOOK_ALLOW_LOOPBACK`, set by npm start), never in Lambda. */
export const webhookAllowLoopback = () => !raw('AWS_LAMBDA_FUNCTION_NAME') && ['1', 'true'].includes(raw('WEBHOOK_ALLOW_LOOPBACK') ?? '');

// ---- invoicing ----
export const invoiceJobLeaseMs = () => number('INVOICE_JOB_LEASE_MS', 15 * 60_000);
/** How long one step of the console's create in steps may run, and the lease it holds (shared/invoicing/service.ts). */
export const invoiceStepBudgetMs = () => number('INVOICE_STEP_BUDGET_MS', 5000);
export const invoiceStepLeaseMs = () => number('INVOICE_STEP_LEASE_MS', 120_000);
/** How often `npm start` runs the invoice sweep (in AWS: an EventBridge schedule, every minute). */
export const invoiceSweepIntervalMs = () => number('INVOICE_SWEEP_INTERVAL_MS', 60_000);

// ---- console (shared/console/) ----
/** The OpenID issuer and client the console signs in with, and the JWKS its tokens are checked against (default: the issuer's). */
export const consoleIssuer = () => raw('CONSOLE_ISSUER');
export const consoleClientId = () => raw('CONSOLE_CLIENT_ID');
export const consoleJwksUrl = () => raw('CONSOLE_JWKS_URL');
/** The oldest ID token (its `iat`) the console accepts, in seconds (default 3600; the stack sets the pool's ID token validity). */
export const consoleTokenMaxAgeSeconds = () => number('CONSOLE_TOKEN_MAX_AGE_SECONDS', 3600);
/** Where the sign-out goes (empty: none). */
export const consoleLogoutUrl = () => raw('CONSOLE_LOGOUT_URL');
/** The origin of the provider's authorize, token and logout endpoints when not the issuer's (Cognito's user pool domain). */
export const consoleAuthOrigin = () => raw('CONSOLE_AUTH_ORIGIN');
/** AWS: the console's Cognito user pool, which invites members added in the console (issue 36); unset locally (the local provider's links). */
export const userPoolId = () => raw('USER_POOL_ID');
/** The API key cache the console tells people about (`API_KEY_CACHE_SECONDS`, else the local gateway's `AUTH_CACHE_TTL_SECONDS`). */
export const apiKeyCacheSeconds = () => Number(raw('API_KEY_CACHE_SECONDS') ?? raw('AUTH_CACHE_TTL_SECONDS') ?? 300);
/** The folder of the console page's script and style (`npm start` builds them there; deployed: next to the code). */
export const consoleAssetsDir = () => raw('CONSOLE_ASSETS_DIR');
export const consoleRatePerMinute = () => number('CONSOLE_RATE_PER_MINUTE', 120);
export const consoleRatePerHour = () => number('CONSOLE_RATE_PER_HOUR', 3000);

// ---- logs and metrics ----
export const serviceName = () => raw('POWERTOOLS_SERVICE_NAME') ?? 'timetrack-api';
export const logLevel = () => raw('POWERTOOLS_LOG_LEVEL') ?? raw('LOG_LEVEL') ?? 'INFO';
