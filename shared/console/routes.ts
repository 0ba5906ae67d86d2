import { SCOPES } from '../domain/auth';
import { templateMatcher } from '../api/routes/define';
import * as settings from '../platform/settings';
import { apiKeyRoutes } from './features/api-keys';
import { billingProfileRoutes } from './features/billing-profile';
import { invoiceRoutes } from './features/invoices';
import { webhookRoutes } from './features/webhooks';
import { auditRoutes, memberRoutes, meRoutes } from './features/members';
import { ASSET_HEADERS, CONSOLE_ASSETS, consoleOpenApi, consolePage, pageHeaders, readAsset } from './page';
import { consoleRoute, TextReply, type ConsoleRoute } from './route-table';
import * as s from './schemas';

/**
 * THE console route table: the page and its assets (public), then each section's routes (one
 * `consoleRoute(...)` each, in shared/console/features/). A new section adds its feature's object here.
 */
export function consoleSettings() {
  return {
    issuer: settings.consoleIssuer() ?? '',
    clientId: settings.consoleClientId() ?? '',
    scope: 'openid email',
    logoutUrl: settings.consoleLogoutUrl() || null,
    authorizerCacheSeconds: settings.apiKeyCacheSeconds(),
    scopes: SCOPES,
  };
}

const pageRoutes = {
  getConsolePage: consoleRoute(
    {
      method: 'GET',
      path: '/console',
      access: null,
      tag: 'Page',
      summary: 'The console (HTML); signs in with OpenID Connect',
      query: s.pageQuery,
      response: s.textSchema,
      produces: 'text/html; charset=utf-8',
      successStatus: 200,
    },
    async () => new TextReply(consolePage(), pageHeaders(consoleSettings().issuer || 'http://localhost', settings.consoleAuthOrigin() || undefined)),
  ),
  getConsoleScript: consoleRoute(
    {
      method: 'GET',
      path: `/console/${CONSOLE_ASSETS.script}`,
      access: null,
      tag: 'Page',
      summary: "The console's script (bundled by esbuild)",
      response: s.textSchema,
      produces: 'text/javascript; charset=utf-8',
      successStatus: 200,
    },
    async () => new TextReply(readAsset(CONSOLE_ASSETS.script), ASSET_HEADERS),
  ),
  getConsoleStyle: consoleRoute(
    {
      method: 'GET',
      path: `/console/${CONSOLE_ASSETS.style}`,
      access: null,
      tag: 'Page',
      summary: "The console's style sheet",
      response: s.textSchema,
      produces: 'text/css; charset=utf-8',
      successStatus: 200,
    },
    async () => new TextReply(readAsset(CONSOLE_ASSETS.style), ASSET_HEADERS),
  ),
  getConsoleConfig: consoleRoute(
    {
      method: 'GET',
      path: '/console/config.json',
      access: null,
      tag: 'Page',
      summary: "What the page needs to sign in: the OpenID Provider's issuer, the console's public client id, the sign-out URL",
      response: s.configSchema,
      successStatus: 200,
    },
    async () => consoleSettings(),
  ),
  getConsoleOpenApi: consoleRoute(
    {
      method: 'GET',
      path: '/console/api/openapi.json',
      access: null,
      tag: 'Page',
      summary: "The console API's OpenAPI 3.0 document (public)",
      response: s.textSchema,
      successStatus: 200,
    },
    // the document of this table, built with the function's assets (shared/console/openapi.ts, local/console-assets.ts)
    async ({ baseUrl }): Promise<unknown> => consoleOpenApi(baseUrl),
  ),
};

export const consoleRoutes = { ...pageRoutes, ...meRoutes, ...apiKeyRoutes, ...memberRoutes, ...auditRoutes, ...invoiceRoutes, ...webhookRoutes, ...billingProfileRoutes };
export type ConsoleRouteId = keyof typeof consoleRoutes;
/** A route of the console's table: its declaration, implementation (if bound here) and id. */
export type ConsoleTableRoute = ConsoleRoute & { id: ConsoleRouteId };
export const consoleRouteList: ConsoleTableRoute[] = (Object.keys(consoleRoutes) as ConsoleRouteId[]).map((id) => ({
  id,
  ...(consoleRoutes[id] as ConsoleRoute),
}));

/**
 * The media types API Gateway must pass as binary (the API's `binaryMediaTypes`): those of the routes whose
 * answer is a BinaryReply (the invoice PDF). API Gateway decodes the function's base64 body for a request whose
 * Accept header names one of them.
 */
export const BINARY_MEDIA_TYPES: string[] = [...new Set(consoleRouteList.flatMap((r) => (r.produces && !/^text\/|json/.test(r.produces) ? [r.produces] : [])))];

/** Distinct path templates of the console, each with its routes. */
export function consolePathTemplates(): Map<string, ConsoleTableRoute[]> {
  const m = new Map<string, ConsoleTableRoute[]>();
  for (const r of consoleRouteList) m.set(r.path, [...(m.get(r.path) ?? []), r]);
  return m;
}
export const matchConsolePath = templateMatcher([...consolePathTemplates().keys()]);
export const findConsoleRoute = (template: string, method: string) => consoleRouteList.find((r) => r.path === template && r.method === method);
export const isConsolePath = (path: string) => path === '/console' || path.startsWith('/console/');
