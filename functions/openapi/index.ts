import { resourceHandler } from '../../shared/http/handler';
import { buildOpenApi } from '../../shared/openapi';

/** Public: the OpenAPI document, built once per container; only `servers` follows the caller's base URL. */
let doc: Record<string, unknown> | undefined;

export const handler = resourceHandler('openapi', {
  getOpenApi: async ({ baseUrl }) => {
    doc ??= buildOpenApi();
    return { ...doc, servers: [{ url: baseUrl }] };
  },
});
