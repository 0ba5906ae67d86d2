import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamoDbLocal } from '../../local/dynamodb';

/** One DynamoDB Local (in memory, free port) for the whole run; each test file makes its own table. */
export default async function globalSetup() {
  // each test file appends its contract-check counts here (test/support/contract.ts); the teardown sums them
  process.env.CONTRACT_REPORT_FILE = join(mkdtempSync(join(tmpdir(), 'contract-')), 'report.jsonl');
  if (process.env.DYNAMODB_ENDPOINT && process.env.TEST_USE_EXISTING_DYNAMODB === '1') return;
  const dynamo = await startDynamoDbLocal();
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  (globalThis as { __DYNAMO__?: typeof dynamo }).__DYNAMO__ = dynamo;
}
