import { buildOpenApi } from '../../shared/api/openapi';
import { routeList } from '../../shared/api/routes';
import { contractValidator } from '../support/contract';
import { apiClient, newWorkspace, useTestTable } from '../support/harness';
import { fullScenario } from './scenario';

/**
 * Contract, part 1: every response keeps the OpenAPI document. The harness checks each response of every
 * suite inline (test/support/contract.ts) and throws on a violation; here a full scenario over every
 * route of the route table proves that each operation's success answer and the common error answers
 * are declared and valid, and the counts show how much was checked.
 */
useTestTable();
const api = apiClient();

test('the validator checks against the document the API serves', async () => {
  const res = await api.get('/v1/openapi.json', { headers: { Host: 'api.timetrack.test', 'X-Forwarded-Proto': 'https' } });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ ...buildOpenApi(), servers: [{ url: 'https://api.timetrack.test', 'x-internal': false }] });
  expect(contractValidator().doc).toEqual(buildOpenApi());
});

test('a full scenario over every route: zero violations, every operation answered with its success status', async () => {
  const v = contractValidator();
  const before = { ...v.stats, byOperation: { ...v.stats.byOperation } };
  const result = await fullScenario(api, newWorkspace('contract'));
  const validated = v.stats.validated - before.validated;
  expect(v.stats.violations).toBe(0);
  expect(validated).toBe(result.requests);

  const hits = v.stats.byOperation;
  const missing = routeList.filter((r) => !hits[`${r.id} ${r.notImplemented ? 501 : r.successStatus}`]).map((r) => r.id);
  expect(missing).toEqual([]);
  // error answers of the scenario, each declared where it happened (else the harness would have thrown)
  const statuses = new Set(Object.keys(hits).map((k) => Number(k.split(' ')[1])));
  expect([...statuses].sort()).toEqual([200, 201, 400, 401, 403, 404, 409, 410, 413, 501]);
  console.log(`contract scenario: ${validated} responses validated over ${routeList.length} routes (${Object.keys(hits).length} operation/status pairs)`);
});
