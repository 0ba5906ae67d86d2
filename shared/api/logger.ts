import { Logger } from '@aws-lambda-powertools/logger';

/** One Powertools logger per process. Never log the X-API-Key header, a key, or a key hash. */
export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'timetrack-api',
  logLevel: (process.env.POWERTOOLS_LOG_LEVEL ?? process.env.LOG_LEVEL ?? 'INFO') as 'INFO',
});
