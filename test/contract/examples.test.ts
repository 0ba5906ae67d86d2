import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { buildOpenApi } from '../../shared/api/openapi';
import { EXAMPLE_IDS } from '../../shared/domain/examples';
import { toJsonSchema } from '../support/contract';

/**
 * The document's examples (issue 26: "every schema has realistic examples, a client 'Acme Corp', not
 * 'string'"). Each property declares its example once, on its zod schema (the entity declarations and
 * shared/api/schemas.ts, ids from shared/domain/examples.ts); shared/api/openapi.ts composes each
 * component schema's example from them. Walked here over everything a reader of the reference sees:
 * component schemas, parameters, request and response bodies, response headers.
 *
 * The rule: every value a schema describes (a string, number, integer, boolean, or an object without
 * declared properties) has an example of its own, an enum or const (the reference shows the first value), or an
 * example on an enclosing property or array that shows it. A component schema's own example does not
 * count for its properties (it is composed from them). No exemptions.
 */
type Json = Record<string, any>;
const COMPONENTS = 'openapi-components';

/** Where a value has no example (see the rule above); `covered`: an enclosing property or array has one. */
function missingExamples(schema: Json | undefined, where: string, covered = false): string[] {
  if (!schema || typeof schema !== 'object' || schema.$ref) return []; // a $ref is checked where it is defined
  const own = schema.example !== undefined || Array.isArray(schema.enum) || schema.const !== undefined;
  const shown = covered || own;
  const children: Array<[string, Json]> = [
    ...Object.entries<Json>(schema.properties ?? {}).map(([k, v]): [string, Json] => [`${where}.${k}`, v]),
    ...(schema.items ? [[`${where}[]`, schema.items] as [string, Json]] : []),
    ...['anyOf', 'oneOf', 'allOf'].flatMap((k) => ((schema[k] ?? []) as Json[]).map((v, i): [string, Json] => [`${where}.${k}[${i}]`, v])),
  ];
  if (children.length === 0) return shown ? [] : [where];
  return children.flatMap(([w, s]) => missingExamples(s, w, shown));
}

/** Every schema a reader of the reference sees, with where it is. Component roots are marked. */
function schemasOf(doc: Json): Array<{ where: string; schema: Json; component?: true; example?: unknown }> {
  const out: Array<{ where: string; schema: Json; component?: true; example?: unknown }> = [];
  for (const [name, s] of Object.entries<Json>(doc.components.schemas)) out.push({ where: `#/components/schemas/${name}`, schema: s, component: true });
  const responses = (r: Json, where: string) => {
    for (const [h, d] of Object.entries<Json>(r.headers ?? {})) out.push({ where: `${where} header ${h}`, schema: d.schema });
    for (const [ct, m] of Object.entries<Json>(r.content ?? {})) out.push({ where: `${where} ${ct}`, schema: m.schema, example: m.example });
  };
  for (const [name, r] of Object.entries<Json>(doc.components.responses)) responses(r, `#/components/responses/${name}`);
  for (const [path, ops] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(ops)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const p of op.parameters ?? []) out.push({ where: `${at} ${p.in} ${p.name}`, schema: p.schema });
      for (const [ct, m] of Object.entries<Json>(op.requestBody?.content ?? {})) out.push({ where: `${at} body ${ct}`, schema: m.schema, example: m.example });
      for (const [status, r] of Object.entries<Json>(op.responses)) if (!r.$ref) responses(r, `${at} ${status}`);
    }
  }
  return out;
}

/** Every example in a schema tree, with the (sub)schema it illustrates. */
function examplesIn(schema: Json | undefined, where: string): Array<{ where: string; schema: Json; example: unknown }> {
  if (!schema || typeof schema !== 'object') return [];
  const here = schema.example !== undefined ? [{ where, schema, example: schema.example }] : [];
  const below = [
    ...Object.entries<Json>(schema.properties ?? {}).flatMap(([k, v]) => examplesIn(v, `${where}.${k}`)),
    ...(schema.items ? examplesIn(schema.items, `${where}[]`) : []),
    ...['anyOf', 'oneOf', 'allOf'].flatMap((k) => ((schema[k] ?? []) as Json[]).flatMap((v, i) => examplesIn(v, `${where}.${k}[${i}]`))),
  ];
  return [...here, ...below];
}

/** Compiles schemas of the document with ajv (OpenAPI 3.0 converted as the contract validator does), $refs to its components. */
function validatorFor(doc: Json): (schema: Json, value: unknown) => string[] {
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictTuples: false, validateFormats: true });
  addFormats(ajv);
  const definitions = Object.fromEntries(Object.entries<Json>(doc.components.schemas).map(([n, s]) => [n, toJsonSchema(s)]));
  ajv.addSchema({ $id: COMPONENTS, definitions }, COMPONENTS);
  const cache = new Map<string, ValidateFunction>();
  return (schema, value) => {
    const js = JSON.stringify(toJsonSchema(schema, COMPONENTS));
    let fn = cache.get(js);
    if (!fn) cache.set(js, (fn = ajv.compile(JSON.parse(js) as Json)));
    return fn(value) ? [] : (fn.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`);
  };
}

const doc = buildOpenApi('https://api.example.com') as Json;
const validate = validatorFor(doc);

test('every component schema has an example, and every property of every schema a reader sees has one (own, enum, or shown by its enclosing property)', () => {
  const roots = schemasOf(doc);
  expect(roots.length).toBeGreaterThan(500);
  const withoutOwn = roots.filter((r) => r.component && r.schema.example === undefined).map((r) => r.where);
  expect(withoutOwn).toEqual([]);
  const missing = roots.flatMap((r) => (r.example !== undefined ? [] : missingExamples(r.component ? { ...r.schema, example: undefined } : r.schema, r.where)));
  expect(missing).toEqual([]);
});

test('every example is valid against the schema it illustrates (ajv, formats checked), the composed ones of the components included', () => {
  const checked: string[] = [];
  const invalid: string[] = [];
  for (const r of schemasOf(doc)) {
    const pairs = [...examplesIn(r.schema, r.where), ...(r.example !== undefined ? [{ where: `${r.where} (media type)`, schema: r.schema, example: r.example }] : [])];
    for (const p of pairs) {
      checked.push(p.where);
      for (const problem of validate(p.schema, p.example)) invalid.push(`${p.where}: ${problem} (example ${JSON.stringify(p.example)})`);
    }
  }
  expect(invalid).toEqual([]);
  expect(checked.length).toBeGreaterThan(500);
});

test('the examples are realistic and agree with each other: a client "Acme Corp", ids of the same records, no placeholder', () => {
  const s = doc.components.schemas;
  expect(s.Client.example).toEqual(expect.objectContaining({ id: EXAMPLE_IDS.client, name: 'Acme Corp', currency: 'USD' }));
  expect(s.Project.example).toEqual(expect.objectContaining({ id: EXAMPLE_IDS.project, name: 'Website relaunch', clientId: EXAMPLE_IDS.client }));
  expect(s.Task.example).toEqual(expect.objectContaining({ id: EXAMPLE_IDS.task, projectId: EXAMPLE_IDS.project }));
  expect(s.TimeEntry.example).toEqual(
    expect.objectContaining({ id: EXAMPLE_IDS.timeEntry, projectId: EXAMPLE_IDS.project, taskId: EXAMPLE_IDS.task, tagIds: [EXAMPLE_IDS.tag], durationMinutes: 90 }),
  );
  expect(s.TimeEntry.example.sortKey).toBe(`${s.TimeEntry.example.startTime}#${s.TimeEntry.example.id}`);
  expect(s.Invoice.example.total).toBe(s.Invoice.example.subtotal + s.Invoice.example.tax);
  expect(s.ErrorResponse.example.error.code).toBe('VALIDATION_ERROR');
  // the path parameter {id} of a resource's routes shows an id of that resource
  const idOf = (path: string) => doc.paths[path].get.parameters.find((p: Json) => p.name === 'id').schema.example;
  expect([idOf('/v1/clients/{id}'), idOf('/v1/projects/{id}'), idOf('/v1/time-entries/{id}')]).toEqual([EXAMPLE_IDS.client, EXAMPLE_IDS.project, EXAMPLE_IDS.timeEntry]);
  // no generator placeholder ("string", 0) and no empty text among the string examples
  const strings = schemasOf(doc)
    .flatMap((r) => examplesIn(r.schema, r.where))
    .filter((p) => p.schema.type === 'string' && typeof p.example === 'string');
  expect(strings.filter((p) => p.example === '' || p.example === 'string').map((p) => p.where)).toEqual([]);
});

test('dates and date-times are shown by their format with an example, never by a regular expression', () => {
  const dated = schemasOf(doc).flatMap((r) => datedIn(r.schema, r.where));
  expect(dated.length).toBeGreaterThan(50);
  expect(dated.filter((d) => d.schema.pattern !== undefined).map((d) => d.where)).toEqual([]);
  expect(dated.filter((d) => d.schema.example === undefined).map((d) => d.where)).toEqual([]);
});

function datedIn(schema: Json | undefined, where: string): Array<{ where: string; schema: Json }> {
  if (!schema || typeof schema !== 'object') return [];
  const here = schema.format === 'date' || schema.format === 'date-time' ? [{ where, schema }] : [];
  return [
    ...here,
    ...Object.entries<Json>(schema.properties ?? {}).flatMap(([k, v]) => datedIn(v, `${where}.${k}`)),
    ...(schema.items ? datedIn(schema.items, `${where}[]`) : []),
    ...['anyOf', 'oneOf', 'allOf'].flatMap((k) => ((schema[k] ?? []) as Json[]).flatMap((v, i) => datedIn(v, `${where}.${k}[${i}]`))),
  ];
}

test('the checks see what they look for: a property without an example, and an example its schema refuses', () => {
  const schema = {
    type: 'object',
    properties: { name: { type: 'string', example: 'Acme Corp' }, email: { type: 'string' }, tags: { type: 'array', items: { type: 'string' }, example: ['x'] } },
  };
  expect(missingExamples(schema, 'Client')).toEqual(['Client.email']);
  expect(missingExamples({ type: 'object', example: {} }, 'Info')).toEqual([]);
  expect(missingExamples({ type: 'object' }, 'Info')).toEqual(['Info']);
  expect(validate({ type: 'string', maxLength: 3 }, 'USDX')).toEqual(['(root) must NOT have more than 3 characters']);
  expect(validate({ type: 'string', format: 'date-time' }, '2026-02-30')).toEqual(['(root) must match format "date-time"']);
  expect(validate({ $ref: '#/components/schemas/Client' }, { name: 'Acme Corp' })).not.toEqual([]);
});
