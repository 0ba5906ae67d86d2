import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The import rules of docs/architecture.md, checked on every source file's relative imports:
 * - shared/platform (logger, metrics, runtime settings) imports nothing else of the repository, and every
 *   layer may import it: the authorizer and the webhook workers log without loading the API layer;
 * - shared/domain imports only shared/platform (pure declarations and rules);
 * - shared/data imports only shared/domain; shared/services imports domain and data; shared/api and shared/seed
 *   import domain, data and services, not each other;
 * - nothing in shared/ imports local/, admin/, lib/, bench/ or functions/;
 * - admin/ and local/ do not import each other;
 * - the folder graph has no cycle;
 * - in shared/, only shared/platform/settings.ts reads process.env.
 */
const ROOT = resolve(__dirname, '../..');
const FOLDERS = [
  'shared/platform',
  'shared/domain',
  'shared/data',
  'shared/services',
  'shared/invoicing',
  'shared/api',
  'shared/console',
  'shared/seed',
  'functions',
  'lib',
  'bin',
  'local',
  'admin',
  'bench',
  'test',
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'node_modules' || name === 'generated' ? [] : sources(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}
const folderOf = (file: string) => FOLDERS.find((f) => relative(ROOT, file).startsWith(`${f}/`));

/** Every (from folder, to folder, file, specifier) of a relative import, require or dynamic import. */
function edges(): Array<{ from: string; to: string; file: string; spec: string }> {
  const out: Array<{ from: string; to: string; file: string; spec: string }> = [];
  const pattern = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
  for (const top of ['shared', 'functions', 'lib', 'bin', 'local', 'admin', 'bench', 'test']) {
    for (const file of sources(join(ROOT, top))) {
      const from = folderOf(file);
      if (!from) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(pattern)) {
        const target = resolve(dirname(file), m[1]!);
        const to = FOLDERS.find((f) => relative(ROOT, target) === f || relative(ROOT, target).startsWith(`${f}/`));
        if (to && to !== from) out.push({ from, to, file: relative(ROOT, file), spec: m[1]! });
      }
    }
  }
  return out;
}

const ALLOWED: Record<string, string[]> = {
  'shared/platform': [],
  'shared/domain': ['shared/platform'],
  'shared/data': ['shared/platform', 'shared/domain'],
  // shared/services/invoice-pdf.ts renders what the invoicing wing reads (its getInvoice)
  'shared/services': ['shared/platform', 'shared/domain', 'shared/data', 'shared/invoicing'],
  // The invoicing wing (issue 32): its rules, store and services over data, domain and platform only.
  'shared/invoicing': ['shared/platform', 'shared/domain', 'shared/data', 'shared/api'],
  'shared/api': ['shared/platform', 'shared/domain', 'shared/data', 'shared/services'],
  // The console's HTTP layer (its own route table and stack) builds on the API's error model and responses.
  'shared/console': ['shared/platform', 'shared/domain', 'shared/data', 'shared/api', 'shared/services', 'shared/invoicing'],
  'shared/seed': ['shared/platform', 'shared/domain', 'shared/data', 'shared/services', 'shared/invoicing'],
  functions: ['shared/platform', 'shared/api', 'shared/console', 'shared/domain', 'shared/data', 'shared/services', 'shared/invoicing'],
  lib: ['shared/platform', 'shared/api', 'shared/console', 'shared/domain', 'shared/data', 'shared/invoicing'],
  bin: ['lib'],
  local: ['shared/platform', 'shared/api', 'shared/console', 'shared/domain', 'shared/data', 'shared/services', 'shared/invoicing', 'shared/seed', 'functions'],
  admin: ['shared/platform', 'shared/api', 'shared/domain', 'shared/data', 'shared/services', 'shared/seed'],
};

const violations = (all: ReturnType<typeof edges>) =>
  all.filter((e) => ALLOWED[e.from] !== undefined && !ALLOWED[e.from]!.includes(e.to)).map((e) => `${e.file} imports ${e.spec} (${e.from} -> ${e.to})`);

test('imports point one way: each folder imports only the layers below it', () => {
  const all = edges();
  expect(all.length).toBeGreaterThan(100); // the scan sees the repository's imports
  expect(violations(all)).toEqual([]);
});

test('the check fails on an upward import (the timer rule pulled back into shared/data would be one)', () => {
  const upward = { from: 'shared/data', to: 'shared/services', file: 'shared/data/repository.ts', spec: '../services/timers' };
  expect(violations([upward])).toEqual(['shared/data/repository.ts imports ../services/timers (shared/data -> shared/services)']);
  // The rule lives above the data layer, which reaches it only through its port (shared/data/companions.ts).
  expect(sources(join(ROOT, 'shared/data')).filter((f) => /\bisRunning\b|RUNNING#|runningTimer\(/.test(readFileSync(f, 'utf8')) && !f.endsWith('keys.ts'))).toEqual([]);
});

test('shared/ reads the environment in one module: shared/platform/settings.ts', () => {
  const readers = sources(join(ROOT, 'shared'))
    .filter((f) => /process\.env\b/.test(readFileSync(f, 'utf8')))
    .map((f) => relative(ROOT, f));
  expect(readers).toEqual(['shared/platform/settings.ts']);
});

test('no cycle between folders', () => {
  const graph = new Map<string, Set<string>>();
  for (const e of edges()) graph.set(e.from, (graph.get(e.from) ?? new Set()).add(e.to));
  const cycles: string[] = [];
  const visit = (node: string, path: string[]) => {
    if (path.includes(node)) {
      cycles.push([...path.slice(path.indexOf(node)), node].join(' -> '));
      return;
    }
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
  };
  for (const node of graph.keys()) visit(node, []);
  expect(cycles).toEqual([]);
});
