import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * The counts of issue 34 item 3 over the production code (shared/, functions/, lib/, local/, admin/, bin/,
 * console/; not test/ or bench/): `Record<string, unknown>` (target at most 60; a type alias of it counts
 * once per use, so renaming it lowers nothing), `as unknown as` (at most 2), `StoredItem` (only inside the data
 * layer: shared/data and a wing's store, shared/<wing>/store*.ts, the one code of a wing that knows its item
 * layout and hands its routes and services typed records; issue 32 item 1), and the files over 500 lines (none). Generated files (a first line saying "Generated ...
 * do not edit", such as console/api/schema.ts from openapi-typescript) are not counted: nobody writes them.
 * `npx tsx test/architecture/type-counts.ts` prints the counts, the targets and where each count comes
 * from; test/architecture/type-counts.test.ts holds them at their ceilings.
 */
const ROOT = resolve(__dirname, '../..');
export const PRODUCTION_DIRS = ['shared', 'functions', 'lib', 'local', 'admin', 'bin', 'console'];
/** Files another change is splitting while a count is taken (none since session 9's merge: the invoicing service and the route table are split). */
export const LONG_FILE_EXEMPT: string[] = [];
/** The targets of issue 34 item 3. */
/** The data layer: shared/data, and each wing's store files (shared/invoicing/store.ts, store-profile.ts...). */
const inDataLayer = (p: string) => p.startsWith('shared/data/') || /^shared\/[a-z-]+\/store(-[a-z-]+)?\.ts$/.test(p);
export const TARGETS = { recordStringUnknown: 60, asUnknownAs: 2, storedItemOutsideData: 0, filesOver500Lines: 0 };

/** A generated file says so on its first line (console/api/schema.ts: "Generated from ... do not edit"). */
export const isGenerated = (text: string) => /^\/[*/].*\bgenerated\b.*\bdo not edit\b/i.test(text.split('\n', 1)[0] ?? '');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'node_modules' ? [] : sources(p);
    return /\.tsx?$/.test(p) && !p.endsWith('.d.ts') ? [p] : [];
  });
}

export interface SourceFile {
  path: string;
  text: string;
}

export function productionFiles(): { files: SourceFile[]; generated: string[] } {
  const all = PRODUCTION_DIRS.flatMap((d) => sources(join(ROOT, d))).map((f) => ({ path: relative(ROOT, f), text: readFileSync(f, 'utf8') }));
  return { files: all.filter((f) => !isGenerated(f.text)), generated: all.filter((f) => isGenerated(f.text)).map((f) => f.path) };
}

/**
 * `Record<string, unknown>`, and `EntityRecord<AnyEntity>`, which is the same type under another name: AnyEntity
 * erases the fields, so a record of any entity accepts any keys and values (a review of session 10 found 23
 * uses that had replaced Record<string, unknown> without narrowing anything; they count).
 */
const RECORD = /(?<!Entity)Record<string, unknown>|EntityRecord<AnyEntity>/g;
/** `type X = Record<string, unknown>` (or Readonly<...>, or an intersection/union naming it): X is an alias. */
const ALIAS = /\btype\s+(\w+)(?:<[^=]*>)?\s*=\s*[^;]*(?:Record<string, unknown>|EntityRecord<AnyEntity>)/g;
/** `interface X extends Record<string, unknown>`: X is one too. */
const EXTENDS = /\binterface\s+(\w+)(?:<[^{]*>)?\s+extends\s+[^{]*(?:Record<string, unknown>|EntityRecord<AnyEntity>)/g;

/** The aliases of Record<string, unknown> declared in the files (an alias of an alias too). */
export function recordAliases(files: readonly SourceFile[]): string[] {
  const names = new Set<string>();
  for (;;) {
    const before = names.size;
    const known = [...names].map((n) => `\\b${n}\\b`);
    for (const f of files) {
      for (const re of [ALIAS, EXTENDS]) for (const m of f.text.matchAll(re)) names.add(m[1]!);
      if (known.length) {
        const via = new RegExp(`\\b(?:type\\s+(\\w+)(?:<[^=]*>)?\\s*=[^;]*(?:${known.join('|')})|interface\\s+(\\w+)(?:<[^{]*>)?\\s+extends\\s+[^{]*(?:${known.join('|')}))`, 'g');
        for (const m of f.text.matchAll(via)) names.add((m[1] ?? m[2])!);
      }
    }
    if (names.size === before) return [...names].sort();
  }
}

const occurrences = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

export function typeCounts() {
  const { files, generated } = productionFiles();
  const aliases = recordAliases(files);
  const aliasUse = aliases.length ? new RegExp(`\\b(?:${aliases.join('|')})\\b`, 'g') : undefined;
  // a use of an alias counts as one Record<string, unknown>; its declaration (which names Record itself) once
  const records = (f: SourceFile) => occurrences(f.text, RECORD) + (aliasUse ? occurrences(f.text, aliasUse) : 0);
  const count = (fn: (f: SourceFile) => number, where: (p: string) => boolean = () => true) => files.filter((f) => where(f.path)).reduce((n, f) => n + fn(f), 0);
  const storedItem = (f: SourceFile) => occurrences(f.text, /\bStoredItem\b/g);
  const asUnknownAs = (f: SourceFile) => occurrences(f.text, /\bas unknown as\b/g);
  const byFile = (fn: (f: SourceFile) => number, where: (p: string) => boolean = () => true) =>
    Object.fromEntries(
      files
        .filter((f) => where(f.path) && fn(f) > 0)
        .map((f) => [f.path, fn(f)] as const)
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
    );
  const lines = (f: SourceFile) => f.text.split('\n').length - (f.text.endsWith('\n') ? 1 : 0);
  const long = files.filter((f) => lines(f) > 500);
  return {
    recordStringUnknown: count(records),
    recordAliases: aliases,
    asUnknownAs: count(asUnknownAs),
    storedItem: count(storedItem),
    storedItemOutsideData: count(storedItem, (p) => !inDataLayer(p)),
    storedItemInServices: count(storedItem, (p) => p.startsWith('shared/services/')),
    filesOver500Lines: long.filter((f) => !LONG_FILE_EXEMPT.includes(f.path)).map((f) => `${f.path} (${lines(f)})`),
    exemptFilesOver500Lines: long.filter((f) => LONG_FILE_EXEMPT.includes(f.path)).map((f) => `${f.path} (${lines(f)})`),
    generatedFilesNotCounted: generated,
    where: {
      recordStringUnknown: byFile(records),
      asUnknownAs: byFile(asUnknownAs),
      storedItemOutsideData: byFile(storedItem, (p) => !inDataLayer(p)),
    },
  };
}

if (require.main === module) {
  const c = typeCounts();
  const { where, ...counts } = c;
  console.log(JSON.stringify({ ...counts, targets: TARGETS }, null, 2));
  if (process.argv.includes('--where')) console.log(JSON.stringify(where, null, 2));
}
