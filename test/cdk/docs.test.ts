import { readFileSync } from 'node:fs';
import type { ServiceFunction } from '../../lib/service-function';
import { join } from 'node:path';
import { FUNCTION_NAMES } from '../../shared/api/routes';
import { ENTITIES } from '../../shared/domain/registry';
import { allFunctions, API_FUNCTIONS_BEYOND_ENTITIES, asArray, resourcesOfType, statementsOfRole, synth, type Synth } from './support';

/**
 * docs/operations.md and docs/capacity.md stay true: every number they state about the stack (indexes,
 * functions, alarms, the readers of each secret, the concurrency split) is read from the synthesized
 * template of both stages here, never from a literal, so a branch that adds functions or alarms fails this
 * test until the documents say so.
 */
const ROOT = join(__dirname, '../..');
const operations = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
const capacity = readFileSync(join(ROOT, 'docs/capacity.md'), 'utf8');

/** The one number a pattern captures in a document (the pattern must occur, with the same number each time). */
function stated(doc: string, pattern: RegExp): number {
  const all = [...doc.matchAll(new RegExp(pattern.source, 'g'))].map((m) => Number(m[1]!.replace(/,/g, '')));
  expect(all.length).toBeGreaterThan(0);
  expect(new Set(all).size).toBe(1);
  return all[0]!;
}
const names = (text: string) => [...text.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]!).sort();

function readersOf(s: Synth, secretLogicalId: string): string[] {
  return allFunctions(s)
    .filter(([, f]) => statementsOfRole(s, s.logicalId(f.role)).some((st) => asArray(st.Action).includes('secretsmanager:GetSecretValue') && st.Resource?.Ref === secretLogicalId))
    .map(([n]) => n)
    .sort();
}

describe.each(['dev', 'prod'] as const)('docs/operations.md and docs/capacity.md against the %s template', (stage) => {
  const s = synth(stage);

  test('indexes: the GSI count and the GSI range', () => {
    const [[, table]] = resourcesOfType(s, 'AWS::DynamoDB::Table') as [[string, any]];
    const gsis = (table.Properties.GlobalSecondaryIndexes as Array<{ IndexName: string }>).map((g) => g.IndexName);
    expect(stated(operations, /(\d+) GSIs/)).toBe(gsis.length);
    expect(stated(operations, /GSI1\.\.GSI(\d+)/)).toBe(gsis.length);
    expect(gsis).toContain(`GSI${gsis.length}`);
    expect(stated(operations, /GSI1Throttles` … `GSI(\d+)Throttles/)).toBe(gsis.length);
  });

  // The counts are stated per resource of the registry and per function, so adding a resource by the
  // worked example of docs/architecture.md (three edits) leaves them true (test/architecture/new-resource.test.ts).
  const entityFunctions = FUNCTION_NAMES.filter((n) => !(API_FUNCTIONS_BEYOND_ENTITIES as readonly string[]).includes(n));

  test('functions: one per resource of the registry, and every other function named in the Functions row', () => {
    const fns = resourcesOfType(s, 'AWS::Lambda::Function');
    expect(entityFunctions).toHaveLength(ENTITIES.length);
    const row = operations.split('\n').find((l) => l.startsWith('| Functions |'))!;
    expect(row).toContain('one function per resource of the registry (`shared/domain/registry.ts`');
    const [resources, others] = row.split(';')[1]!.split(/ and \d+ more: /) as [string, string];
    // the resources named as today's are resources of the registry (a new one need not be named)
    expect(names(resources).filter((n) => !entityFunctions.includes(n as never))).toEqual([]);
    const beyond = allFunctions(s)
      .map(([n]) => n)
      .filter((n) => !entityFunctions.includes(n as never))
      .sort();
    expect(names(others.split(';')[0]!)).toEqual(beyond);
    expect(stated(operations, /and (\d+) more: `openapi`/)).toBe(beyond.length);
    expect(fns).toHaveLength(ENTITIES.length + beyond.length);
  });

  test('outputs: every output of the template has its row in the outputs table, and the table names no other', () => {
    const section = operations.slice(operations.indexOf('## Stack outputs'), operations.indexOf('## The first API key'));
    const rows = [...section.matchAll(/^\| `([A-Za-z0-9]+)` \|/gm)].map((m) => m[1]!).sort();
    expect(rows).toEqual(Object.keys(s.json.Outputs ?? {}).sort());
  });

  test('retained resources: prod retains the user pool (with deletion protection) as the Stages table says', () => {
    const pool = resourcesOfType(s, 'AWS::Cognito::UserPool')[0]![1];
    expect(operations).toContain('| User pool on stack deletion | destroyed | **retained**, deletion protection on |');
    expect(pool.DeletionPolicy).toBe(stage === 'prod' ? 'Retain' : 'Delete');
  });

  test('alarms: 2 per function (no Errors alarm for the 2 authorizers) and those of the Alarms table', () => {
    const fns = resourcesOfType(s, 'AWS::Lambda::Function').length;
    const perFunction = stated(operations, /CloudWatch alarms \((\d+) per function/);
    const authorizers = stated(operations, /no Errors alarm for the (\d+) authorizers/);
    const more = stated(operations, /and (\d+) more: the table of "Alarms"/);
    expect(authorizers).toBe(allFunctions(s).filter(([n]) => n.endsWith('authorizer')).length);
    expect(resourcesOfType(s, 'AWS::CloudWatch::Alarm')).toHaveLength(perFunction * fns - authorizers + more);
  });

  test('secrets: the readers of each, in the overview, the rotation table and the redeploy loop', () => {
    const cursor = readersOf(s, s.logicalId(s.stack.cursorSecret));
    const ring = readersOf(s, s.logicalId(s.stack.webhooks.keyRing));
    const row = operations.split('\n').find((l) => l.startsWith('| Secrets |'))!;
    const [cursorPart, ringPart] = row.split('`WebhookKeys`');
    expect(names(cursorPart!.split('read by')[1]!)).toEqual(cursor);
    expect(names(ringPart!.split('read by')[1]!)).toEqual(ring);
    const rotation = (secret: string) =>
      names(
        operations
          .split('\n')
          .find((l) => l.startsWith(`| \`${secret}\``))!
          .split('|')[2]!,
      );
    expect(rotation('CursorSecret')).toEqual(cursor);
    expect(rotation('WebhookKeys')).toEqual(ring);
    const loop = operations
      .match(/for fn in ([a-z -]+); do/)![1]!
      .trim()
      .split(/\s+/)
      .sort();
    expect(loop).toEqual([...new Set([...cursor, ...ring])].sort());
  });

  test('concurrency: the reserved concurrency and the sender cap stated for prod', () => {
    if (stage !== 'prod') return;
    const reserved = (f: ServiceFunction) => s.json.Resources[s.logicalId(f.fn)]!.Properties!.ReservedConcurrentExecutions as number;
    const w = s.stack.webhooks;
    const cap = resourcesOfType(s, 'AWS::Lambda::EventSourceMapping').find(([, m]) => m.Properties!.FunctionName?.Ref === s.logicalId(w.sender.fn))![1].Properties!.ScalingConfig
      .MaximumConcurrency;
    for (const doc of [operations, capacity]) {
      expect(stated(doc, /sender\s+has\s+\*\*(\d+)\*\*\s+reserved/)).toBe(reserved(w.sender));
      expect(stated(doc, /maximum\s+concurrency\s+of\s+(\d+)/)).toBe(cap);
      expect(stated(doc, /the\s+dispatcher\s+\*\*(\d+)\*\*/)).toBe(reserved(w.dispatcher));
      expect(stated(doc, /together\s+at\s+most\s+(\d+)/)).toBe(reserved(w.sender) + reserved(w.dispatcher));
      expect(stated(doc, /account\s+concurrency\s+of\s+at\s+least\s+(\d+)/)).toBe(reserved(w.sender) + reserved(w.dispatcher) + 100);
    }
  });
});
