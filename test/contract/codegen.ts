import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { buildOpenApi } from '../../shared/api/openapi';

/**
 * The typed client's types, generated from the OpenAPI document by openapi-typescript (its CLI, run as a
 * client author would). The output is committed (test/contract/generated/api.d.ts) rather than generated
 * at test time because `npm test` type-checks before jest runs: the typed-client scenario must compile
 * against types that exist in a fresh clone. test/contract/typed-client.test.ts regenerates them from the
 * served document and fails when the committed file is stale. To refresh:
 *
 *   npx tsx test/contract/codegen.ts
 *
 * It also writes the second generator's client: @hey-api/openapi-ts (its fetch client and SDK), committed
 * under test/contract/generated/hey-api/ for the same reason and checked the same way by
 * test/contract/hey-api-client.test.ts; and the third: orval (its fetch client, one file), committed as
 * test/contract/generated/orval/api.ts and checked by test/contract/orval-client.test.ts.
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

export const HEY_API_DIR = resolve(__dirname, 'generated/hey-api');

/** Every file @hey-api/openapi-ts writes for the document (its CLI, default plugins: types, SDK, fetch client), by relative path. */
export function generateHeyApi(doc: unknown): Map<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'hey-api-'));
  try {
    const input = join(dir, 'openapi.json');
    const output = join(dir, 'out');
    writeFileSync(input, JSON.stringify(doc, null, 2));
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/@hey-api/openapi-ts/bin/run.js'), '-i', input, '-o', output, '-c', '@hey-api/client-fetch'], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, NO_COLOR: '1', CI: 'true' },
    });
    if (run.status !== 0) throw new Error(`@hey-api/openapi-ts failed (${run.status}): ${run.stderr}${run.stdout}`);
    return readTree(output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const ORVAL_FILE = resolve(__dirname, 'generated/orval/api.ts');

/** What orval (its CLI, fetch client) writes for the document: one file of types and functions. */
export function generateOrval(doc: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'orval-'));
  try {
    const input = join(dir, 'openapi.json');
    const output = join(dir, 'api.ts');
    writeFileSync(input, JSON.stringify(doc, null, 2));
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/orval/dist/bin/orval.mjs'), '--input', input, '--output', output, '--client', 'fetch'], {
      encoding: 'utf8',
      timeout: 120_000,
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', CI: 'true' },
    });
    if (run.status !== 0) throw new Error(`orval failed (${run.status}): ${run.stderr}${run.stdout}`);
    return readFileSync(output, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The files under a folder, by path relative to it. */
export function readTree(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files.set(relative(root, p), readFileSync(p, 'utf8'));
    }
  };
  walk(root);
  return files;
}

if (require.main === module) {
  const doc = buildOpenApi();
  writeFileSync(GENERATED_TYPES, generateTypes(doc));
  console.log(`wrote ${GENERATED_TYPES}`);
  rmSync(HEY_API_DIR, { recursive: true, force: true });
  for (const [file, text] of generateHeyApi(doc)) {
    mkdirSync(dirname(join(HEY_API_DIR, file)), { recursive: true });
    writeFileSync(join(HEY_API_DIR, file), text);
  }
  console.log(`wrote ${HEY_API_DIR}`);
  mkdirSync(dirname(ORVAL_FILE), { recursive: true });
  writeFileSync(ORVAL_FILE, generateOrval(doc));
  console.log(`wrote ${ORVAL_FILE}`);
}
