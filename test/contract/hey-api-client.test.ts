import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createLocalServer } from '../../local/server';
import { serverObject } from '../../shared/api/openapi';
import { routeList, SCOPES } from '../../shared/api/routes';
import { seedInvoices } from '../../shared/seed/seed-invoices';
import { ContractValidator, type ContractResponse } from '../support/contract';
import { makeKey, newWorkspace, useTestTable } from '../support/harness';
import { generateHeyApi, HEY_API_DIR, readTree } from './codegen';
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
const ROOT = resolve(__dirname, '../..');
let server: Server;
let baseUrl: string;
let served: Record<string, any>;

beforeAll(async () => {
  server = createLocalServer({ authCacheTtlSeconds: 300 });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  served = (await (await fetch(`${baseUrl}/v1/openapi.json`)).json()) as Record<string, any>;
});
afterAll(async () => {
  await new Promise((done) => server.close(done));
});

test('the committed client is what @hey-api/openapi-ts makes of the served document', () => {
  // the committed client is generated from the document with the server `/` (npx tsx test/contract/codegen.ts)
  const fresh = generateHeyApi({ ...served, servers: [serverObject('/')] });
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
  const operationIds = Object.values(served.paths as Record<string, Record<string, { operationId: string }>>).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
  const schemaNames = Object.keys(served.components.schemas);
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
  const out = mkdtempSync(join(tmpdir(), 'hey-api-build-'));
  try {
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(__dirname, 'hey-api/tsconfig.json'), '--strict', '--outDir', out], {
      encoding: 'utf8',
      timeout: 180_000,
    });
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
    expect(tsc.status).toBe(0);

    const ws = newWorkspace('hey');
    const key = await makeKey(ws, HIGH_LIMITS);
    const invoices = await seedInvoices(ws, 4); // one of each status: draft, sent, paid, void
    const idOf = (status: string) => String(invoices.find((i) => i.status === status)!.id);
    const recordFile = join(out, 'responses.jsonl');
    writeFileSync(recordFile, '');
    // asynchronously: the server it talks to runs in this process
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
      const child = execFile(
        process.execPath,
        [join(out, 'hey-api/scenario.js')],
        {
          encoding: 'utf8',
          timeout: 120_000,
          env: {
            ...process.env,
            API_BASE_URL: baseUrl,
            API_KEY: key,
            API_KEY_SCOPES: String(SCOPES.length),
            INVOICE_IDS: `${idOf('draft')},${idOf('paid')}`,
            RECORD_FILE: recordFile,
          },
        },
        (_err, stdout, stderr) => done({ status: child.exitCode, stdout, stderr }),
      );
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toContain('hey-api scenario: done');

    // every answer it got keeps the document; every operation of the route table was used with its success status
    const validator = new ContractValidator(served);
    const seen = new Set<string>();
    const responses = readFileSync(recordFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as ContractResponse);
    // a resource added by its declaration alone (the compiled scenario cannot name it): its five routes, recorded alike
    for (const resource of plainResources()) {
      await plainRoundTrip(resource, async (method, path, body) => {
        const res = await fetch(`${baseUrl}${path}`, {
          method,
          headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await res.text();
        responses.push({ method, path, status: res.status, headers: Object.fromEntries(res.headers.entries()), body: text });
        return { status: res.status, body: JSON.parse(text) };
      });
    }
    for (const res of responses) {
      validator.assert(res);
      const op = validator.operationOf(res.method, res.path);
      if (op) seen.add(`${op.op.operationId} ${res.status}`);
    }
    expect(routeList.filter((r) => !seen.has(`${r.id} ${r.notImplemented ? 501 : r.successStatus}`)).map((r) => r.id)).toEqual([]);
    expect(validator.stats.violations).toBe(0);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}, 300_000);
