import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, type NativeAttributeValue, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import * as settings from '../platform/settings';

/** An item as DynamoDB stores it (keys, index keys, `_` internals and the record's fields). */
export type StoredItem = Record<string, NativeAttributeValue>;
/**
 * A value an expression of this code names (`:placeholder` in ExpressionAttributeValues): a key or filter
 * value, a count or amount to ADD, a flag, a list (an API key's scopes).
 */
export type ExpressionValue = string | number | boolean | readonly string[];

/**
 * One document client per process, created lazily (not at import) so tests and the local gateway can
 * point it at DynamoDB Local through DYNAMODB_ENDPOINT before first use.
 */
let doc: DynamoDBDocumentClient | undefined;

/** The table name against DynamoDB Local (npm start, the admin CLI) when TABLE_NAME is not set. */
export const LOCAL_TABLE_NAME = 'timetrack-local';

export function dynamoConfig(): DynamoDBClientConfig {
  const endpoint = settings.dynamodbEndpoint();
  return {
    ...(endpoint ? { endpoint, region: settings.awsRegion() ?? 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    maxAttempts: settings.dynamodbMaxAttempts(),
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
  const name = settings.tableName();
  if (!name) throw new Error('TABLE_NAME is not set');
  return name;
}

/**
 * Every item a Query matches, following LastEvaluatedKey to the end: the one pagination loop of the
 * reads that need the whole result (bounded lists, a key's hourly counters, members, invoicing's entries
 * and jobs). `onPage` sees each answer (consumed capacity, counts). Paged API lists use `queryPage`
 * (shared/data/paging.ts) instead: a limit, a byte bound and a signed cursor.
 */
export async function queryAll(input: QueryCommandInput, onPage?: (res: QueryCommandOutput) => void): Promise<StoredItem[]> {
  const out: StoredItem[] = [];
  let start: StoredItem | undefined;
  do {
    const res = await db().send(new QueryCommand({ ...input, ...(start ? { ExclusiveStartKey: start } : {}) }));
    onPage?.(res);
    for (const item of res.Items ?? []) out.push(item);
    start = res.LastEvaluatedKey;
  } while (start);
  return out;
}
