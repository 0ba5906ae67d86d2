import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Reply, resourceHandler } from '../../shared/api/handler';
import { buildOpenApi, serverObject } from '../../shared/api/openapi';
import {
  OPENAPI_HEADERS,
  REFERENCE_PAGE_HEADERS,
  REFERENCE_SCRIPT_HEADERS,
  REFERENCE_SCRIPT_UNVERSIONED_HEADERS,
  referencePage,
  selfContainedScript,
  type OverviewDocument,
} from '../../shared/api/reference-page';
import { DOCS_SCRIPT, openapiRoutes } from '../../shared/api/routes/openapi';

/**
 * Public: the OpenAPI document (built once per container; only `servers` follows the caller's base URL),
 * and the reference page that renders it with its script. Deployed, the script is a file next to the
 * bundle (lib/service-function.ts copies it from the redoc package); locally it is read from the package.
 */
let doc: Record<string, unknown> | undefined;
let script: { text: string; version: string } | undefined;
const loadScript = () => {
  if (!script) {
    const text = selfContainedScript(readFileSync(scriptFile(), 'utf8'));
    script = { text, version: createHash('sha256').update(text).digest('hex').slice(0, 12) };
  }
  return script;
};

function scriptFile(): string {
  const bundled = join(__dirname, DOCS_SCRIPT);
  return existsSync(bundled) ? bundled : require.resolve(`redoc/bundles/${DOCS_SCRIPT}`);
}

export const handler = resourceHandler(openapiRoutes, {
  getOpenApi: async ({ baseUrl }) => {
    doc ??= buildOpenApi();
    return new Reply({ ...doc, servers: [serverObject(baseUrl)] }, OPENAPI_HEADERS);
  },
  getApiReference: async ({ path }) => {
    doc ??= buildOpenApi();
    const page = referencePage({ doc: doc as unknown as OverviewDocument, scriptVersion: loadScript().version, trailingSlash: path.endsWith('/') });
    return new Reply(page, REFERENCE_PAGE_HEADERS);
  },
  getApiReferenceScript: async ({ query }) => {
    const { text, version } = loadScript();
    return new Reply(text, query.v === version ? REFERENCE_SCRIPT_HEADERS : REFERENCE_SCRIPT_UNVERSIONED_HEADERS);
  },
});
