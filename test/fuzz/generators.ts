import type * as z from 'zod';
import fc from 'fast-check';
import type { RouteDef } from '../../shared/api/routes';

/**
 * fast-check generators for the fuzzing suite: junk of every kind (wrong types, huge and empty strings,
 * unicode incl. lone surrogates / RTL / zero-width, nulls, nested junk, deep nesting, prototype-pollution
 * keys, NaN-ish and overflowing numbers, duplicate keys, malformed JSON bytes) and "valid-looking" values
 * built from a route's schemas and the ids of a real fixture workspace, so requests reach every layer
 * (parser, zod, repository, DynamoDB) and not only the first check.
 */

/** The real records of the fixture workspace the valid-looking values point at (kept current by the suite). */
export interface Fixture {
  userId: string;
  clientId: string;
  projectId: string;
  taskId: string;
  tagIds: string[];
  entry: { id: string; sortKey: string };
  favorite: { id: string; userId: string };
  invoiceId: string;
  cursors: { timeEntries: string; invoices: string };
  /** Real id per resource (path {id}). */
  ids: Record<string, string>;
}

export interface FuzzRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** Raw request body (JSON text, malformed bytes, or nothing). */
  rawBody?: string;
  /** What produced the body (for reports). */
  kind: string;
}

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
export const NASTY_STRINGS = [
  '',
  ' ',
  '   \t\n',
  '\u0000',
  '\u200b',
  '\u200d\u200c\ufeff',
  '\u202eevil\u202c',
  'مرحبا بالعالم',
  '\ud800',
  '\udfff',
  'a\ud83dz',
  '😀'.repeat(64),
  '字'.repeat(128),
  '字'.repeat(255),
  '𝕏'.repeat(300),
  'x'.repeat(129),
  'x'.repeat(256),
  'x'.repeat(10_001),
  'x'.repeat(140 * 1024),
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e309',
  '-1e309',
  '0x1F',
  '1_000',
  '007',
  '9'.repeat(400),
  'null',
  'undefined',
  'true',
  '{}',
  '[]',
  '%',
  '%00',
  '%23',
  '%E0%A4%A',
  '#',
  '##',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '${process.env}',
  'UNIQUE#CLIENTNAME#x',
  'WS#other',
  '2026-02-30T25:61:61Z',
  '2026-01-31T09:00:00.000Z#',
  '0000-01-01T00:00:00.000Z#' + 'Z'.repeat(128),
  '9999-12-31T23:59:59.999Z#x',
  '+275760-09-13T00:00:00.000Z',
  '2026-01-31',
  '#1A2B3C',
  'USD',
  'a@b.c',
];

export const junkString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.array(fc.oneof(fc.string({ maxLength: 3 }), loneSurrogate), { maxLength: 8 }).map((a) => a.join('')) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', '字', '😀', '\u200b', 'ß'), fc.integer({ min: 100, max: 3000 })).map(([c, n]) => c.repeat(n)) },
);

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
export const junkKey: fc.Arbitrary<string> = fc.oneof(fc.constantFrom(...PROTO_KEYS, 'PK', 'SK', '_v', '_usedByPROJECT', 'id', ''), fc.string({ maxLength: 12 }), junkString);

const junkNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.constantFrom(-0, 0, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, Number.MIN_VALUE, 0.1 + 0.2, 1e-7, 2 ** 53, -1),
);

/** Any JSON value, nested a few levels, including proto keys. */
export const junkJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    junkString,
    junkNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(junkKey, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Deeply nested array / object text (a parser's recursion). */
const deepNesting = fc
  .tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean())
  .map(([n, arr]) => (arr ? '['.repeat(n) + ']'.repeat(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n)));

/** Bodies that are not valid JSON, or are JSON a naive parser gets wrong. */
export const malformedBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '{',
    '}',
    '{"name":',
    '{"name":"a",}',
    "{'name':'a'}",
    '{"name":NaN}',
    '{"name":Infinity}',
    '{"hourlyRate":1e309}',
    '{"hourlyRate":-0}',
    '{"estimateMinutes":1e309}',
    '{"name":"a","name":"b"}',
    '{"name":"a","name":1}',
    '{"name":"a","name":null}',
    '{"__proto__":{"polluted":true},"name":"p"}',
    '{"constructor":{"prototype":{"polluted":true}},"name":"p"}',
    '{"name":"\\ud800"}',
    '{"name":"\\udfff\\ud800"}',
    '{"name":"\\u0000"}',
    '\ufeff{"name":"bom"}',
    '{"name":"a"}garbage',
    '{"name":"a"}{"name":"b"}',
    'null',
    'true',
    '0',
    '"string"',
    '[]',
    '[{"name":"a"}]',
    '\u0000\u0001\u0002',
    '\xff\xfe\xfd',
    ' ',
    '{"name":"' + 'x'.repeat(131_000) + '"}',
  ),
  deepNesting,
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.string({ maxLength: 50 }).map((s) => `{"name":${s}}`),
);

// ---------------------------------------------------------------------------------------------
// Valid-looking values, by field / parameter name
// ---------------------------------------------------------------------------------------------

const isoInstant = fc
  .integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) })
  .chain((t) => fc.constantFrom(new Date(t).toISOString(), new Date(t).toISOString().replace('Z', '+05:30'), new Date(t).toISOString().slice(0, 19) + 'Z'));
const isoDate = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }).map((t) => new Date(t).toISOString().slice(0, 10));
const plainName = fc.oneof(
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,20}$/),
  fc.constantFrom('字'.repeat(255), 'é'.repeat(255), '😀'.repeat(127), 'Name \u202eRTL', 'Zero\u200bWidth'),
);
/** A long but valid id (max 128 UTF-16 units, 3 UTF-8 bytes each): probes key-size limits. */
const bigId = fc.constantFrom('字'.repeat(128), '%'.repeat(128), '#'.repeat(128), 'x'.repeat(128));

export function validField(name: string, f: Fixture): fc.Arbitrary<unknown> {
  switch (name) {
    case 'name':
      return plainName;
    case 'email':
      return fc.constantFrom('a@example.com', 'x.y+z@sub.example.org');
    case 'address':
      return fc.string({ maxLength: 50 });
    case 'currency':
      return fc.constantFrom('USD', 'EUR', 'JPY');
    case 'notes':
      return fc.oneof(fc.string({ maxLength: 50 }), fc.constant('n'.repeat(10_000)));
    case 'archived':
    case 'billable':
      return fc.boolean();
    case 'color':
      return fc.constantFrom('#1A2B3C', '#ffffff');
    case 'hourlyRate':
      return fc.oneof(fc.double({ min: 0, max: 1_000_000, noNaN: true }), fc.constant(0));
    case 'estimateMinutes':
      return fc.integer({ min: 0, max: 10_000_000 });
    case 'status':
      return fc.constantFrom('active', 'done');
    case 'clientId':
      return fc.oneof({ weight: 4, arbitrary: fc.constant(f.clientId) }, { weight: 1, arbitrary: fc.oneof(fc.stringMatching(/^[0-9A-Z]{26}$/), bigId) });
    case 'projectId':
      return fc.oneof({ weight: 4, arbitrary: fc.constant(f.projectId) }, { weight: 1, arbitrary: fc.oneof(fc.stringMatching(/^[0-9A-Z]{26}$/), bigId) });
    case 'taskId':
      return fc.oneof({ weight: 4, arbitrary: fc.constant(f.taskId) }, { weight: 1, arbitrary: fc.oneof(fc.stringMatching(/^[0-9A-Z]{26}$/), bigId) });
    case 'tagIds':
      return fc.oneof({ weight: 4, arbitrary: fc.subarray(f.tagIds) }, { weight: 1, arbitrary: fc.constant([...f.tagIds, 'MISSINGTAG']) });
    case 'userId':
      return fc.oneof({ weight: 3, arbitrary: fc.constant(f.userId) }, { weight: 1, arbitrary: fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), bigId) });
    case 'startTime':
    case 'endTime':
      return isoInstant;
    case 'enabled':
      return fc.boolean();
    case 'url':
      // loopback receivers (allowed on a local run) and addresses refused everywhere
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom('http://127.0.0.1:9/hooks', 'http://[::1]:9/x?y=1') },
        { weight: 1, arbitrary: fc.constantFrom('http://10.0.0.1/', 'http://169.254.169.254/') },
      );
    case 'events':
      return fc.oneof(
        { weight: 4, arbitrary: fc.subarray(['*', 'client.*', 'time-entry.created', 'invoice.deleted'], { minLength: 1 }) },
        { weight: 1, arbitrary: fc.constant(['webhook.*']) },
      );
    default:
      return fc.string({ maxLength: 10 });
  }
}

/** Stands for the fixture entry's sortKey at the time of the request (a valid PUT may move the entry). */
export const CURRENT_SORT_KEY = '<current sortKey>';

export function validQueryValue(route: RouteDef, name: string, f: Fixture): fc.Arbitrary<string> {
  switch (name) {
    case 'limit':
      return fc.oneof(fc.integer({ min: 1, max: 200 }).map(String), fc.constantFrom('0', '201', '-1', '1.5', '1e2', ' 5', '5 ', '０'));
    case 'cursor':
      return fc.constant(route.path.includes('invoices') ? f.cursors.invoices : f.cursors.timeEntries);
    case 'startDate':
    case 'endDate':
      return fc.oneof(isoDate, isoInstant);
    case 'sortKey':
      return fc.oneof({ weight: 4, arbitrary: fc.constant(CURRENT_SORT_KEY) }, { weight: 1, arbitrary: fc.constant(`0000-01-01T00:00:00.000Z#${f.entry.id}`) });
    case 'userId':
      return fc.oneof({ weight: 4, arbitrary: fc.constant(route.path.includes('favorites') ? f.favorite.userId : f.userId) }, { weight: 1, arbitrary: bigId });
    case 'projectId':
      return fc.oneof(fc.constant(f.projectId), bigId);
    case 'clientId':
      return fc.oneof(fc.constant(f.clientId), bigId);
    default:
      return fc.string({ maxLength: 10 });
  }
}

/** The body fields a route's schema declares (zod strict object shape). */
export function bodyFields(route: RouteDef): string[] {
  const shape = (route.body as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}
export function queryFields(route: RouteDef): string[] {
  return route.query ? Object.keys(route.query.shape) : [];
}

/** A valid-looking body: a random subset of the declared fields with plausible values. */
function validBody(route: RouteDef, f: Fixture): fc.Arbitrary<Record<string, unknown>> {
  const fields = bodyFields(route);
  const rec: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of fields) rec[name] = validField(name, f);
  const required = route.method === 'POST' ? fields.filter((n) => ['name', 'userId', 'startTime', 'projectId'].includes(n)) : [];
  return fc.record(rec, { requiredKeys: required });
}

function safeEncodeSegment(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    // Lone surrogates: send their (invalid) WTF-8 bytes, as a broken client would.
    return [...s]
      .map((ch) => {
        try {
          return encodeURIComponent(ch);
        } catch {
          const c = ch.charCodeAt(0);
          return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => '%' + b.toString(16).toUpperCase()).join('');
        }
      })
      .join('');
  }
}

/**
 * Every kind of request for one route: path id valid or junk; query made of the route's own parameters
 * (valid or junk values, repeated) plus unknown / proto names; body valid-looking, valid with one field
 * broken, extra unknown / proto fields, junk JSON, or malformed bytes.
 */
export function requestFor(route: RouteDef & { id: string }, fixture: () => Fixture): fc.Arbitrary<FuzzRequest> {
  const f = fixture();
  const resource = route.path.split('/')[2]!;
  const pathId: fc.Arbitrary<string> = fc.oneof(
    { weight: 5, arbitrary: fc.constant(f.ids[resource] ?? 'none').map(encodeURIComponent) },
    { weight: 3, arbitrary: junkString.filter((s) => s.length < 3000).map(safeEncodeSegment) },
    { weight: 1, arbitrary: fc.constantFrom('..', '.', '%2F', 'a%2Fb', '%', '%zz', '%ED%A0%80', '%C0%AF', '%00', encodeURIComponent(f.ids[resource] ?? 'x') + '%00') },
  );
  const names = queryFields(route);
  const queryArb: fc.Arbitrary<Record<string, string | string[]>> = fc
    .tuple(
      fc.record(
        Object.fromEntries(
          names.map((n) => [n, fc.oneof({ weight: 3, arbitrary: validQueryValue(route, n, f) }, { weight: 2, arbitrary: junkString.filter((s) => s.length < 5000) })]),
        ),
        { requiredKeys: [] },
      ),
      fc.dictionary(
        fc.oneof(fc.constantFrom(...PROTO_KEYS, 'projectID', 'limit ', 'LIMIT', 'sortkey'), fc.string({ maxLength: 8 })),
        junkString.filter((s) => s.length < 200),
        { maxKeys: 2 },
      ),
      fc.boolean(),
      fc.nat(4).map((n) => n === 0),
    )
    .map(([known, unknown, withUnknown, repeat]) => {
      const q: Record<string, string | string[]> = { ...(known as Record<string, string>) };
      if (withUnknown) for (const [k, v] of Object.entries(unknown)) Object.defineProperty(q, k, { value: v, enumerable: true, writable: true, configurable: true });
      if (repeat) for (const k of Object.keys(q)) q[k] = [String(q[k]), 'x'];
      return q;
    });
  // Most requests carry only the route's own parameters (so the body is what is fuzzed).
  // the addressing parameters, and any the route's schema requires (a report's startDate and endDate)
  const isRequired = (n: string) => n === 'sortKey' || (n === 'userId' && route.path.endsWith('{id}')) || !(route.query?.shape[n] as z.ZodType).safeParse(undefined).success;
  const required = names.filter(isRequired);
  const minimal = fc.record(Object.fromEntries(required.map((n) => [n, validQueryValue(route, n, f)]))) as fc.Arbitrary<Record<string, string | string[]>>;
  const query = fc.oneof(
    { weight: 1, arbitrary: minimal },
    {
      weight: 2,
      arbitrary: fc.record(Object.fromEntries(names.map((n) => [n, validQueryValue(route, n, f)])), {
        requiredKeys: required,
      }) as fc.Arbitrary<Record<string, string | string[]>>,
    },
    { weight: 2, arbitrary: queryArb },
  );

  let body: fc.Arbitrary<{ rawBody?: string; kind: string }>;
  if (route.body) {
    const valid = validBody(route, f);
    const fields = bodyFields(route);
    body = fc.oneof(
      { weight: 3, arbitrary: valid.map((b) => ({ rawBody: JSON.stringify(b), kind: 'valid-looking' })) },
      {
        weight: 4,
        arbitrary: fc
          .tuple(valid, fc.constantFrom(...fields), junkJson)
          .map(([b, field, junk]) => ({ rawBody: JSON.stringify({ ...b, [field]: junk }), kind: `field ${field} broken` })),
      },
      {
        weight: 2,
        arbitrary: fc.tuple(valid, junkKey, junkJson).map(([b, k, v]) => {
          const o: Record<string, unknown> = { ...b };
          Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
          return { rawBody: JSON.stringify(o), kind: 'extra field' };
        }),
      },
      { weight: 1, arbitrary: junkJson.map((j) => ({ rawBody: JSON.stringify(j) ?? 'null', kind: 'junk json' })) },
      { weight: 2, arbitrary: malformedBody.map((raw) => ({ rawBody: raw, kind: 'malformed' })) },
      { weight: 1, arbitrary: fc.constantFrom({ kind: 'no body' }, { rawBody: '', kind: 'empty body' }) },
    );
  } else {
    body = fc.oneof(
      { weight: 5, arbitrary: fc.constant({ kind: 'no body' }) },
      { weight: 1, arbitrary: malformedBody.map((raw) => ({ rawBody: raw, kind: 'body on a bodiless route' })) },
    );
  }
  return fc.tuple(pathId, query, body).map(([id, q, b]) => ({
    method: route.method,
    path: route.path.replace('{id}', id),
    query: q,
    ...(b.rawBody !== undefined ? { rawBody: b.rawBody } : {}),
    kind: b.kind,
  }));
}
