import { apiClient, useTestTable } from '../support/harness';
import { describeFindings, spectralLintAll, type SpectralFinding } from './spectral';

/**
 * Contract, part 4: Spectral lints the served document with Spectral's own OpenAPI ruleset and with the
 * OWASP API Security ruleset (spectral-oas.yaml, spectral-owasp.yaml: the rules switched off there say
 * why). Nothing at all may be reported, so a new finding shows up in CI instead of piling up.
 */
useTestTable();
const api = apiClient();
const served = async () => (await api.get('/v1/openapi.json', { headers: { Host: 'api.timetrack.test', 'X-Forwarded-Proto': 'https' } })).body;

/** A copy of the document without any `example` or `examples` (a property of that name in a schema's `properties` stays). */
const withoutExamples = (v: any, parentKey?: string): any => {
  if (Array.isArray(v)) return v.map((x) => withoutExamples(x));
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => parentKey === 'properties' || (k !== 'example' && k !== 'examples'))
      .map(([k, x]) => [k, withoutExamples(x, k)]),
  );
};

/**
 * Each ruleset runs once, in one Spectral process, over two documents: the served one, and a copy broken the
 * way that ruleset must notice (a Spectral process is most of the cost of a lint: two processes, not four).
 */
const findings = {} as Record<'oas' | 'owasp', { served: SpectralFinding[]; broken: SpectralFinding[] }>;
beforeAll(async () => {
  const doc = await served();
  // OWASP: a paged list without maxItems, a 2xx without rate-limit headers, a protected route without its 401, a string without maxLength
  const forOwasp = structuredClone(doc);
  const list = forOwasp.paths['/v1/time-entries'].get;
  delete list.responses['200'].content['application/json'].schema.properties.items.maxItems;
  delete list.responses['200'].headers.RateLimit;
  delete forOwasp.paths['/v1/clients'].get.responses['401'];
  delete forOwasp.components.schemas.Client.properties.name.maxLength;
  // oas: a duplicate operationId, a server URL with a trailing slash. Without the examples: checking them is
  // most of the oas lint's work (every example's schema compiled by ajv: ~10 s of CPU per copy of the
  // document), and the two findings this copy must raise are about paths and servers, not examples (the
  // served document, linted above in full, is where the examples are checked)
  const forOas = withoutExamples(doc);
  forOas.paths['/v1/clients'].get.operationId = 'getClient';
  forOas.servers[0].url = 'https://api.timetrack.test/';
  const [oasServed, oasBroken] = spectralLintAll([doc, forOas], 'oas');
  const [owaspServed, owaspBroken] = spectralLintAll([doc, forOwasp], 'owasp');
  findings.oas = { served: oasServed!, broken: oasBroken! };
  findings.owasp = { served: owaspServed!, broken: owaspBroken! };
}, 660_000);

test.each(['oas', 'owasp'] as const)('the served document passes Spectral with spectral-%s.yaml: nothing reported', (ruleset) => {
  expect(describeFindings(findings[ruleset].served)).toEqual([]);
});

test('the OWASP lint does find problems (a copy without bounds, rate-limit headers and error responses fails)', () => {
  const codes = new Set(findings.owasp.broken.map((f) => f.code));
  expect([...codes]).toEqual(
    expect.arrayContaining(['owasp:api4:2023-array-limit', 'owasp:api4:2023-rate-limit', 'owasp:api8:2023-define-error-responses-401', 'owasp:api4:2023-string-limit']),
  );
});

test('the oas lint does find problems (a duplicate operationId, a server URL with a trailing slash)', () => {
  const codes = new Set(findings.oas.broken.map((f) => f.code));
  expect([...codes]).toEqual(expect.arrayContaining(['operation-operationId-unique', 'oas3-server-trailing-slash']));
});
