import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createLocalServer } from '../../local/server';
import { serverObject } from '../../shared/api/openapi';
import { ContractValidator, type ContractResponse } from '../support/contract';
import { makeKey, newWorkspace, useTestTable } from '../support/harness';
import { generateOrval, ORVAL_FILE } from './codegen';
import { HIGH_LIMITS } from './scenario';

/**
 * Contract, part 4: a third generator, orval (its fetch client), as a client author uses it. Its output is
 * committed (test/contract/generated/orval/api.ts, checked here to be current), compiled on its own with
 * `tsc --strict` together with a scenario that assigns the JSON answers to the document's types and the
 * CSV answers to `string` with no narrowing, and run against a real local server; every answer it got is
 * checked against the served document.
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

test('the committed client is what orval makes of the served document', () => {
  // on failure: npx tsx test/contract/codegen.ts
  expect(readFileSync(ORVAL_FILE, 'utf8')).toBe(generateOrval({ ...served, servers: [serverObject('/')] }));
}, 120_000);

test('the JSON operations are typed as JSON alone, the CSV operations as text', () => {
  const code = readFileSync(ORVAL_FILE, 'utf8');
  const dataOf = (type: string) => new RegExp(`export type ${type} = \\{\\s*data: ([^\\n]+)\\n`).exec(code)?.[1]?.trim();
  expect(dataOf('listTimeEntriesResponse200')).toBe('ListTimeEntries200');
  expect(dataOf('getSummaryReportResponse200')).toBe('SummaryReport');
  expect(dataOf('listTimeEntriesCsvResponse200')).toBe('string');
  expect(dataOf('getSummaryReportCsvResponse200')).toBe('string');
  expect(code).not.toMatch(/data: \w+ \| string\b/);
});

test('the generated client, compiled with tsc --strict, calls a real server with no narrowing', async () => {
  const out = mkdtempSync(join(tmpdir(), 'orval-build-'));
  try {
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(__dirname, 'orval/tsconfig.json'), '--strict', '--outDir', out], {
      encoding: 'utf8',
      timeout: 180_000,
    });
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
    expect(tsc.status).toBe(0);

    const key = await makeKey(newWorkspace('orval'), HIGH_LIMITS);
    const recordFile = join(out, 'responses.jsonl');
    writeFileSync(recordFile, '');
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
      const child = execFile(
        process.execPath,
        [join(out, 'orval/scenario.js')],
        { encoding: 'utf8', timeout: 120_000, env: { ...process.env, API_BASE_URL: baseUrl, API_KEY: key, RECORD_FILE: recordFile } },
        (_err, stdout, stderr) => done({ status: child.exitCode, stdout, stderr }),
      );
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toContain('orval scenario: done');

    const validator = new ContractValidator(served);
    const seen = new Set<string>();
    for (const line of readFileSync(recordFile, 'utf8').split('\n').filter(Boolean)) {
      const res = JSON.parse(line) as ContractResponse;
      validator.assert(res);
      const op = validator.operationOf(res.method, res.path);
      if (op) seen.add(`${op.op.operationId} ${res.status}`);
    }
    expect([...seen].sort()).toEqual(
      [
        'getMe 200',
        'addClient 201',
        'getClient 200',
        'getClient 404',
        'createTimeEntry 201',
        'listTimeEntries 200',
        'getSummaryReport 200',
        'listTimeEntriesCsv 200',
        'getSummaryReportCsv 200',
        'deleteClient 409',
      ].sort(),
    );
    expect(validator.stats.violations).toBe(0);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}, 300_000);
