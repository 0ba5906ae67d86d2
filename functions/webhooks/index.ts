import { entityHandler } from '../../shared/api/crud';
import { webhooksRoutes } from '../../shared/api/routes/webhooks';
import { webhookOperations } from '../../shared/webhooks/routes';

export const handler = entityHandler(webhooksRoutes, webhookOperations);
