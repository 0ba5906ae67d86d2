import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { invoices as invoiceEntity } from '../domain/entities/invoices';
import { db, tableName } from '../data/db';
import { ITEM_TYPES } from '../data/item-types';
import { keys } from '../data/keys';
import { TYPE_ATTRIBUTE as TYPE } from '../data/table';
import type { WriteOp } from '../data/write';
import { sequenceOf } from './rules';

/**
 * The storage of invoice numbers (docs/data-model.md, "Invoices from time"): the workspace's sequence item
 * (`WS#<ws>` / `INVOICESEQ`, `n` = the last number a send gave) and the number locks of the invoice entity
 * (`INVOICENUMBER`), read to find the highest number taken by hand or by the seed. Sending moves the sequence
 * in its own transaction (`sequenceOp`), under the condition that it still holds the value read.
 */
const SEQUENCE_TYPE = ITEM_TYPES.invoiceSequence;

/** The number the sequence gave is taken (an invoice numbered by hand): resynchronise the sequence. */
export class NumberTaken extends Error {
  /** The sequence value whose number is taken (the sequence moves past it). */
  constructor(readonly n: number) {
    super('invoice number taken');
    this.name = 'NumberTaken';
  }
}
/** The sequence moved since it was read (another invoice was committed): read it again. */
export class SequenceMoved extends Error {
  constructor() {
    super('invoice sequence moved');
    this.name = 'SequenceMoved';
  }
}

/** The last number the workspace's sequence gave (0 before the first). */
export async function readSequence(workspaceId: string): Promise<number | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: keys.invoiceSequence(workspaceId), ConsistentRead: true }));
  return res.Item ? Number(res.Item.n) : undefined;
}

/**
 * The highest sequence number among the workspace's invoice-number locks (numbers `INV-<6+ digits>`,
 * given by hand or by the seed): one Query, newest lock first.
 */
export async function highestTakenNumber(workspaceId: string): Promise<number> {
  const prefix = keys.uniqueLock(workspaceId, invoiceEntity.unique!.name, 'inv-', 'number').SK;
  const res = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
      ExpressionAttributeValues: { ':pk': keys.workspacePartition(workspaceId), ':p': prefix },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const sk = res.Items?.[0]?.SK;
  return typeof sk === 'string' ? (sequenceOf(sk.slice(prefix.length - 'inv-'.length)) ?? 0) : 0;
}

/** Whether an invoice number is taken in the workspace (its lock item exists). */
export async function numberTaken(workspaceId: string, number: string): Promise<boolean> {
  const rule = invoiceEntity.unique!;
  const res = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.uniqueLock(workspaceId, rule.name, number.trim().toLowerCase(), 'number'), ConsistentRead: true }),
  );
  return res.Item !== undefined;
}

/**
 * The write of a finalization that moves the workspace's number sequence from the value read to the next,
 * under the condition that it still holds the value read (another send came first: SequenceMoved, read again).
 */
export const sequenceOp = (workspaceId: string, { previous, next }: { previous: number | undefined; next: number }): WriteOp => ({
  item: {
    Put: {
      TableName: tableName(),
      Item: { ...keys.invoiceSequence(workspaceId), [TYPE]: SEQUENCE_TYPE, n: next },
      ConditionExpression: previous === undefined ? 'attribute_not_exists(PK)' : 'n = :prev',
      ...(previous === undefined ? {} : { ExpressionAttributeValues: { ':prev': previous } }),
    },
  },
  onConditionFail: () => new SequenceMoved(),
});

/** Moves the sequence forward to `n` when it is below (after a hand-given or seeded number took the next one). */
export async function raiseSequence(workspaceId: string, n: number): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invoiceSequence(workspaceId),
        UpdateExpression: 'SET #t = :type, n = :n',
        ConditionExpression: 'attribute_not_exists(n) OR n < :n',
        ExpressionAttributeNames: { '#t': TYPE },
        ExpressionAttributeValues: { ':type': SEQUENCE_TYPE, ':n': n },
      }),
    );
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
  }
}
