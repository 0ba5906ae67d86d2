import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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
 * - the folder graph has no cycle, and no file imports itself through others (file-level cycle check);
 * - in shared/, only shared/platform/settings.ts reads process.env;
 * - a wing (WINGS: a feature in one folder, shared/webhooks/, shared/invoicing/) imports shared/platform,
 *   shared/domain, shared/data and the kernel (shared/api) only, never another wing; inside it, its routes
 *   import its services and store, its services its store, its store neither (routes -> services -> store);
 *   and only what is above the wings (functions, local, lib, admin, shared/console, shared/seed) imports it;
 * - nothing outside the invoicing wing imports its store (`store.ts`, `store-*.ts`: the only code that knows its
 *   items), and only its store.ts names the invoice item's internals (`_lo`, `_hi`, `_entries`, ...).
 */
const ROOT = resolve(__dirname, '../..');
/**
 * The wings: a feature that is neither HTTP nor storage in one folder. A wing's file is its routes
 * (`routes.ts`, `routes-*.ts`, `routes/`), its store (`store.ts`, `store-*.ts`, `store/`: the only code that
 * knows its items), its pure rules (`rules.ts`: computations without I/O, under every other part) or one of
 * its services (the rest).
 */
const WINGS = ['shared/webhooks', 'shared/invoicing'];
type WingPart = 'routes' | 'services' | 'store' | 'rules';
const partOf = (file: string): WingPart => {
  const inWing = file.slice(file.indexOf('/', 'shared/'.length) + 1);
  if (/^routes(-[^/]*)?(\.ts)?$|^routes\//.test(inWing)) return 'routes';
  if (/^store(-[^/]*)?(\.ts)?$|^store\//.test(inWing)) return 'store';
  if (/^rules(-[^/]*)?(\.ts)?$|^rules\//.test(inWing)) return 'rules';
  return 'services';
};
/** What each part of a wing may import of its own wing: its pure rules (`rules.ts`: no I/O) are under every part. */
const WING_PARTS: Record<WingPart, WingPart[]> = {
  routes: ['services', 'store', 'rules'],
  services: ['services', 'store', 'rules'],
  store: ['store', 'rules'],
  rules: ['rules'],
};
/** What a wing may import outside itself: the layers below it and the kernel (shared/api). */
const WING_MAY_IMPORT = ['shared/platform', 'shared/domain', 'shared/data', 'shared/api'];

const FOLDERS = [
  ...WINGS,
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
/** A relative import (a side-effect `import './x'` too), require or dynamic import, and its specifier. */
const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+|require\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
const folderOf = (file: string) => FOLDERS.find((f) => relative(ROOT, file).startsWith(`${f}/`));

/** Every (from folder, to folder, file, specifier) of a relative import, require or dynamic import. */
function edges(): Array<{ from: string; to: string; file: string; spec: string }> {
  const out: Array<{ from: string; to: string; file: string; spec: string }> = [];
  for (const top of ['shared', 'functions', 'lib', 'bin', 'local', 'admin', 'bench', 'test']) {
    for (const file of sources(join(ROOT, top))) {
      const from = folderOf(file);
      if (!from) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const target = resolve(dirname(file), m[1]!);
        const to = FOLDERS.find((f) => relative(ROOT, target) === f || relative(ROOT, target).startsWith(`${f}/`));
        if (to && to !== from) out.push({ from, to, file: relative(ROOT, file), spec: m[1]! });
      }
    }
  }
  return out;
}

const ALLOWED: Record<string, string[]> = {
  ...Object.fromEntries(WINGS.map((w) => [w, WING_MAY_IMPORT])),
  'shared/platform': [],
  'shared/domain': ['shared/platform'],
  'shared/data': ['shared/platform', 'shared/domain'],
  // shared/services/invoice-pdf.ts renders what the invoicing wing reads (its getInvoice)
  'shared/services': ['shared/platform', 'shared/domain', 'shared/data', 'shared/invoicing'],
  // The invoicing wing (issue 32): its rules, store and services over data, domain and platform only.
  'shared/invoicing': ['shared/platform', 'shared/domain', 'shared/data', 'shared/api'],
  'shared/api': ['shared/platform', 'shared/domain', 'shared/data', 'shared/services'],
  // The console's HTTP layer (its own route table and stack) builds on the API's error model and responses.
  'shared/console': ['shared/platform', 'shared/domain', 'shared/data', 'shared/api', 'shared/services', ...WINGS],
  'shared/seed': ['shared/platform', 'shared/domain', 'shared/data', 'shared/services', ...WINGS],
  functions: ['shared/platform', 'shared/api', 'shared/console', 'shared/domain', 'shared/data', 'shared/services', ...WINGS],
  lib: ['shared/platform', 'shared/api', 'shared/console', 'shared/domain', 'shared/data', ...WINGS],
  bin: ['lib'],
  local: ['shared/platform', 'shared/api', 'shared/console', 'shared/domain', 'shared/data', 'shared/services', 'shared/seed', 'functions', ...WINGS],
  admin: ['shared/platform', 'shared/api', 'shared/domain', 'shared/data', 'shared/services', 'shared/seed', ...WINGS],
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

/** Every relative import between two files of one wing, with the part of each. */
function wingEdges(): Array<{ wing: string; from: WingPart; to: WingPart; file: string; spec: string }> {
  const out: Array<{ wing: string; from: WingPart; to: WingPart; file: string; spec: string }> = [];
  for (const wing of WINGS.filter((w) => existsSync(join(ROOT, w)))) {
    for (const file of sources(join(ROOT, wing))) {
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const target = relative(ROOT, resolve(dirname(file), m[1]!));
        if (target.startsWith(`${wing}/`)) out.push({ wing, from: partOf(relative(ROOT, file)), to: partOf(target), file: relative(ROOT, file), spec: m[1]! });
      }
    }
  }
  return out;
}
const wingViolations = (all: ReturnType<typeof wingEdges>) =>
  all.filter((e) => !WING_PARTS[e.from].includes(e.to)).map((e) => `${e.file} imports ${e.spec} (${e.wing}: ${e.from} -> ${e.to})`);

test('a wing: routes -> services -> store, and outside it only the layers below and the kernel; wings do not import each other', () => {
  const all = edges();
  expect(all.some((e) => e.from === 'shared/webhooks')).toBe(true); // the scan sees the webhooks wing
  // ALLOWED of a wing lists no other wing, and no layer below a wing lists one
  expect(violations(all.filter((e) => WINGS.includes(e.from) || WINGS.includes(e.to)))).toEqual([]);
  const inside = wingEdges();
  expect(inside.some((e) => e.from === 'routes' && e.to === 'store')).toBe(true);
  expect(wingViolations(inside)).toEqual([]);
});

test('the wing check fails on a planted violation of each rule', () => {
  // a wing importing another wing
  expect(violations([{ from: 'shared/webhooks', to: 'shared/invoicing', file: 'shared/webhooks/delivery.ts', spec: '../invoicing/store' }])).toEqual([
    'shared/webhooks/delivery.ts imports ../invoicing/store (shared/webhooks -> shared/invoicing)',
  ]);
  // the API layer importing a wing
  expect(violations([{ from: 'shared/api', to: 'shared/webhooks', file: 'shared/api/crud.ts', spec: '../webhooks/store' }])).toEqual([
    'shared/api/crud.ts imports ../webhooks/store (shared/api -> shared/webhooks)',
  ]);
  // a store importing its wing's services, services importing its routes
  expect(
    wingViolations([
      { wing: 'shared/webhooks', from: 'store', to: 'services', file: 'shared/webhooks/store.ts', spec: './delivery' },
      { wing: 'shared/webhooks', from: 'services', to: 'routes', file: 'shared/webhooks/delivery.ts', spec: './routes' },
    ]),
  ).toEqual([
    'shared/webhooks/store.ts imports ./delivery (shared/webhooks: store -> services)',
    'shared/webhooks/delivery.ts imports ./routes (shared/webhooks: services -> routes)',
  ]);
  expect(partOf('shared/invoicing/routes.ts')).toBe('routes');
  expect(partOf('shared/invoicing/store/invoices.ts')).toBe('store');
  expect(partOf('shared/invoicing/sweep.ts')).toBe('services');
});

/**
 * A wing's store is the only code that knows its items (issue 32 item 1): outside the wing, nothing imports it
 * (the wing's services return records). Sealed: the invoicing wing. (The webhooks wing's store is still
 * imported by its console routes, the admin CLI and the local runner: its owner's to seal.)
 */
const SEALED_STORES = ['shared/invoicing'];
/** Every production import of a sealed wing's store from outside that wing. */
function storeImports(all: ReturnType<typeof edges>): string[] {
  return all
    .filter((e) => SEALED_STORES.includes(e.to) && e.from !== e.to && e.from !== 'test')
    .filter((e) => partOf(relative(ROOT, resolve(dirname(join(ROOT, e.file)), e.spec))) === 'store')
    .map((e) => `${e.file} imports ${e.spec} (the store of ${e.to})`);
}
/** The invoice item's internal attributes (its making: the period's sort-key range, the entry count, who made it). */
const INVOICE_INTERNALS = /\b_(?:lo|hi|entries|period|createdBy)\b/;

test("nothing outside the invoicing wing reads its items: no import of its store, and its items' internals named in its store.ts alone", () => {
  const all = edges();
  expect(all.some((e) => e.to === 'shared/invoicing' && e.from !== 'test')).toBe(true); // the scan sees the wing's callers
  expect(storeImports(all)).toEqual([]);
  const naming = PRODUCTION_TOPS.flatMap((top) => sources(join(ROOT, top)))
    .filter((f) => INVOICE_INTERNALS.test(readFileSync(f, 'utf8')))
    .map((f) => relative(ROOT, f));
  expect(naming).toEqual(['shared/invoicing/store.ts']);
});

test('the store check fails on a planted reader (a console route importing the invoicing store)', () => {
  const planted = { from: 'shared/console', to: 'shared/invoicing', file: 'shared/console/features/invoices.ts', spec: '../../invoicing/store' };
  const viaServices = { from: 'shared/console', to: 'shared/invoicing', file: 'shared/console/features/invoices.ts', spec: '../../invoicing/service' };
  expect(storeImports([planted, viaServices, { ...planted, spec: '../../invoicing/store-reads' }])).toEqual([
    'shared/console/features/invoices.ts imports ../../invoicing/store (the store of shared/invoicing)',
    'shared/console/features/invoices.ts imports ../../invoicing/store-reads (the store of shared/invoicing)',
  ]);
});

/** The file graph of the production code: each file and the files it imports (relative imports, type-only ones included). */
const PRODUCTION_TOPS = ['shared', 'functions', 'lib', 'bin', 'local', 'admin'];
function fileGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const top of PRODUCTION_TOPS) {
    for (const file of sources(join(ROOT, top))) {
      const to: string[] = [];
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const t = resolve(dirname(file), m[1]!);
        const hit = [`${t}.ts`, join(t, 'index.ts'), t].find((c) => existsSync(c) && statSync(c).isFile());
        if (hit) to.push(relative(ROOT, hit));
      }
      graph.set(relative(ROOT, file), to);
    }
  }
  return graph;
}

/** The import cycles of a file graph: its strongly connected components of more than one file, or a file importing itself (Tarjan). */
function fileCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

test('no file-level import cycle in the production code', () => {
  const graph = fileGraph();
  expect(graph.size).toBeGreaterThan(100);
  expect(fileCycles(graph)).toEqual([]);
});

test('the cycle check fails on a planted cycle (the console route table requiring its document lazily was one)', () => {
  const graph = new Map(fileGraph());
  // the route table's edge to the document's builder, which it had until the document became a built file (issue 35)
  expect(graph.get('shared/console/routes.ts')).not.toContain('shared/console/openapi.ts');
  graph.set('shared/console/routes.ts', [...graph.get('shared/console/routes.ts')!, 'shared/console/openapi.ts']);
  expect(graph.get('shared/console/openapi.ts')).not.toContain('shared/console/routes.ts');
  graph.set('shared/console/openapi.ts', [...graph.get('shared/console/openapi.ts')!, 'shared/console/routes.ts']);
  expect(fileCycles(graph)).toEqual([['shared/console/openapi.ts', 'shared/console/routes.ts']]);
});
