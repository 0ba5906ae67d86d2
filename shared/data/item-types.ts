/**
 * The `_type` of every item of the table that is not an entity record (entity records carry their
 * declaration's `type`: shared/domain/entities/*). One registry next to the table, so no two kinds of item
 * share a type and no entity can take one of these (test/architecture/item-types.test.ts).
 */
export const ITEM_TYPES = {
  apiKey: 'APIKEY',
  rateCounter: 'RATECOUNTER',
  uniqueLock: 'UNIQUE',
  runningTimer: 'RUNNINGTIMER',
  change: 'CHANGE',
  changeVoid: 'CHANGEVOID',
  changeSequence: 'CHANGESEQ',
  rollup: 'ROLLUP',
  invoiceJob: 'INVOICEJOB',
  invoiceSequence: 'INVOICESEQ',
  member: 'MEMBER',
  audit: 'AUDIT',
  account: 'ACCOUNT',
  invitation: 'INVITATION',
  webhookDirectory: 'WEBHOOKDIR',
  webhookDispatch: 'WEBHOOKDISPATCH',
  delivery: 'DELIVERY',
  attempt: 'ATTEMPT',
  localQueue: 'LOCALQUEUE',
} as const;
export type ItemType = (typeof ITEM_TYPES)[keyof typeof ITEM_TYPES];
