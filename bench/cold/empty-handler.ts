import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';

/**
 * The cold-start baseline: an "empty" function that makes one DynamoDB GetItem and answers 200. Built
 * with the same esbuild options as the real functions (bench/bundles.ts); configured from the same
 * environment (TABLE_NAME, DYNAMODB_ENDPOINT for DynamoDB Local).
 */
const endpoint = process.env.DYNAMODB_ENDPOINT;
const client = new DynamoDBClient(endpoint ? { endpoint, region: process.env.AWS_REGION ?? 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {});

export const handler = async (event: { pathParameters?: Record<string, string> | null }) => {
  const id = event.pathParameters?.id ?? 'none';
  const res = await client.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: { PK: { S: 'BENCH#EMPTY' }, SK: { S: id } }, ConsistentRead: true }));
  return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ found: Boolean(res.Item) }) };
};
