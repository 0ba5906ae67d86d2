import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LocalDynamo } from '../../local/dynamodb';

export default async function globalTeardown() {
  await (globalThis as { __DYNAMO__?: LocalDynamo }).__DYNAMO__?.stop();
  printContractReport();
  // the run's folder: the contract report and what test/browser/support.ts keeps there (the seeded npm start)
  const file = process.env.CONTRACT_REPORT_FILE;
  if (file) rmSync(dirname(file), { recursive: true, force: true });
}

/** The run's contract-check total: every response the suites received, checked against the OpenAPI document. */
function printContractReport() {
  const file = process.env.CONTRACT_REPORT_FILE;
  if (!file || !existsSync(file)) return;
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { validated: number; unmatched: number; violations: number });
  const sum = (k: 'validated' | 'unmatched' | 'violations') => rows.reduce((n, r) => n + r[k], 0);
  console.log(
    `\ncontract: ${sum('validated')} responses validated against the OpenAPI document in ${rows.length} test files, ${sum('violations')} violations (${sum('unmatched')} responses to undeclared paths/methods)`,
  );
}
