import { entityHandler } from '../../shared/api/crud';
import { webhookOperations } from '../../shared/webhooks/routes';

export const handler = entityHandler('webhooks', webhookOperations);
