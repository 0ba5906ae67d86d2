import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverObject } from '../../shared/api/openapi';
import { routeList, SCOPES } from '../../shared/api/routes';
import { seedInvoices } from '../../shared/seed/seed-invoices';
import type { ContractResponse } from '../support/contract';
import { makeKey, newWorkspace, useTestTable } from '../support/harness';
import { generateHeyApi, HEY_API_DIR, readTree } from './codegen';
import { checkResponses, runCompiledScenario, useServedDocument } from './generated-client';
import { HIGH_LIMITS } from './scenario';
import { plainResources, plainRoundTrip } from '../support/plain-resources';

/**
 * Contract, part 5: a second client generator. @hey-api/openapi-ts makes a fetch client and an SDK from the
 * served document (committed under test/contract/generated/hey-api, checked here to be current); the
 * generated code and test/contract/hey-api/scenario.ts are compiled with `tsc --strict` on their own and
 * the compiled scenario runs every resource against a real local HTTP server. Every answer it got is then
 * checked against the document. Operation and schema names must not clash with JavaScript's globals or
 * with what the generator exports itself.
 */
useTestTable();
const doc = useServedDocument();

test('the committed client is what @hey-api/openapi-ts makes of the served document', () => {
  // the committed client is generated from the document with the server `/` (npx tsx test/contract/codegen.ts)
  const fresh = generateHeyApi({ ...doc.served, servers: [serverObject('/')] });
  const committed = readTree(HEY_API_DIR);
  // on failure: npx tsx test/contract/codegen.ts
  expect([...committed.keys()].sort()).toEqual([...fresh.keys()].sort());
  for (const [file, text] of fresh) expect([file, committed.get(file)]).toEqual([file, text]);
}, 120_000);

/** The names the generated client module exports itself (its factory, config helpers, serializers, types). */
function generatorExports(): { values: string[]; types: string[] } {
  const index = readFileSync(join(HEY_API_DIR, 'client/index.ts'), 'utf8');
  const values: string[] = [];
  const types: string[] = [];
  for (const m of index.matchAll(/export (type )?\{([^}]*)\}/g)) {
    const names = m[2]!
      .split(',')
      .map((n) => n.trim().replace(/^type\s+/, ''))
      .filter(Boolean)
      .map((n) => n.split(/\s+as\s+/).pop()!);
    (m[1] ? types : values).push(...names);
  }
  return { values, types };
}

test("no operation or schema name clashes with JavaScript's globals or the generator's own exports", () => {
  const { values } = generatorExports();
  expect(values).toEqual(expect.arrayContaining(['createClient', 'createConfig']));
  const operationIds = Object.values(doc.served.paths as Record<string, Record<string, { operationId: string }>>).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
  const schemaNames = Object.keys(doc.served.components.schemas);
  const globals = new Set(Object.getOwnPropertyNames(globalThis));
  expect(operationIds.filter((id) => values.includes(id) || globals.has(id))).toEqual([]);
  expect(schemaNames.filter((name) => values.includes(name) || globals.has(name))).toEqual([]);
  // the two that clashed: the error schema (was `Error`) and the create route of clients (was `createClient`)
  expect(schemaNames).toContain('ErrorResponse');
  expect(operationIds).toContain('addClient');
  // the generated SDK's index exports them as they are named in the document
  const index = readFileSync(join(HEY_API_DIR, 'index.ts'), 'utf8');
  expect(index).toMatch(/\baddClient\b/);
  expect(index).not.toMatch(/\bcreateClient\b/);
});

test('the generated client, compiled with tsc --strict, runs every resource against a real server', async () => {
  const ws = newWorkspace('hey');
  const key = await makeKey(ws, HIGH_LIMITS);
  const invoices = await seedInvoices(ws, 4); // one of each status: draft, sent, paid, void
  const idOf = (status: string) => String(invoices.find((i) => i.status === status)!.id);
  const responses: ContractResponse[] = await runCompiledScenario('hey-api', doc.baseUrl, {
    API_KEY: key,
    API_KEY_SCOPES: String(SCOPES.length),
    INVOICE_IDS: `${idOf('draft')},${idOf('paid')}`,
  });

  // every answer it got keeps the document; every operation of the route table was used with its success status
  // a resource added by its declaration alone (the compiled scenario cannot name it): its five routes, recorded alike
  for (const resource of plainResources()) {
    await plainRoundTrip(resource, async (method, path, body) => {
      const res = await fetch(`${doc.baseUrl}${path}`, {
        method,
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      responses.push({ method, path, status: res.status, headers: Object.fromEntries(res.headers.entries()), body: text });
      return { status: res.status, body: JSON.parse(text) };
    });
  }
  const { seen, violations } = checkResponses(doc.served, responses);
  expect(routeList.filter((r) => !seen.has(`${r.id} ${r.notImplemented ? 501 : r.successStatus}`)).map((r) => r.id)).toEqual([]);
  expect(violations).toBe(0);
}, 300_000);
