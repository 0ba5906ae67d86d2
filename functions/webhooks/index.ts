import { entityHandler } from '../../shared/api/crud';
import { webhookOperations } from '../../shared/api/webhooks';

export const handler = entityHandler('webhooks', webhookOperations);
