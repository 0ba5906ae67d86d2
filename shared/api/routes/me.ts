import * as s from '../schemas';
import { ANY_KEY, lazyRoutes, type RouteDef } from './define';

/** Routes about the calling key rather than a resource of the workspace. */
export const meRoutes = lazyRoutes({
  getMe: {
    method: 'GET',
    path: '/v1/me',
    resource: 'me',
    scope: ANY_KEY,
    summary: 'The calling API key: its id, name, workspace, scopes, limits, expiry, and the quota left in both windows',
    description: 'The key as the API enforces it now (the authorizer answer is cached up to 5 minutes), and its quota after counting this request.',
    response: s.meSchema,
    successStatus: 200,
  },
} satisfies Record<string, RouteDef>);
