import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildOpenApi } from '../../shared/api/openapi';

/**
 * The typed client's types, generated from the OpenAPI document by openapi-typescript (its CLI, run as a
 * client author would). The output is committed (test/contract/generated/api.d.ts) rather than generated
 * at test time because `npm test` type-checks before jest runs: the typed-client scenario must compile
 * against types that exist in a fresh clone. test/contract/typed-client.test.ts regenerates them from the
 * served document and fails when the committed file is stale. To refresh:
 *
 *   npx tsx test/contract/codegen.ts
 */
export const GENERATED_TYPES = resolve(__dirname, 'generated/api.d.ts');
const ROOT = resolve(__dirname, '../..');

export function generateTypes(doc: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-ts-'));
  try {
    const input = join(dir, 'openapi.json');
    const output = join(dir, 'api.d.ts');
    writeFileSync(input, JSON.stringify(doc, null, 2));
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), input, '-o', output], { encoding: 'utf8', timeout: 120_000 });
    if (run.status !== 0) throw new Error(`openapi-typescript failed (${run.status}): ${run.stderr}${run.stdout}`);
    return readFileSync(output, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  writeFileSync(GENERATED_TYPES, generateTypes(buildOpenApi()));
  console.log(`wrote ${GENERATED_TYPES}`);
}
