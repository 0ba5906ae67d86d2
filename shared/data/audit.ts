import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from '../domain/ids';
import { decodeCursor, encodeCursor } from './cursor';
import { db, tableName, type StoredItem } from './db';
import { keys } from './keys';
import { TABLE_TTL_ATTRIBUTE, TYPE_ATTRIBUTE } from './table';
import type { WriteOp } from './write';
import { ITEM_TYPES } from './item-types';

/**
 * The console's audit log: one item per change to a workspace's keys, members or invoices, written in the same
 * transaction as the change (no change without its entry), kept 400 days (DynamoDB TTL), read newest first.
 * An entry says when, who (the person's e-mail, or `admin-cli`), what (action, target, changed fields): it
 * never holds a secret (an API key or a password), only the key's id and public prefix.
 */
export const AUDIT_RETENTION_DAYS = 400;
const TYPE = ITEM_TYPES.audit;

export type AuditAction =
  | 'api-key.created'
  | 'api-key.updated'
  | 'api-key.rolled'
  | 'api-key.revoked'
  | 'member.added'
  | 'member.updated'
  | 'member.removed'
  | 'invoice.created'
  | 'invoice.updated'
  | 'invoice.sent'
  | 'invoice.paid'
  | 'invoice.voided'
  | 'webhook.enabled'
  | 'webhook.disabled'
  | 'webhook.deleted'
  | 'invoice.deleted';

export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  action: AuditAction;
  target: { type: 'api-key' | 'member' | 'invoice' | 'webhook'; id: string };
  /** Changed fields: name -> { from, to } (`from` absent on create, `to` absent on remove). */
  changes: Record<string, { from?: unknown; to?: unknown }>;
}

export interface AuditInput {
  workspaceId: string;
  actor: string;
  action: AuditAction;
  target: AuditEntry['target'];
  changes?: AuditEntry['changes'];
}

/** The Put of one audit entry, to join the change's transaction. */
export function auditOp(input: AuditInput, now = new Date()): WriteOp {
  const at = now.toISOString();
  const id = `aud_${ulid(now.getTime())}`;
  const entry: AuditEntry = { id, at, actor: input.actor, action: input.action, target: input.target, changes: input.changes ?? {} };
  return {
    item: {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.audit(input.workspaceId, at, id),
          [TYPE_ATTRIBUTE]: TYPE,
          [TABLE_TTL_ATTRIBUTE]: Math.floor(now.getTime() / 1000) + AUDIT_RETENTION_DAYS * 86_400,
          ...entry,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    onConditionFail: () => new Error('audit entry id collision'),
  };
}

/** What changed between two versions of a record, over the given fields. */
export function diff<T extends object>(before: T, after: T, fields: readonly (keyof T & string)[]): AuditEntry['changes'] {
  const out: AuditEntry['changes'] = {};
  for (const f of fields) {
    const from = before[f] ?? null;
    const to = after[f] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) out[f] = { from, to };
  }
  return out;
}

const toEntry = (item: StoredItem): AuditEntry => ({
  id: String(item.id),
  at: String(item.at),
  actor: String(item.actor),
  action: item.action as AuditAction,
  target: item.target as AuditEntry['target'],
  changes: (item.changes as AuditEntry['changes']) ?? {},
});

/** One page of a workspace's audit log, newest first (a signed cursor bound to the workspace). */
export async function listAudit(workspaceId: string, opts: { limit: number; cursor?: string }): Promise<{ items: AuditEntry[]; nextCursor: string | null; hasMore: boolean }> {
  const binding = { workspaceId, query: { audit: true } };
  const start = opts.cursor ? await decodeCursor(opts.cursor, binding, ['PK', 'SK']) : undefined;
  const res = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.auditPartition(workspaceId) },
      ScanIndexForward: false,
      Limit: opts.limit,
      ...(start ? { ExclusiveStartKey: start } : {}),
    }),
  );
  const items = (res.Items ?? []).map(toEntry);
  const last = res.LastEvaluatedKey;
  const nextCursor = last ? await encodeCursor(binding, { PK: String(last.PK), SK: String(last.SK) }) : null;
  return { items, nextCursor, hasMore: nextCursor !== null };
}
