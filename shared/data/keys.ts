/**
 * Every storage key of the table is built here, and nowhere else. Every key of workspace data starts
 * with `WS#<workspaceId>`, so no Query or GetItem built from a caller's workspace can reach another's.
 * docs/data-model.md lists the access patterns these keys serve.
 */
import { validationError } from '../api/errors';

export interface Key {
  PK: string;
  SK: string;
}

const ws = (workspaceId: string) => `WS#${workspaceId}`;
/** A free-form id inside a composite key: `#` (and `%`) escaped, so components cannot run together. */
const keyPart = (v: string) => encodeURIComponent(v);

/**
 * DynamoDB refuses a partition key over 2048 bytes or a sort key over 1024 bytes (UTF-8) with an error
 * that would be a 500. Ids are limited in characters (128), but escaped non-ASCII ids and long names
 * can still overflow a composite key: such a key is refused here as a 400 naming the request field it
 * comes from (nothing with such a key can exist, so nothing is hidden by refusing to look it up).
 */
export const MAX_PARTITION_KEY_BYTES = 2048;
export const MAX_SORT_KEY_BYTES = 1024;
function fit(value: string, max: number, fields: string[]): string {
  if (Buffer.byteLength(value, 'utf8') <= max) return value;
  const message = 'too long to be stored (non-ASCII characters count several bytes)';
  throw validationError(`${fields.join(', ')}: ${message}`, fields.map((field) => ({ field, message })));
}
const pk = (value: string, ...fields: string[]) => fit(value, MAX_PARTITION_KEY_BYTES, fields);
const sk = (value: string, ...fields: string[]) => fit(value, MAX_SORT_KEY_BYTES, fields);

export const keys = {
  workspacePartition: ws,

  /** Plain entities (clients, projects, tasks, tags, invoices) live in the workspace partition. */
  entity: (workspaceId: string, prefix: string, id: string): Key => ({ PK: ws(workspaceId), SK: sk(`${prefix}#${id}`, 'id') }),
  entityPrefix: (prefix: string) => `${prefix}#`,

  /** Uniqueness lock: one item per (scope, normalized value); written in the same transaction. */
  uniqueLock: (workspaceId: string, lockName: string, value: string): Key => ({
    PK: ws(workspaceId),
    SK: sk(`UNIQUE#${lockName}#${value}`, 'name'),
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
   * Time entries: their own partition per workspace, SK `<startTime as UTC ISO ms>#<id>` (= the public
   * sortKey), so a Query on the partition is chronological. The same SK is the sort key of every
   * time-entry index; the index partitions below all start with `WS#<ws>#TE#`. Ids inside keys are
   * escaped (encodeURIComponent turns `#` into `%23`) so two different (userId, projectId) pairs can
   * never build the same partition value. docs/data-model.md, "Time entries".
   */
  timeEntryPartition: (workspaceId: string) => `${ws(workspaceId)}#TE`,
  timeEntry: (workspaceId: string, startTimeIso: string, id: string): Key => ({ PK: `${ws(workspaceId)}#TE`, SK: sk(`${startTimeIso}#${id}`, 'id') }),
  timeEntrySortKey: (startTimeIso: string, id: string) => sk(`${startTimeIso}#${id}`, 'id'),
  /** GSI1: by user; GSI2: by project; GSI3: by client; GSI4: by user+project; GSI5: by user+client. */
  timeEntryByUser: (workspaceId: string, userId: string) => pk(`${ws(workspaceId)}#TE#U#${keyPart(userId)}`, 'userId'),
  timeEntryByProject: (workspaceId: string, projectId: string) => pk(`${ws(workspaceId)}#TE#P#${keyPart(projectId)}`, 'projectId'),
  timeEntryByClient: (workspaceId: string, clientId: string) => pk(`${ws(workspaceId)}#TE#C#${keyPart(clientId)}`, 'clientId'),
  timeEntryByUserProject: (workspaceId: string, userId: string, projectId: string) => pk(`${ws(workspaceId)}#TE#UP#${keyPart(userId)}#${keyPart(projectId)}`, 'userId', 'projectId'),
  timeEntryByUserClient: (workspaceId: string, userId: string, clientId: string) => pk(`${ws(workspaceId)}#TE#UC#${keyPart(userId)}#${keyPart(clientId)}`, 'userId', 'clientId'),

  /**
   * Favorites: in the workspace partition, SK `FAVORITE#<userId>#<id>` (userId escaped with
   * encodeURIComponent, so `#` in a userId cannot run into the id): one user's favorites are one
   * Query on the prefix `FAVORITE#<userId>#`, all of the workspace's on `FAVORITE#`.
   */
  favorite: (workspaceId: string, userId: string, id: string): Key => ({ PK: ws(workspaceId), SK: sk(`FAVORITE#${encodeURIComponent(userId)}#${id}`, 'userId') }),
  favoritePrefix: (userId?: string) => (userId === undefined ? 'FAVORITE#' : sk(`FAVORITE#${encodeURIComponent(userId)}#`, 'userId')),

  /** Invoices: item `WS#<ws>` / `INVOICE#<id>`; GSI1 `WS#<ws>#INVOICES` / `<issueDate>#<id>` lists them by issueDate. */
  invoiceByIssueDate: (workspaceId: string, issueDate: string, id: string) => ({ GSI1PK: `${ws(workspaceId)}#INVOICES`, GSI1SK: `${issueDate}#${id}` }),
  invoiceByIssueDatePartition: (workspaceId: string) => `${ws(workspaceId)}#INVOICES`,

  /**
   * Rate-limit counter: one item per key per clock hour, SK = the hour's start (ISO 8601), holding the
   * hour count `h` and one count per minute of the hour (`m00`..`m59`); `ttl` = hour end + 1 h.
   * Written by shared/http/rate-limit.ts with one conditional UpdateItem per request (docs/rate-limits.md).
   */
  rateCounter: (keyId: string, hourStart: string): Key => ({ PK: `RATE#${keyId}`, SK: hourStart }),
};
