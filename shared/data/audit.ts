import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from '../domain/ids';
import { decodeCursor, encodeCursor, type CursorKey } from './cursor';
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
  | 'invoice.deleted'
  | 'billing-profile.updated';

export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  action: AuditAction;
  target: { type: 'api-key' | 'member' | 'invoice' | 'webhook' | 'workspace'; id: string };
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

/** What a page of the audit log may be narrowed to (each exact). */
export interface AuditFilter {
  action?: string;
  actor?: string;
  targetId?: string;
}

/**
 * One page of a workspace's audit log, newest first (a signed cursor bound to the workspace and the
 * filter). A filter is a FilterExpression on the one partition: the page is filled by further Queries (at
 * most 10) until `limit` entries matched or the log ends, and the cursor resumes after the last entry read.
 */
export async function listAudit(
  workspaceId: string,
  opts: { limit: number; cursor?: string; filter?: AuditFilter },
): Promise<{ items: AuditEntry[]; nextCursor: string | null; hasMore: boolean }> {
  const f = opts.filter ?? {};
  const binding = {
    workspaceId,
    query: { audit: true, ...(f.action ? { action: f.action } : {}), ...(f.actor ? { actor: f.actor } : {}), ...(f.targetId ? { targetId: f.targetId } : {}) },
  };
  let start: CursorKey | StoredItem | undefined = opts.cursor ? await decodeCursor(opts.cursor, binding, ['PK', 'SK']) : undefined;
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, string> = { ':pk': keys.auditPartition(workspaceId) };
  const add = (condition: string, attrs: Record<string, string>, name: string, value: string) => {
    conditions.push(condition);
    Object.assign(names, attrs);
    values[name] = value;
  };
  if (f.action) add('#action = :action', { '#action': 'action' }, ':action', f.action);
  if (f.actor) add('#actor = :actor', { '#actor': 'actor' }, ':actor', f.actor);
  if (f.targetId) add('#target.#tid = :tid', { '#target': 'target', '#tid': 'id' }, ':tid', f.targetId);
  const items: AuditEntry[] = [];
  let last: StoredItem | undefined;
  for (let calls = 0; calls < 10 && items.length < opts.limit; calls++) {
    const res = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk',
        ...(conditions.length ? { FilterExpression: conditions.join(' AND '), ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        Limit: opts.limit - items.length,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    items.push(...(res.Items ?? []).map(toEntry));
    last = res.LastEvaluatedKey;
    if (!last) break;
    start = last;
  }
  const nextCursor = last ? await encodeCursor(binding, { PK: String(last.PK), SK: String(last.SK) }) : null;
  return { items, nextCursor, hasMore: nextCursor !== null };
}
