import type { LocalDynamo } from '../../local/dynamodb';

export default async function globalTeardown() {
  await (globalThis as { __DYNAMO__?: LocalDynamo }).__DYNAMO__?.stop();
}
