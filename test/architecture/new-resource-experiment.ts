import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * The experiment behind docs/architecture.md, section 5 ("Worked example: adding a plain resource"): on a
 * clean checkout of HEAD (`git archive HEAD`, so nothing uncommitted counts) in a temporary directory, it
 * applies the three edits exactly as the document shows them (its code blocks are read from the document,
 * so the experiment and the document cannot drift apart), regenerates the committed clients
 * (`npx tsx test/contract/codegen.ts`), then runs the type-check and the tests, and removes the directory.
 *
 *   npx tsx test/architecture/new-resource-experiment.ts            # typecheck + the suites that enumerate resources
 *   npx tsx test/architecture/new-resource-experiment.ts --full     # typecheck + the whole jest suite (npm test)
 *   ... --keep                                                      # leave the directory for a look
 *
 * The default runs the suites that enumerate the registry or the route table (RELEVANT below: architecture,
 * CDK, isolation, entities, OpenAPI and the generated clients); `--full` is `npm test`, the same as CI, and
 * takes as long as the whole suite. Exit status 0 when everything it ran passed.
 */
const ROOT = resolve(__dirname, '../..');
const RELEVANT = [
  'test/architecture',
  'test/cdk/functions.test.ts',
  'test/cdk/api.test.ts',
  'test/cdk/least-privilege.test.ts',
  'test/cdk/bundles.test.ts',
  'test/cdk/docs.test.ts',
  'test/isolation',
  'test/resources/entities.test.ts',
  'test/api/openapi.test.ts',
  'test/contract/typed-client.test.ts',
  'test/contract/hey-api-client.test.ts',
  'test/contract/orval-client.test.ts',
];

export interface DocumentedEdits {
  /** path -> whole content, for the files the document shows whole */
  files: Map<string, string>;
  /** the registry line the document shows */
  registryLine: string;
  /** the entity's exported constant and its module, to import into the registry */
  entity: { name: string; module: string };
}

/** Reads the three edits of section 5 from the document: each code block follows a line naming its file. */
export function documentedEdits(doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8')): DocumentedEdits {
  const start = doc.indexOf('## 5. Worked example');
  const end = doc.indexOf('### A resource that is not plain', start);
  if (start < 0 || end < 0) throw new Error('docs/architecture.md: section 5 not found');
  const section = doc.slice(start, end);
  const blocks = [...section.matchAll(/`([^`\n]+\.ts)`[^\n]*\n\n```ts\n([\s\S]*?)```/g)].map((m) => ({ path: m[1]!, code: m[2]! }));
  const registry = blocks.find((b) => b.path === 'shared/domain/registry.ts');
  const entityFile = blocks.find((b) => b.path.startsWith('shared/domain/entities/'));
  const fnFile = blocks.find((b) => b.path.startsWith('functions/'));
  if (blocks.length !== 3 || !registry || !entityFile || !fnFile) throw new Error(`docs/architecture.md: want 3 edits, found ${blocks.map((b) => b.path).join(', ')}`);
  const name = /export const (\w+) = defineEntity/.exec(entityFile.code)?.[1];
  if (!name) throw new Error('docs/architecture.md: the entity file exports no defineEntity constant');
  return {
    files: new Map([
      [entityFile.path, entityFile.code],
      [fnFile.path, fnFile.code],
    ]),
    registryLine: registry.code.trim(),
    entity: { name, module: `./entities/${entityFile.path.replace(/^shared\/domain\/entities\//, '').replace(/\.ts$/, '')}` },
  };
}

/**
 * Fills `dir` with this repository's files: `HEAD` (a clean checkout of the last commit: `git archive`) or
 * `worktree` (the files git tracks or would track, as they are now); node_modules is this checkout's, linked.
 */
export function checkout(dir: string, source: 'HEAD' | 'worktree'): void {
  if (!existsSync(join(ROOT, 'node_modules'))) throw new Error('node_modules missing: run npm ci first');
  if (source === 'HEAD') execFileSync('bash', ['-c', `git archive HEAD | tar -x -C '${dir}'`], { cwd: ROOT, stdio: 'inherit' });
  else if (existsSync(join(ROOT, '.git'))) {
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0');
    for (const file of files.filter((f) => f && existsSync(join(ROOT, f)))) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      copyFileSync(join(ROOT, file), join(dir, file));
    }
  } else {
    // not a git checkout (e.g. the experiment's own copy): every file but what git would ignore here
    const skipped = new Set(['node_modules', '.data', 'cdk.out', '.git']);
    cpSync(ROOT, dir, { recursive: true, filter: (src) => !skipped.has(basename(src)) });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
}

/** Applies the edits to a checkout at `dir`. */
export function applyEdits(dir: string, edits: DocumentedEdits): void {
  for (const [path, code] of edits.files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), code);
  }
  const registryPath = join(dir, 'shared/domain/registry.ts');
  const before = readFileSync(registryPath, 'utf8');
  const lines = before.split('\n');
  const at = lines.findIndex((l) => l.startsWith('export const ENTITIES = '));
  if (at < 0) throw new Error('shared/domain/registry.ts: no ENTITIES line');
  lines[at] = edits.registryLine;
  const lastImport = lines.map((l, i) => (l.startsWith('import { ') && l.includes("from './entities/") ? i : -1)).reduce((a, b) => Math.max(a, b), -1);
  const importLine = `import { ${edits.entity.name} } from '${edits.entity.module}';`;
  // a checkout that has the entry already (the experiment's own copy, when this runs inside it) is left as it is
  if (!lines.includes(importLine)) lines.splice(lastImport + 1, 0, importLine);
  writeFileSync(registryPath, lines.join('\n'));
}

function run(dir: string, cmd: string, args: string[]): boolean {
  console.log(`\n== ${cmd} ${args.join(' ')}`);
  // the checkout's own binaries first on the PATH (as npm scripts have them: Node 22 included)
  const PATH = `${join(dir, 'node_modules/.bin')}:${process.env.PATH ?? ''}`;
  const r = spawnSync(cmd, args, { cwd: dir, stdio: 'inherit', env: { ...process.env, PATH, FORCE_COLOR: '0' } });
  return r.status === 0;
}

function main(): void {
  const full = process.argv.includes('--full');
  const keep = process.argv.includes('--keep');
  const edits = documentedEdits();
  const dir = mkdtempSync(join(tmpdir(), 'new-resource-'));
  let ok = false;
  try {
    checkout(dir, 'HEAD');
    applyEdits(dir, edits);
    console.log(`applied: ${[...edits.files.keys(), 'shared/domain/registry.ts'].join(', ')} in ${dir}`);
    ok = run(dir, 'tsx', ['test/contract/codegen.ts']) && run(dir, 'npm', ['run', 'typecheck']) && run(dir, 'jest', ['--runInBand', ...(full ? [] : RELEVANT)]);
  } finally {
    if (keep) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  console.log(ok ? '\nnew-resource experiment: PASS' : '\nnew-resource experiment: FAIL');
  process.exit(ok ? 0 : 1);
}

if (require.main === module) main();
