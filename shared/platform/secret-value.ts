/**
 * One Secrets Manager read: the value of the secret `arn` (`SecretString`, else `SecretBinary`), through
 * the AWS SDK v3 client the Lambda runtime provides (left out of every bundle, lib/service-function.ts).
 * The client module is loaded on the first read, not at import: a function that never reads a secret
 * (locally, `CURSOR_SECRET` and `WEBHOOK_SECRET_KEYS` replace them) never loads it. Callers keep the value
 * for the life of the execution environment (shared/data/secrets.ts): this module does not cache.
 * (Powertools Parameters did this before issue 35; its 5 KB with the parts of commons it brings were in
 * every function's bundle for a call the SDK makes itself.)
 */
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

let client: Promise<{ client: SecretsManagerClient; read: (arn: string) => Promise<string | Uint8Array | undefined> }> | undefined;

export async function getSecret(arn: string): Promise<string | Uint8Array | undefined> {
  client ??= import('@aws-sdk/client-secrets-manager').then(({ SecretsManagerClient, GetSecretValueCommand }) => {
    const c = new SecretsManagerClient({});
    return {
      client: c,
      read: async (id: string) => {
        const out = await c.send(new GetSecretValueCommand({ SecretId: id }));
        return out.SecretString ?? out.SecretBinary;
      },
    };
  });
  return (await client).read(arn);
}
