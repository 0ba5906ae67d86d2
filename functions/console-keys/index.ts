import { consoleHandler } from '../../shared/console/handler';

/**
 * The console's API-key writes (POST .../api-keys, PATCH|DELETE .../api-keys/{keyId}, POST .../api-keys/{keyId}/roll,
 * behind the console authorizer): a function of its own so that its role is the only console role that may
 * write key items (APIKEY#, APIKEYID#); the console function reads keys only.
 */
export const handler = consoleHandler('console-keys');
