import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { conflict, notFound } from '../domain/errors';
import { isRole, normalizeEmail, type Role } from '../domain/roles';
import { isValidWorkspaceId } from '../domain/apikeys';
import { auditOp } from './audit';
import { db, queryAll, tableName, type StoredItem } from './db';
import { keys } from './keys';
import { TYPE_ATTRIBUTE } from './table';
import { writeAll, type WriteOp } from './write';
import { ITEM_TYPES } from './item-types';

/**
 * Workspace members: a person (their e-mail) with a role in a workspace; one person may be a member of
 * several. One item per membership, `WS#<ws>#MEMBERS` / `MEMBER#<email>`, also in GSI1 under
 * `PERSON#<email>`, so ONE Query resolves a person's workspaces (GET /console/api/me) and one GetItem a
 * person's role in one workspace (every console request). The workspace's owner count sits in the same
 * partition (`COUNT`, attribute `owners`) and changes in the same transaction as the membership: removing
 * or demoting an owner requires `owners > 1`, so the last owner cannot go, even when two owners try to
 * leave at once. Every change carries its audit entry in that transaction.
 */
const TYPE = ITEM_TYPES.member;

export interface Member {
  workspaceId: string;
  email: string;
  role: Role;
  addedAt: string;
  addedBy: string;
}

const toMember = (item: StoredItem): Member => ({
  workspaceId: String(item.workspaceId),
  email: String(item.email),
  role: isRole(item.role) ? item.role : 'viewer',
  addedAt: String(item.addedAt),
  addedBy: String(item.addedBy),
});

export const LAST_OWNER_MESSAGE = 'A workspace keeps at least one owner: make another member owner first';

function ownerDelta(workspaceId: string, delta: 1 | -1): WriteOp {
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: keys.memberCounter(workspaceId),
        UpdateExpression: 'SET #t = :t ADD owners :d',
        ...(delta < 0
          ? { ConditionExpression: 'owners > :one', ExpressionAttributeValues: { ':d': delta, ':one': 1, ':t': ITEM_TYPES.memberCount } }
          : { ExpressionAttributeValues: { ':d': delta, ':t': ITEM_TYPES.memberCount } }),
        ExpressionAttributeNames: { '#t': TYPE_ATTRIBUTE },
      },
    },
    onConditionFail: () => conflict(LAST_OWNER_MESSAGE),
  };
}

export async function getMembership(workspaceId: string, email: string): Promise<Member | undefined> {
  if (!isValidWorkspaceId(workspaceId)) return undefined;
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: keys.member(workspaceId, normalizeEmail(email)), ConsistentRead: true }));
  return res.Item && res.Item[TYPE_ATTRIBUTE] === TYPE ? toMember(res.Item) : undefined;
}

/** A person's memberships: one Query on GSI1 (`PERSON#<email>`). */
export async function membershipsOf(email: string): Promise<Member[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.memberByPersonPartition(normalizeEmail(email)) },
  });
  return items.filter((i) => i[TYPE_ATTRIBUTE] === TYPE).map(toMember);
}

/** A workspace's members, by e-mail. */
export async function listMembers(workspaceId: string): Promise<Member[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :m)',
    ExpressionAttributeValues: { ':pk': keys.memberPartition(workspaceId), ':m': 'MEMBER#' },
    ConsistentRead: true,
  });
  return items.map(toMember);
}

/** Adds a member (409 when the person already is one). `actor` is who does it (an e-mail or `admin-cli`). */
export async function addMember(workspaceId: string, emailIn: string, role: Role, actor: string): Promise<Member> {
  const email = normalizeEmail(emailIn);
  const member: Member = { workspaceId, email, role, addedAt: new Date().toISOString(), addedBy: actor };
  await writeAll([
    {
      item: {
        Put: {
          TableName: tableName(),
          Item: { ...keys.member(workspaceId, email), ...keys.memberByPerson(email, workspaceId), [TYPE_ATTRIBUTE]: TYPE, ...member },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      onConditionFail: () => conflict(`${email} is already a member of this workspace`),
    },
    ...(role === 'owner' ? [ownerDelta(workspaceId, 1)] : []),
    auditOp({ workspaceId, actor, action: 'member.added', target: { type: 'member', id: email }, changes: { role: { to: role } } }),
  ]);
  return member;
}

class Changed extends Error {}

/** Changes a member's role; 404 when not a member, 409 when it would leave the workspace without an owner. */
export async function changeRole(workspaceId: string, emailIn: string, role: Role, actor: string): Promise<Member> {
  const email = normalizeEmail(emailIn);
  for (;;) {
    const current = await getMembership(workspaceId, email);
    if (!current) throw notFound('Member');
    if (current.role === role) return current;
    try {
      await writeAll([
        {
          item: {
            Update: {
              TableName: tableName(),
              Key: keys.member(workspaceId, email),
              UpdateExpression: 'SET #r = :r',
              ConditionExpression: '#r = :old',
              ExpressionAttributeNames: { '#r': 'role' },
              ExpressionAttributeValues: { ':r': role, ':old': current.role },
            },
          },
          onConditionFail: () => new Changed(),
        },
        ...(current.role === 'owner' ? [ownerDelta(workspaceId, -1)] : role === 'owner' ? [ownerDelta(workspaceId, 1)] : []),
        auditOp({ workspaceId, actor, action: 'member.updated', target: { type: 'member', id: email }, changes: { role: { from: current.role, to: role } } }),
      ]);
      return { ...current, role };
    } catch (err) {
      if (!(err instanceof Changed)) throw err;
    }
  }
}

/** Removes a member; 404 when not a member, 409 for the last owner. */
export async function removeMember(workspaceId: string, emailIn: string, actor: string): Promise<Member> {
  const email = normalizeEmail(emailIn);
  for (;;) {
    const current = await getMembership(workspaceId, email);
    if (!current) throw notFound('Member');
    try {
      await writeAll([
        {
          item: {
            Delete: {
              TableName: tableName(),
              Key: keys.member(workspaceId, email),
              ConditionExpression: '#r = :old',
              ExpressionAttributeNames: { '#r': 'role' },
              ExpressionAttributeValues: { ':old': current.role },
            },
          },
          onConditionFail: () => new Changed(),
        },
        ...(current.role === 'owner' ? [ownerDelta(workspaceId, -1)] : []),
        auditOp({ workspaceId, actor, action: 'member.removed', target: { type: 'member', id: email }, changes: { role: { from: current.role } } }),
      ]);
      return current;
    } catch (err) {
      if (!(err instanceof Changed)) throw err;
    }
  }
}
