import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, type StoredItem } from '../data/db';
import { keys } from '../data/keys';
import { ITEM_TYPES } from '../data/item-types';
import { TYPE_ATTRIBUTE as TYPE, VERSION_ATTRIBUTE as VERSION } from '../data/table';
import { StaleRead, writeAll, type WriteOp } from '../data/write';

/**
 * The storage of a workspace's billing profile (docs/data-model.md, "The billing profile"): ONE item,
 * `WS#<ws>` / `BILLINGPROFILE`, in the workspace's own partition. Read with one strongly consistent GetItem
 * (the console's Settings, the PDF's "From", a new invoice's defaults, the snapshot at send); written whole
 * (a PUT replaces it) in one transaction with the write's audit entry, guarded by the version read, so of two
 * concurrent writers each one's audit entry says what it replaced.
 */
export interface BillingProfile {
  /** The name the invoices show as their sender ("From"). */
  displayName: string;
  /** Multi-line postal address. */
  address?: string;
  taxId?: string;
  email?: string;
  /** ISO 4217: a new invoice's currency when neither the project nor the client sets one. */
  defaultCurrency?: string;
  /** A new invoice's tax rate (percent) when the create gives none. */
  defaultTaxRate?: number;
  /** A new invoice's due date is its issue date plus these days (when the create gives no due date). */
  paymentTermsDays?: number;
  /** A new invoice's notes when the create gives none (payment instructions, thanks). */
  invoiceFooter?: string;
}
export const PROFILE_FIELDS = [
  'displayName',
  'address',
  'taxId',
  'email',
  'defaultCurrency',
  'defaultTaxRate',
  'paymentTermsDays',
  'invoiceFooter',
] as const satisfies readonly (keyof BillingProfile)[];

export interface StoredProfile {
  profile: BillingProfile;
  updatedAt: string;
  updatedBy: string;
  /** The item's version: the next write is guarded by it. */
  version: number;
}

const text = (item: StoredItem, f: 'address' | 'taxId' | 'email' | 'defaultCurrency' | 'invoiceFooter') => (typeof item[f] === 'string' ? { [f]: item[f] } : {});
const number = (item: StoredItem, f: 'defaultTaxRate' | 'paymentTermsDays') => (typeof item[f] === 'number' ? { [f]: item[f] } : {});
const profileOf = (item: StoredItem): StoredProfile => ({
  profile: {
    displayName: String(item.displayName),
    ...text(item, 'address'),
    ...text(item, 'taxId'),
    ...text(item, 'email'),
    ...text(item, 'defaultCurrency'),
    ...number(item, 'defaultTaxRate'),
    ...number(item, 'paymentTermsDays'),
    ...text(item, 'invoiceFooter'),
  },
  updatedAt: String(item.updatedAt),
  updatedBy: String(item.updatedBy),
  version: Number(item[VERSION] ?? 0),
});

/** The workspace's billing profile, or undefined when none was ever set (one consistent GetItem). */
export async function readProfile(workspaceId: string): Promise<StoredProfile | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: keys.billingProfile(workspaceId), ConsistentRead: true }));
  return res.Item ? profileOf(res.Item) : undefined;
}

/**
 * Replaces the profile, in one transaction with `also` (its audit entry): on the condition that it is still
 * at `version` (undefined: none exists yet). StaleRead when another write came first (the caller reads again).
 */
export async function writeProfile(
  workspaceId: string,
  profile: BillingProfile,
  by: { at: string; actor: string },
  version: number | undefined,
  also: readonly WriteOp[] = [],
): Promise<StoredProfile> {
  const item: StoredItem = {
    ...keys.billingProfile(workspaceId),
    [TYPE]: ITEM_TYPES.billingProfile,
    ...profile,
    updatedAt: by.at,
    updatedBy: by.actor,
    [VERSION]: (version ?? 0) + 1,
  };
  const guard =
    version === undefined
      ? { ConditionExpression: 'attribute_not_exists(PK)' }
      : { ConditionExpression: '#v = :v', ExpressionAttributeNames: { '#v': VERSION }, ExpressionAttributeValues: { ':v': version } };
  await writeAll([{ item: { Put: { TableName: tableName(), Item: item, ...guard } }, onConditionFail: () => new StaleRead() }, ...also]);
  return profileOf(item);
}
