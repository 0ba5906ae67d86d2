import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildConsoleOpenApi } from '../../shared/console/openapi';
import { consoleRouteList } from '../../shared/console/routes';
import { consoleClient, writeConsoleDocument } from './support';

/**
 * GET /console/api/openapi.json is served from the document built with the console function's assets
 * (local/console-assets.ts: at deploy time by lib/console.ts, locally by npm start), not built per container:
 * the function carries neither the builder nor zod's JSON Schema generator (issue 35; test/cdk/bundles.test.ts
 * checks the bundles). What it serves is byte for byte what the builder makes for the caller's base URL.
 */
const api = consoleClient();

test('without the built document the route is a 500 with the request id only (no file name, no path)', async () => {
  process.env.CONSOLE_ASSETS_DIR = mkdtempSync(join(tmpdir(), 'console-no-document-'));
  const r = await api.call('GET', '/console/api/openapi.json');
  expect(r.status).toBe(500);
  expect(r.body.error.code).toBe('INTERNAL_ERROR');
  expect(r.text).not.toMatch(/console-openapi|console-no-document|not found/);
});

test("the served document is byte for byte the builder's for the caller's base URL (servers after info)", async () => {
  writeConsoleDocument();
  const r = await api.call('GET', '/console/api/openapi.json');
  expect(r.status).toBe(200);
  const servers = (r.body as { servers: Array<{ url: string }> }).servers;
  expect(servers).toHaveLength(1);
  expect(Object.keys(r.body as object).slice(0, 4)).toEqual(['openapi', 'info', 'servers', 'security']);
  expect(r.text).toBe(JSON.stringify(buildConsoleOpenApi(consoleRouteList, servers[0]!.url)));
  // read once per container: a second request gives the same bytes
  expect((await api.call('GET', '/console/api/openapi.json')).text).toBe(r.text);
});
