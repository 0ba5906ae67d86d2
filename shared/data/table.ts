import { ENTITIES, type EntityIndexName } from '../domain/registry';
import { API_KEY_INDEXES } from './keys';

/**
 * The one table definition. The CDK stack, the local run, the tests and the admin CLI all build the
 * table from this object, and its indexes are those the entity declarations (and the API-key items)
 * use, so the keys and indexes the data layer uses are exactly the ones deployed.
 */
export const TABLE_TTL_ATTRIBUTE = 'ttl';

/** Internal attributes of every item: its type tag and its version (bumped by every write of the item). */
export const TYPE_ATTRIBUTE = '_type';
export const VERSION_ATTRIBUTE = '_v';
/**
 * The version of the record's representation: 1 on create, +1 on every update, untouched by usage-counter
 * changes (which bump `_v`). The record's ETag is built from it (shared/data/repository.ts, etagOf).
 */
export const REVISION_ATTRIBUTE = '_rv';

export type IndexName = EntityIndexName | (typeof API_KEY_INDEXES)[number];
// Built by calls marked pure (here and below), so a bundle that uses only the attribute names above
// (the authorizer, through the audit and rate-counter stores) leaves out the entity declarations and zod.
const indexNames = (): IndexName[] =>
  [...new Set<IndexName>([...ENTITIES.flatMap((e) => Object.keys(e.indexes ?? {}) as IndexName[]), ...API_KEY_INDEXES])].sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)));
const INDEX_NAMES = /* @__PURE__ */ indexNames();

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
   * Generic, overloaded global secondary indexes (projection ALL): the union of the slots the entity
   * declarations use (docs/data-model.md lists which entity uses which for what).
   */
  indexes: /* @__PURE__ */ INDEX_NAMES.map((name): IndexDefinition => ({ name, partitionKey: `${name}PK`, sortKey: `${name}SK` })),
} as const;

/** Attributes that are storage keys and must never appear in an API response. */
const keyAttributes = (): readonly string[] => [TABLE.partitionKey, TABLE.sortKey, TABLE.ttlAttribute, ...TABLE.indexes.flatMap((i) => [i.partitionKey, i.sortKey])];
export const KEY_ATTRIBUTES = /* @__PURE__ */ keyAttributes();

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
