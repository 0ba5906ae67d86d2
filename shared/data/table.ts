/**
 * The one table definition. The CDK stack, the local run, the tests and the admin CLI all build the
 * table from this object, so the keys and indexes the data layer uses are exactly the ones deployed.
 */
export const TABLE_TTL_ATTRIBUTE = 'ttl';

export interface IndexDefinition {
  /** Index name, also the attribute prefix: GSI1 has GSI1PK / GSI1SK. */
  name: string;
  partitionKey: string;
  sortKey: string;
}

export const TABLE = {
  partitionKey: 'PK',
  sortKey: 'SK',
  ttlAttribute: TABLE_TTL_ATTRIBUTE,
  /**
   * Generic, overloaded global secondary indexes (projection ALL). Which entity uses which index for
   * what is documented in docs/data-model.md and declared next to each entity's key builders.
   */
  indexes: [1, 2, 3, 4, 5].map(
    (n): IndexDefinition => ({ name: `GSI${n}`, partitionKey: `GSI${n}PK`, sortKey: `GSI${n}SK` }),
  ),
} as const;

export type IndexName = 'GSI1' | 'GSI2' | 'GSI3' | 'GSI4' | 'GSI5';

/** Attributes that are storage keys and must never appear in an API response. */
export const KEY_ATTRIBUTES: readonly string[] = [
  TABLE.partitionKey,
  TABLE.sortKey,
  TABLE.ttlAttribute,
  ...TABLE.indexes.flatMap((i) => [i.partitionKey, i.sortKey]),
];

/** CreateTable input for DynamoDB Local (tests, local run). The CDK stack maps the same object. */
export function createTableInput(tableName: string) {
  const attributeNames = [TABLE.partitionKey, TABLE.sortKey, ...TABLE.indexes.flatMap((i) => [i.partitionKey, i.sortKey])];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: attributeNames.map((AttributeName) => ({ AttributeName, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: TABLE.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: TABLE.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: TABLE.indexes.map((i) => ({
      IndexName: i.name,
      KeySchema: [
        { AttributeName: i.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: i.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  };
}
