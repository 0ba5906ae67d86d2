/**
 * The `_type` of every item of the table that is not an entity record (entity records carry their
 * declaration's `type`: shared/domain/entities/*). One registry next to the table, so no two kinds of item
 * share a type and no entity can take one of these (test/architecture/item-types.test.ts).
 */
export const ITEM_TYPES = {
  apiKey: 'APIKEY',
  /** a workspace's active-key counter: `WS#<ws>#APIKEYS` / `COUNT` */
  apiKeyCount: 'APIKEYCOUNT',
  rateCounter: 'RATECOUNTER',
  uniqueLock: 'UNIQUE',
  /** a whole list's bound counter: `WS#<ws>#LISTBOUND` / `<TYPE>[#<per>]` (record count and bytes) */
  listBound: 'LISTBOUND',
  runningTimer: 'RUNNINGTIMER',
  change: 'CHANGE',
  changeVoid: 'CHANGEVOID',
  changeSequence: 'CHANGESEQ',
  rollup: 'ROLLUP',
  invoiceJob: 'INVOICEJOB',
  invoiceSequence: 'INVOICESEQ',
  /** a workspace's billing profile: `WS#<ws>` / `BILLINGPROFILE` */
  billingProfile: 'BILLINGPROFILE',
  member: 'MEMBER',
  /** a workspace's owner counter: `WS#<ws>#MEMBERS` / `COUNT` */
  memberCount: 'MEMBERCOUNT',
  audit: 'AUDIT',
  account: 'ACCOUNT',
  invitation: 'INVITATION',
  webhookDirectory: 'WEBHOOKDIR',
  webhookDispatch: 'WEBHOOKDISPATCH',
  delivery: 'DELIVERY',
  attempt: 'ATTEMPT',
  localQueue: 'LOCALQUEUE',
  idempotency: 'IDEMPOTENCY',
} as const;
export type ItemType = (typeof ITEM_TYPES)[keyof typeof ITEM_TYPES];
