import { resourceHandler } from '../../shared/api/handler';
import { buildOpenApi } from '../../shared/api/openapi';

/** Public: the OpenAPI document, built once per container; only `servers` follows the caller's base URL. */
let doc: Record<string, unknown> | undefined;

export const handler = resourceHandler('openapi', {
  getOpenApi: async ({ baseUrl }) => {
    doc ??= buildOpenApi();
    return { ...doc, servers: [{ url: baseUrl }] };
  },
});
