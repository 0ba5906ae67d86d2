import { resourceHandler } from '../../shared/http/handler';

// Routes of this resource are declared in shared/routes.ts; until their implementations land they
// answer 501 NOT_IMPLEMENTED through the shared stack (auth, scope and validation still apply).
export const handler = resourceHandler('tasks', {});
