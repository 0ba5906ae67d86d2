import { Logger } from '@aws-lambda-powertools/logger';
import * as settings from './settings';

/** One Powertools logger per process. Never log the X-API-Key header, a key, or a key hash. */
export const logger = new Logger({
  serviceName: settings.serviceName(),
  logLevel: settings.logLevel() as 'INFO',
});
