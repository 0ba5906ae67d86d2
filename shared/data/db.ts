import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';

/** An item as DynamoDB stores it (keys, index keys, `_` internals and the record's fields). */
export type StoredItem = Record<string, NativeAttributeValue>;

/**
 * One document client per process, created lazily (not at import) so tests and the local gateway can
 * point it at DynamoDB Local through DYNAMODB_ENDPOINT before first use.
 */
let doc: DynamoDBDocumentClient | undefined;

/** The table name against DynamoDB Local (npm start, the admin CLI) when TABLE_NAME is not set. */
export const LOCAL_TABLE_NAME = 'timetrack-local';

export function dynamoConfig(): DynamoDBClientConfig {
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  return {
    ...(endpoint ? { endpoint, region: process.env.AWS_REGION ?? 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    maxAttempts: Number(process.env.DYNAMODB_MAX_ATTEMPTS ?? 3),
  };
}

export function db(): DynamoDBDocumentClient {
  doc ??= DynamoDBDocumentClient.from(new DynamoDBClient(dynamoConfig()), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return doc;
}

/** Replace the client (tests inject faults with a client middleware or aws-sdk-client-mock). */
export function setDb(client: DynamoDBDocumentClient | undefined): void {
  doc = client;
}

export function tableName(): string {
  const name = process.env.TABLE_NAME;
  if (!name) throw new Error('TABLE_NAME is not set');
  return name;
}
