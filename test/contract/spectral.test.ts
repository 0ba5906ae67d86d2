import { apiClient, useTestTable } from '../support/harness';
import { describeFindings, spectralLint } from './spectral';

/**
 * Contract, part 4: Spectral lints the served document with Spectral's own OpenAPI ruleset and with the
 * OWASP API Security ruleset (spectral-oas.yaml, spectral-owasp.yaml: the rules switched off there say
 * why). Nothing at all may be reported, so a new finding shows up in CI instead of piling up.
 */
useTestTable();
const api = apiClient();
const served = async () => (await api.get('/v1/openapi.json', { headers: { Host: 'api.timetrack.test', 'X-Forwarded-Proto': 'https' } })).body;

test.each(['oas', 'owasp'] as const)(
  'the served document passes Spectral with spectral-%s.yaml: nothing reported',
  async (ruleset) => {
    expect(describeFindings(spectralLint(await served(), ruleset))).toEqual([]);
  },
  120_000,
);

test('the OWASP lint does find problems (a copy without bounds, rate-limit headers and error responses fails)', async () => {
  const doc = await served();
  const list = doc.paths['/v1/time-entries'].get;
  delete list.responses['200'].content['application/json'].schema.properties.items.maxItems; // a paged list without maxItems
  delete list.responses['200'].headers.RateLimit; // a 2xx without rate-limit headers
  delete doc.paths['/v1/clients'].get.responses['401']; // a protected route without its 401
  delete doc.components.schemas.Client.properties.name.maxLength; // a string without maxLength
  const codes = new Set(spectralLint(doc, 'owasp').map((f) => f.code));
  expect([...codes]).toEqual(
    expect.arrayContaining(['owasp:api4:2023-array-limit', 'owasp:api4:2023-rate-limit', 'owasp:api8:2023-define-error-responses-401', 'owasp:api4:2023-string-limit']),
  );
}, 120_000);

test('the oas lint does find problems (a duplicate operationId, a server URL with a trailing slash)', async () => {
  const doc = await served();
  doc.paths['/v1/clients'].get.operationId = 'getClient';
  doc.servers[0].url = 'https://api.timetrack.test/';
  const codes = new Set(spectralLint(doc, 'oas').map((f) => f.code));
  expect([...codes]).toEqual(expect.arrayContaining(['operation-operationId-unique', 'oas3-server-trailing-slash']));
}, 120_000);
