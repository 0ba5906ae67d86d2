import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import bcrypt from 'bcryptjs';
import { normalizeEmail } from '../domain/roles';
import { db, tableName } from './db';
import { keys } from './keys';
import { TYPE_ATTRIBUTE } from './table';
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
