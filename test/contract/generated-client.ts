import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createLocalServer } from '../../local/server';
import { ContractValidator, type ContractResponse } from '../support/contract';

/**
 * What the generated-client suites share (test/contract/orval-client.test.ts, hey-api-client.test.ts): a real
 * local HTTP server and the document it serves, and the run of a generator's compiled scenario
 * (test/contract/<generator>/scenario.ts compiled with `tsc --strict`) against it, whose every answer is
 * then checked against the served document.
 */
const ROOT = resolve(__dirname, '../..');

/** A local server for the suite (jest's beforeAll/afterAll), and the document it serves at /v1/openapi.json. */
export function useServedDocument(): { readonly baseUrl: string; readonly served: Record<string, any> } {
  let server: Server;
  const state = { baseUrl: '', served: {} as Record<string, any> };
  beforeAll(async () => {
    server = createLocalServer({ authCacheTtlSeconds: 300 });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    state.served = (await (await fetch(`${state.baseUrl}/v1/openapi.json`)).json()) as Record<string, any>;
  });
  afterAll(async () => {
    await new Promise((done) => server.close(done));
  });
  return state;
}

/**
 * Compiles test/contract/<generator>/ (its tsconfig, `--strict`) on its own and runs its scenario against
 * `baseUrl` with `env` (API_BASE_URL and RECORD_FILE are set here): the compile must print nothing, the
 * scenario must exit 0 with no stderr and print `<generator> scenario: done`. Answers the responses the
 * scenario recorded (one JSON line each).
 */
export async function runCompiledScenario(generator: 'orval' | 'hey-api', baseUrl: string, env: Record<string, string>): Promise<ContractResponse[]> {
  const out = mkdtempSync(join(tmpdir(), `${generator}-build-`));
  try {
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(__dirname, `${generator}/tsconfig.json`), '--strict', '--outDir', out], {
      encoding: 'utf8',
      timeout: 180_000,
    });
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
    expect(tsc.status).toBe(0);

    const recordFile = join(out, 'responses.jsonl');
    writeFileSync(recordFile, '');
    // asynchronously: the server it talks to runs in this process
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
      const child = execFile(
        process.execPath,
        [join(out, `${generator}/scenario.js`)],
        { encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env, API_BASE_URL: baseUrl, RECORD_FILE: recordFile } },
        (_err, stdout, stderr) => done({ status: child.exitCode, stdout, stderr }),
      );
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toContain(`${generator} scenario: done`);
    return readFileSync(recordFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as ContractResponse);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Checks every response against the served document: the `operationId status` pairs seen, and the violations counted. */
export function checkResponses(served: Record<string, any>, responses: readonly ContractResponse[]): { seen: Set<string>; violations: number } {
  const validator = new ContractValidator(served);
  const seen = new Set<string>();
  for (const res of responses) {
    validator.assert(res);
    const op = validator.operationOf(res.method, res.path);
    if (op) seen.add(`${op.op.operationId} ${res.status}`);
  }
  return { seen, violations: validator.stats.violations };
}
