import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { ITEM_TYPES } from '../../shared/data/item-types';
import { keys } from '../../shared/data/keys';
import { TYPE_ATTRIBUTE } from '../../shared/data/table';
import { ENTITIES } from '../../shared/domain/registry';

/**
 * The item-type registry (shared/data/item-types.ts) against the entity declarations: every `_type` of the
 * table names one kind of item, and no entity's type, or sort-key prefix in the workspace partition,
 * collides with an item that is not an entity. And against the code: every `_type` the production code
 * writes (read from its syntax and types, below) is in the registry or is an entity's type, and every
 * registered type is written somewhere.
 */
const itemTypes = Object.values(ITEM_TYPES);
const entityTypes = ENTITIES.map((e) => e.type);

test('every item type is distinct, and no entity takes one', () => {
  expect(new Set(itemTypes).size).toBe(itemTypes.length);
  expect(new Set(entityTypes).size).toBe(entityTypes.length);
  expect(entityTypes.filter((t) => (itemTypes as readonly string[]).includes(t))).toEqual([]);
});

test("no entity's sort keys in the workspace partition can be taken for a lock, a running timer, the invoice sequence or the billing profile", () => {
  // the items that are not entities but live in the partition WS#<ws>, next to the entities of `pk: {}`
  const others = [keys.uniqueLock('w', 'name', 'x').SK, keys.runningTimer('w', 'u').SK, keys.invoiceSequence('w').SK, keys.billingProfile('w').SK].map((sk) => sk.split('#')[0]!);
  expect(others).toEqual(['UNIQUE', 'RUNNING', 'INVOICESEQ', 'BILLINGPROFILE']);
  const prefixes = ENTITIES.filter((e) => !e.key.pk.prefix).map((e) => e.key.sk.prefix);
  expect(prefixes.length).toBeGreaterThan(0);
  // an entity's list reads begins_with(SK, '<prefix>#'): a collision is an item whose SK starts the same way
  expect(prefixes.filter((p) => others.includes(p!))).toEqual([]);
});

// ------------------------------------------------------------------------------------------------
// Every `_type` the code writes. A write of the type attribute is, in production code (PRODUCTION below):
//   1. a property of an object literal named `_type`, or computed from an expression whose type is the
//      literal "_type" (`[TYPE_ATTRIBUTE]: ...`): an item put;
//   2. an UpdateExpression assigning `#x = :v` where ExpressionAttributeNames maps `#x` to "_type": the value
//      of every `':v'` property of the enclosing function (the ExpressionAttributeValues, built inline,
//      in a spread or in a variable).
// Each value is read from its type (so `ITEM_TYPES.apiKey`, a const holding it, or 'APIKEY' all read
// 'APIKEY'); an entity record's type is read as `<declaration>.type`.

const ROOT = join(__dirname, '../..');
// lib/ and bin/ (CDK) write no item; lib/webhooks.ts filters the stream on `_type`, which is a read.
const PRODUCTION = ['shared', 'functions', 'local', 'admin'];

interface TypeWrite {
  where: string;
  /** the literal written, or 'entity' for `<entity declaration>.type` */
  value: string;
}

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return productionFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

function typeWrites(): { writes: TypeWrite[]; unknown: string[] } {
  const files = PRODUCTION.flatMap((d) => productionFiles(join(ROOT, d)));
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
  const program = ts.createProgram(files, { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const writes: TypeWrite[] = [];
  const unknown: string[] = [];
  const where = (n: ts.Node) => {
    const sf = n.getSourceFile();
    return `${relative(ROOT, sf.fileName)}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  };
  const literalsOf = (t: ts.Type): string[] | undefined => {
    const parts = t.isUnion() ? t.types : [t];
    return parts.every((p) => p.isStringLiteral()) ? parts.map((p) => (p as ts.StringLiteralType).value) : undefined;
  };
  const isTypeAttribute = (e: ts.Expression) => literalsOf(checker.getTypeAtLocation(e))?.join() === TYPE_ATTRIBUTE;
  const record = (value: ts.Expression) => {
    const literals = literalsOf(checker.getTypeAtLocation(value));
    if (literals) for (const v of literals) writes.push({ where: where(value), value: v });
    else if (/\.type$/.test(value.getText())) writes.push({ where: where(value), value: 'entity' });
    else unknown.push(`${where(value)}: ${value.getText()}`);
  };
  const nameText = (n: ts.PropertyName) => (ts.isIdentifier(n) || ts.isStringLiteral(n) ? n.text : undefined);
  const propertyOf = (o: ts.ObjectLiteralExpression, name: string) =>
    o.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && nameText(p.name) === name)?.initializer;
  const textOf = (e: ts.Expression | undefined): string | undefined => {
    if (!e) return undefined;
    if (ts.isStringLiteralLike(e)) return e.text;
    if (ts.isTemplateExpression(e)) return [e.head.text, ...e.templateSpans.map((s) => s.literal.text)].join(' ');
    return literalsOf(checker.getTypeAtLocation(e))?.join(' ');
  };
  /** An object literal, inline or in a const it names. */
  const objectOf = (e: ts.Expression | undefined): ts.ObjectLiteralExpression | undefined => {
    if (e && ts.isObjectLiteralExpression(e)) return e;
    const decl = e && ts.isIdentifier(e) ? checker.getSymbolAtLocation(e)?.valueDeclaration : undefined;
    return decl && ts.isVariableDeclaration(decl) && decl.initializer && ts.isObjectLiteralExpression(decl.initializer) ? decl.initializer : undefined;
  };
  const enclosingFunction = (n: ts.Node): ts.Node => {
    for (let p = n.parent; p; p = p.parent) if (ts.isFunctionLike(p)) return p;
    return n.getSourceFile();
  };
  const valuesNamed = (scope: ts.Node, placeholder: string): ts.Expression[] => {
    const found: ts.Expression[] = [];
    const visit = (n: ts.Node) => {
      if (ts.isPropertyAssignment(n) && nameText(n.name) === placeholder) found.push(n.initializer);
      ts.forEachChild(n, visit);
    };
    visit(scope);
    return found;
  };

  for (const sf of program.getSourceFiles()) {
    if (!files.includes(sf.fileName)) continue;
    const visit = (n: ts.Node) => {
      if (ts.isPropertyAssignment(n)) {
        const named = nameText(n.name) === TYPE_ATTRIBUTE;
        const computed = ts.isComputedPropertyName(n.name) && isTypeAttribute(n.name.expression);
        if (named || computed) record(n.initializer);
      }
      if (ts.isObjectLiteralExpression(n)) {
        const names = objectOf(propertyOf(n, 'ExpressionAttributeNames'));
        if (names) {
          for (const p of names.properties) {
            if (!ts.isPropertyAssignment(p) || !isTypeAttribute(p.initializer)) continue;
            const placeholder = nameText(p.name);
            const update = propertyOf(n, 'UpdateExpression');
            if (!placeholder || !update) continue; // read in a condition only
            const text = textOf(update);
            if (text === undefined) {
              unknown.push(`${where(update)}: an UpdateExpression naming the type attribute that the test cannot read`);
              continue;
            }
            const escaped = placeholder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            for (const m of text.matchAll(new RegExp(`${escaped}\\s*=\\s*(:\\w+)`, 'g'))) {
              const values = valuesNamed(enclosingFunction(n), m[1]!);
              if (!values.length) unknown.push(`${where(update)}: no value for ${m[1]} in its function`);
              values.forEach(record);
            }
          }
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return { writes, unknown };
}

describe('the `_type` values the production code writes', () => {
  let found: ReturnType<typeof typeWrites>;
  beforeAll(() => {
    found = typeWrites();
  });

  test('each is read: a literal type, or an entity declaration’s `type`', () => {
    expect(found.unknown).toEqual([]);
    // the reader sees both kinds of write: puts of items and SET of the type in update expressions
    expect(found.writes.some((w) => w.value === 'entity')).toBe(true);
    expect(found.writes.length).toBeGreaterThan(itemTypes.length);
  });

  test('each literal is in the registry (shared/data/item-types.ts)', () => {
    const registered = new Set<string>([...itemTypes, ...entityTypes]);
    const unregistered = found.writes.filter((w) => w.value !== 'entity' && !registered.has(w.value)).map((w) => `${w.where}: ${w.value}`);
    expect(unregistered).toEqual([]);
  });

  test('every registered type is written somewhere (the registry lists no item that does not exist)', () => {
    const written = new Set(found.writes.map((w) => w.value));
    expect(itemTypes.filter((t) => !written.has(t))).toEqual([]);
  });
});

test('docs/data-model.md lists every item family (each registered type and entity type) with its key', () => {
  const doc = readFileSync(join(ROOT, 'docs/data-model.md'), 'utf8');
  const start = doc.indexOf('## Every item family, by `_type`');
  expect(start).toBeGreaterThan(0);
  const lines = doc.slice(start).split('\n');
  const first = lines.findIndex((l) => l.startsWith('| `_type`'));
  const end = lines.findIndex((l, i) => i > first && !l.startsWith('|'));
  const rows = lines.slice(first + 2, end).filter((l) => l.startsWith('| `'));
  expect(rows.length).toBeGreaterThan(20);
  const listed = new Set(rows.flatMap((r) => [...r.split('|')[1]!.matchAll(/`([A-Z]+)`/g)].map((m) => m[1]!)));
  expect([...itemTypes, ...entityTypes].filter((t) => !listed.has(t))).toEqual([]);
  // each row names its partition and sort key
  for (const r of rows)
    expect(
      r
        .split('|')
        .slice(2, 4)
        .every((cell) => /`[^`]+`/.test(cell)),
    ).toBe(true);
});
