import { createHash, randomBytes } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import bcrypt from 'bcryptjs';
import { normalizeEmail } from '../domain/roles';
import { db, tableName } from './db';
import { keys } from './keys';
import { TABLE_TTL_ATTRIBUTE, TYPE_ATTRIBUTE } from './table';
import { ITEM_TYPES } from './item-types';

/**
 * Sign-in accounts of the local OpenID Provider (`npm start`, local/oidc.ts): never used in AWS, where
 * Cognito holds them. One item per e-mail, `ACCOUNT#<email>`, with a bcrypt hash of the password (cost 10)
 * and never the password. The admin CLI's `members add` creates one with a generated password, printed once.
 */
const TYPE = ITEM_TYPES.account;
const BCRYPT_COST = 10;

/** 20 random characters of an unambiguous alphabet (about 113 bits). */
export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = randomBytes(20);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

/** Creates the account when missing; returns its new password, or undefined when the account existed. */
export async function ensureAccount(emailIn: string, password = generatePassword()): Promise<string | undefined> {
  const email = normalizeEmail(emailIn);
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.account(email), [TYPE_ATTRIBUTE]: TYPE, email, passwordHash: await bcrypt.hash(password, BCRYPT_COST), createdAt: new Date().toISOString() },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return password;
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return undefined;
    throw err;
  }
}

/** The account's e-mail when the password is right; undefined otherwise (unknown e-mail or wrong password). */
export async function checkPassword(emailIn: string, password: string): Promise<string | undefined> {
  const email = normalizeEmail(emailIn);
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: keys.account(email), ConsistentRead: true }));
  const hash = res.Item?.passwordHash;
  if (typeof hash !== 'string') {
    await bcrypt.hash(password, BCRYPT_COST); // the same time for an unknown e-mail as for a wrong password
    return undefined;
  }
  return (await bcrypt.compare(password, hash)) ? email : undefined;
}

export async function accountExists(emailIn: string): Promise<boolean> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: keys.account(normalizeEmail(emailIn)), ConsistentRead: true }));
  return !!res.Item;
}

// ---- invitations: one-time links to the local provider's set-password page (issue 36) ----

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 86_400_000;
/** The shortest password the set-password page accepts. */
export const MIN_PASSWORD_LENGTH = 12;
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Issues a one-time link token for `email` (valid 7 days): 32 random bytes, base64url; the table keeps only
 * its SHA-256 (`INVITATION#<hash>`), so the token is in the answer that carries the link and nowhere else.
 * Earlier links of the same person keep working until used or expired.
 */
export async function issueInvitation(emailIn: string, now = new Date()): Promise<{ token: string; expiresAt: string }> {
  const email = normalizeEmail(emailIn);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS).toISOString();
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.invitation(tokenHash(token)),
        [TYPE_ATTRIBUTE]: ITEM_TYPES.invitation,
        email,
        createdAt: now.toISOString(),
        expiresAt,
        [TABLE_TTL_ATTRIBUTE]: Math.floor(Date.parse(expiresAt) / 1000) + 86_400,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  return { token, expiresAt };
}

export type InvitationState = { email: string; expiresAt: string } | 'unknown' | 'used' | 'expired';

/** What a token opens: its person (still usable), or why not. */
export async function invitationState(token: string, now = new Date()): Promise<InvitationState> {
  if (!TOKEN_PATTERN.test(token)) return 'unknown';
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: keys.invitation(tokenHash(token)), ConsistentRead: true }));
  const it = res.Item;
  if (!it || it[TYPE_ATTRIBUTE] !== ITEM_TYPES.invitation) return 'unknown';
  if (it.usedAt) return 'used';
  if (Date.parse(String(it.expiresAt)) <= now.getTime()) return 'expired';
  return { email: String(it.email), expiresAt: String(it.expiresAt) };
}

/**
 * Uses a token once: marks it used and sets the person's password (creating the account when missing) in
 * one transaction, under the condition that it is unused and unexpired, so of two uses at once one wins.
 */
export async function redeemInvitation(token: string, password: string, now = new Date()): Promise<{ email: string } | 'unknown' | 'used' | 'expired'> {
  const state = await invitationState(token, now);
  if (typeof state === 'string') return state;
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: keys.invitation(tokenHash(token)),
              UpdateExpression: 'SET usedAt = :now',
              ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(usedAt) AND expiresAt > :now',
              ExpressionAttributeValues: { ':now': now.toISOString() },
            },
          },
          {
            Update: {
              TableName: tableName(),
              Key: keys.account(state.email),
              UpdateExpression: 'SET #t = :t, email = :e, passwordHash = :h, createdAt = if_not_exists(createdAt, :now), passwordSetAt = :now',
              ExpressionAttributeNames: { '#t': TYPE_ATTRIBUTE },
              ExpressionAttributeValues: { ':t': TYPE, ':e': state.email, ':h': await bcrypt.hash(password, BCRYPT_COST), ':now': now.toISOString() },
            },
          },
        ],
      }),
    );
    return { email: state.email };
  } catch (err) {
    if (err instanceof TransactionCanceledException && err.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return 'used';
    throw err;
  }
}
