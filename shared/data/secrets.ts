import { getSecret } from '@aws-lambda-powertools/parameters/secrets';

/**
 * The cursor-signing secret.
 *
 * - Locally (local gateway, tests, admin CLI): `CURSOR_SECRET` holds a development secret.
 * - In AWS: `CURSOR_SECRET_ARN` names a Secrets Manager secret generated at deploy time by the CDK stack.
 *   Its value is never in the template or in the function's environment; it is fetched once per cold
 *   start (Powertools Parameters, via @aws-sdk/client-secrets-manager) and kept for the life of the
 *   execution environment.
 *
 * A failed fetch is not cached, so the next call retries.
 */
let cached: Promise<string> | undefined;

/** Powertools' own cache is keyed by name; a long maxAge makes it last for the execution environment too. */
const MAX_AGE_SECONDS = 24 * 60 * 60;

export async function getCursorSecret(): Promise<string> {
  const local = process.env.CURSOR_SECRET;
  if (local) return local;

  const arn = process.env.CURSOR_SECRET_ARN;
  if (!arn) {
    throw new Error('Cursor-signing secret not configured: set CURSOR_SECRET (local run, tests) or CURSOR_SECRET_ARN (AWS, set by the CDK stack)');
  }

  cached ??= fetchSecret(arn).catch((err: unknown) => {
    cached = undefined;
    throw err;
  });
  return cached;
}

async function fetchSecret(arn: string): Promise<string> {
  const value = await getSecret(arn, { maxAge: MAX_AGE_SECONDS });
  if (typeof value !== 'string' || value.length === 0) {
    throw new Error('Cursor-signing secret (CURSOR_SECRET_ARN) has no string value');
  }
  return value;
}

/** For tests: forget the cached value. */
export function resetCursorSecretCache(): void {
  cached = undefined;
}
