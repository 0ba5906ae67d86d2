/**
 * Every storage key of the table is built here, and nowhere else. Every key of workspace data starts
 * with `WS#<workspaceId>`, so no Query or GetItem built from a caller's workspace can reach another's.
 * docs/data-model.md lists the access patterns these keys serve.
 */
export interface Key {
  PK: string;
  SK: string;
}

const ws = (workspaceId: string) => `WS#${workspaceId}`;

export const keys = {
  workspacePartition: ws,

  /** Plain entities (clients, projects, tasks, tags, invoices) live in the workspace partition. */
  entity: (workspaceId: string, prefix: string, id: string): Key => ({ PK: ws(workspaceId), SK: `${prefix}#${id}` }),
  entityPrefix: (prefix: string) => `${prefix}#`,

  /** Uniqueness lock: one item per (scope, normalized value); written in the same transaction. */
  uniqueLock: (workspaceId: string, lockName: string, value: string): Key => ({
    PK: ws(workspaceId),
    SK: `UNIQUE#${lockName}#${value}`,
  }),

  /** API keys are found by the SHA-256 of the key: the key itself is never stored. */
  apiKey: (keyHash: string): Key => ({ PK: `APIKEY#${keyHash}`, SK: 'APIKEY' }),
  /** GSI1: a workspace's keys, newest first. */
  apiKeyByWorkspace: (workspaceId: string, createdAt: string, id: string) => ({ GSI1PK: `${ws(workspaceId)}#APIKEYS`, GSI1SK: `${createdAt}#${id}` }),
  apiKeyByWorkspacePartition: (workspaceId: string) => `${ws(workspaceId)}#APIKEYS`,
  /** GSI2: a key by its public id (revoke, update). */
  apiKeyById: (id: string) => ({ GSI2PK: `APIKEYID#${id}`, GSI2SK: 'APIKEY' }),
  apiKeyByIdPartition: (id: string) => `APIKEYID#${id}`,

  /**
   * Favorites: in the workspace partition, SK `FAVORITE#<userId>#<id>` (userId escaped with
   * encodeURIComponent, so `#` in a userId cannot run into the id): one user's favorites are one
   * Query on the prefix `FAVORITE#<userId>#`, all of the workspace's on `FAVORITE#`.
   */
  favorite: (workspaceId: string, userId: string, id: string): Key => ({ PK: ws(workspaceId), SK: `FAVORITE#${encodeURIComponent(userId)}#${id}` }),
  favoritePrefix: (userId?: string) => (userId === undefined ? 'FAVORITE#' : `FAVORITE#${encodeURIComponent(userId)}#`),

  /** Invoices: item `WS#<ws>` / `INVOICE#<id>`; GSI1 `WS#<ws>#INVOICES` / `<issueDate>#<id>` lists them by issueDate. */
  invoiceByIssueDate: (workspaceId: string, issueDate: string, id: string) => ({ GSI1PK: `${ws(workspaceId)}#INVOICES`, GSI1SK: `${issueDate}#${id}` }),
  invoiceByIssueDatePartition: (workspaceId: string) => `${ws(workspaceId)}#INVOICES`,

  /** Rate-limit counter: one item per key per hour window (TTL-expired). */
  rateCounter: (keyId: string, hourStart: string): Key => ({ PK: `RATE#${keyId}`, SK: hourStart }),
};
