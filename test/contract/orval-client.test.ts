import { readFileSync } from 'node:fs';
import { serverObject } from '../../shared/api/openapi';
import { makeKey, newWorkspace, useTestTable } from '../support/harness';
import { generateOrval, ORVAL_FILE } from './codegen';
import { checkResponses, runCompiledScenario, useServedDocument } from './generated-client';
import { HIGH_LIMITS } from './scenario';

/**
 * Contract, part 4: a third generator, orval (its fetch client), as a client author uses it. Its output is
 * committed (test/contract/generated/orval/api.ts, checked here to be current), compiled on its own with
 * `tsc --strict` together with a scenario that assigns the JSON answers to the document's types and the
 * CSV answers to `string` with no narrowing, and run against a real local server; every answer it got is
 * checked against the served document.
 */
useTestTable();
const doc = useServedDocument();

test('the committed client is what orval makes of the served document', () => {
  // on failure: npx tsx test/contract/codegen.ts
  expect(readFileSync(ORVAL_FILE, 'utf8')).toBe(generateOrval({ ...doc.served, servers: [serverObject('/')] }));
}, 120_000);

test('the JSON operations are typed as JSON alone, the CSV operations as text', () => {
  const code = readFileSync(ORVAL_FILE, 'utf8');
  const dataOf = (type: string) => new RegExp(`export type ${type} = \\{\\s*data: ([^\\n]+)\\n`).exec(code)?.[1]?.trim();
  expect(dataOf('listTimeEntriesResponse200')).toBe('ListTimeEntries200');
  expect(dataOf('getSummaryReportResponse200')).toBe('SummaryReport');
  expect(dataOf('listTimeEntriesCsvResponse200')).toBe('string');
  expect(dataOf('getSummaryReportCsvResponse200')).toBe('string');
  expect(code).not.toMatch(/data: \w+ \| string\b/);
});

test('the generated client, compiled with tsc --strict, calls a real server with no narrowing', async () => {
  const key = await makeKey(newWorkspace('orval'), HIGH_LIMITS);
  const responses = await runCompiledScenario('orval', doc.baseUrl, { API_KEY: key });
  const { seen, violations } = checkResponses(doc.served, responses);
  expect([...seen].sort()).toEqual(
    [
      'getMe 200',
      'addClient 201',
      'getClient 200',
      'getClient 404',
      'createTimeEntry 201',
      'listTimeEntries 200',
      'getSummaryReport 200',
      'listTimeEntriesCsv 200',
      'getSummaryReportCsv 200',
      'deleteClient 409',
    ].sort(),
  );
  expect(violations).toBe(0);
}, 300_000);
