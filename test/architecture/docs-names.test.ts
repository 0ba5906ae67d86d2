import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Every path, environment variable and npm script that README.md and docs/*.md name exists:
 *   - paths: a word of a code span or code block that starts with a top folder of the repository
 *     (`shared/...`, `test/...`, `.ci/run`; `:12-30` line suffixes and `#anchors` dropped; up to the first
 *     `<`, `*` or `{` for patterns such as `functions/<resource>/`), and every relative Markdown link;
 *     a bare file name (`handler.ts`, in a folder map) must be the name of some file of the repository;
 *   - environment variables (and every other UPPER_CASE_NAME the docs write: error codes, constants): the
 *     name occurs in the code (shared, functions, lib, bin, local, admin, console, bench, test, .ci,
 *     package.json), unless the doc's own shell snippet assigns it (`API_URL=$(aws ...)`);
 *   - npm scripts: `npm run <name>`, `npm start` and `npm test` name a script of package.json.
 */
const ROOT = join(__dirname, '../..');
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const TOP_FOLDER = /^(?:\.\/)?(?:bin|lib|functions|shared|local|admin|test|bench|console|docs|\.ci)\//;
const SOURCE_FILE = /^[\w.-]+\.(?:json|jsonc|js|mjs|cjs|ts|tsx|yaml|yml|md|sh|css|html)$/;

/** Named on purpose though they are not in the repository, each with the reason. */
const NOT_IN_THE_REPOSITORY: Record<string, string> = {
  'functions/users/index.ts': 'docs/architecture.md: the file its worked example (adding a resource) creates',
  'shared/domain/entities/users.ts': 'docs/architecture.md: the file its worked example creates',
  'shared/entities/invoices.ts': 'docs/performance.md: a past path, named with its present one',
  'ipaddr.js': 'an npm package, not a file',
  'config.json': "the console page's configuration, served at /console/config.json (built from settings, no file)",
  'console-openapi.json': "the console's OpenAPI document, built by local/console-assets.ts beside the console bundle (a build output, no file in the repository)",
  'console-app.js': "the console page's script, built by local/console-assets.ts (a build output, no file in the repository)",
  'console-app.css': "the console page's style, built by local/console-assets.ts (a build output, no file in the repository)",
  ERR_JWT_CLAIM_VALIDATION_FAILED: "jose's error code, logged as the refusal's reason (docs/operations.md, ConsoleTokensRefused)",
  ERR_JWT_EXPIRED: "jose's error code, logged as the refusal's reason (docs/operations.md, ConsoleTokensRefused)",
  KEYS_ONLY: 'a DynamoDB projection type (AWS), named as an alternative design',
  WEBHOOK_SECRET: "a receiver's own variable in the verification example (code a customer runs, not ours)",
};

interface Named {
  doc: string;
  name: string;
}

function namesIn(doc: string): { paths: Named[]; files: Named[]; links: Named[]; upper: Named[]; scripts: Named[]; assigned: Set<string> } {
  const text = readFileSync(join(ROOT, doc), 'utf8');
  const blocks = [...text.matchAll(/```[\w-]*\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const prose = text.replace(/```[\w-]*\n[\s\S]*?```/g, '');
  const spans = [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
  const words = [...spans, ...blocks].flatMap((s) => s.split(/[\s,;()'"=`[\]]+/)).map((w) => w.replace(/[:#].*$/, '').replace(/[.,)]+$/, ''));
  const named = (name: string) => ({ doc, name });
  return {
    paths: words.filter((w) => TOP_FOLDER.test(w)).map(named),
    files: words.filter((w) => SOURCE_FILE.test(w)).map(named),
    links: [...prose.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((m) => m[1]!)
      .filter((l) => !/^[a-z]+:/.test(l))
      .map((l) => named(join(dirname(doc), l))),
    upper: [...text.matchAll(/\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/g)].map((m) => named(m[1]!)),
    scripts: [...text.matchAll(/\bnpm (?:run (?:--silent )?([\w:-]+)|(start|test)\b)/g)].map((m) => named((m[1] ?? m[2])!)),
    assigned: new Set(blocks.flatMap((b) => [...b.matchAll(/^\s*([A-Z][A-Z0-9_]*)=\$\(/gm)].map((m) => m[1]!))),
  };
}

const found = DOCS.map(namesIn);
const all = <K extends 'paths' | 'files' | 'links' | 'upper' | 'scripts'>(k: K) => found.flatMap((f) => f[k]);
const missing = (xs: Named[], exists: (name: string) => boolean) => [
  ...new Set(xs.filter((x) => !(x.name in NOT_IN_THE_REPOSITORY) && !exists(x.name)).map((x) => `${x.doc}: ${x.name}`)),
];

test('every path the docs name exists (folders and files, up to a pattern placeholder)', () => {
  const paths = all('paths');
  expect(paths.length).toBeGreaterThan(100);
  expect(missing(paths, (p) => existsSync(join(ROOT, p.split(/[<*{]/)[0]!)))).toEqual([]);
});

test('every relative link of the docs reaches a file', () => {
  const links = all('links');
  expect(links.length).toBeGreaterThan(20);
  expect(missing(links, (l) => existsSync(join(ROOT, l)))).toEqual([]);
});

test('every bare file name the docs write is the name of a file of the repository', () => {
  // the repository's files by name (no git needed: the worked example's experiment runs on an archive)
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) {
        if (!['node_modules', '.git', 'cdk.out', '.data'].includes(e.name)) walk(join(dir, e.name));
      } else names.add(basename(e.name));
    }
  };
  walk(ROOT);
  expect(missing(all('files'), (f) => names.has(f) || existsSync(join(ROOT, f)))).toEqual([]);
});

test('every environment variable (and other UPPER_CASE name) the docs write occurs in the code', () => {
  const code: string[] = [readFileSync(join(ROOT, 'package.json'), 'utf8')];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx|js|mjs|sh|json|yaml)$/.test(e.name) || dir.endsWith('.ci')) code.push(readFileSync(p, 'utf8'));
    }
  };
  for (const d of ['shared', 'functions', 'lib', 'bin', 'local', 'admin', 'console', 'bench', 'test', '.ci']) if (existsSync(join(ROOT, d))) walk(join(ROOT, d));
  const source = code.join('\n');
  const assigned = new Set(found.flatMap((f) => [...f.assigned]));
  const upper = all('upper');
  expect(upper.map((u) => u.name)).toEqual(expect.arrayContaining(['TABLE_NAME', 'DYNAMODB_ENDPOINT', 'AUTH_CACHE_TTL_SECONDS']));
  expect(missing(upper, (n) => assigned.has(n) || new RegExp(`\\b${n}\\b`).test(source))).toEqual([]);
});

test('every npm script the docs run is a script of package.json', () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const named = all('scripts');
  expect(named.map((s) => s.name)).toEqual(expect.arrayContaining(['start', 'test', 'bench', 'admin']));
  expect(missing(named, (s) => s in scripts)).toEqual([]);
});
