import { RESOURCES } from '../../shared/api/routes';
import { keys } from '../../shared/data/keys';
import type { ServiceFunction } from '../../lib/service-function';
import { type Synth, allFunctions, asArray, resourcesOfType, statementsOfRole, synth } from './support';

/**
 * Least privilege on the table (issue 28, item 2), read from the synthesized template: every function
 * role's DynamoDB item actions, whether they reach the indexes, and the partitions they may touch
 * (`dynamodb:LeadingKeys`). No role may touch an item without a leading-key condition, none may Scan or make
 * batch writes (BatchGetItem only with the read-write grant: a keyed write's first read), and only the authorizer and `me` may touch `APIKEY#` records. The stream actions of the
 * webhook dispatcher's event source are listed apart.
 */
const STREAM_ACTIONS = new Set(['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams']);
const WORKSPACE = keys.workspacePartition('*');
const RATE = keys.rateCounter('*', '').PK;
// BatchGetItem: a write with an Idempotency-Key reads its record and the key's record in one call (shared/data/idempotency.ts)
const RW = ['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem'];
const RESOURCE_GRANT = [{ actions: RW, indexes: true, leadingKeys: [WORKSPACE, RATE] }];

/**
 * The reviewed list: function -> its table grants. Every resource of the registry has the reviewed resource
 * grant unless listed below with another (so a plain resource added by its declaration gets exactly it).
 */
const EXPECTED: Record<string, Array<{ actions: string[]; indexes: boolean; leadingKeys: string[] }>> = {
  ...Object.fromEntries(RESOURCES.map((r) => [r, RESOURCE_GRANT])),
  clients: RESOURCE_GRANT,
  projects: RESOURCE_GRANT,
  tasks: RESOURCE_GRANT,
  tags: RESOURCE_GRANT,
  'time-entries': RESOURCE_GRANT,
  favorites: RESOURCE_GRANT,
  // the invoices function releases an invoice's entries under its job item (DELETE /v1/invoices/{id})
  invoices: [{ actions: RW, indexes: true, leadingKeys: [WORKSPACE, RATE] }],
  webhooks: [{ actions: RW, indexes: true, leadingKeys: [WORKSPACE, RATE, keys.webhookDirectoryPartition] }],
  openapi: [],
  me: [{ actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], indexes: false, leadingKeys: [keys.apiKey('*').PK, RATE] }],
  changes: [{ actions: ['dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem'], indexes: false, leadingKeys: [keys.changeLogPartition('*'), RATE] }],
  reports: [
    { actions: ['dynamodb:GetItem', 'dynamodb:Query'], indexes: true, leadingKeys: [WORKSPACE] },
    { actions: ['dynamodb:UpdateItem'], indexes: false, leadingKeys: [RATE] },
  ],
  authorizer: [{ actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], indexes: false, leadingKeys: [keys.apiKey('*').PK] }],
  // a webhook delivers only what its API key may read now: the key by id, read only
  'webhook-dispatcher': [
    { actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem'], indexes: false, leadingKeys: [WORKSPACE] },
    { actions: ['dynamodb:GetItem', 'dynamodb:Query'], indexes: true, leadingKeys: [keys.apiKey('*').PK, keys.apiKeyById('*').GSI2PK] },
  ],
  // a webhook delivers only what its API key may read now: the key by id, read only
  'webhook-sender': [
    { actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem'], indexes: false, leadingKeys: [WORKSPACE] },
    { actions: ['dynamodb:GetItem', 'dynamodb:Query'], indexes: true, leadingKeys: [keys.apiKey('*').PK, keys.apiKeyById('*').GSI2PK] },
  ],
  // the console: members, audit log and counters (WS#), its per-person rate counter, a person's memberships
  // (PERSON# on GSI1), invoice jobs; key items read only (by id on GSI2, then the item): it writes none
  console: [
    { actions: RW, indexes: true, leadingKeys: [WORKSPACE, RATE, keys.memberByPersonPartition('*')] },
    { actions: ['dynamodb:GetItem', 'dynamodb:Query'], indexes: true, leadingKeys: [keys.apiKey('*').PK, keys.apiKeyById('*').GSI2PK] },
  ],
  // the console's key writes (create, edit, roll, revoke): the key records (APIKEY#, APIKEYID# on GSI2), with the
  // membership, audit entries and key counter (WS#) and the per-person rate counter
  'console-keys': [{ actions: RW, indexes: true, leadingKeys: [WORKSPACE, RATE, keys.apiKey('*').PK, keys.apiKeyById('*').GSI2PK] }],
  // the invoice PDF: the membership, the invoice and its client (GetItem in WS#); writes only the per-person rate counter
  'console-invoice-pdf': [
    { actions: ['dynamodb:GetItem'], indexes: false, leadingKeys: [WORKSPACE] },
    { actions: ['dynamodb:UpdateItem'], indexes: false, leadingKeys: [RATE] },
  ],
  // verifies a signature against the issuer's JWKS: no table access at all
  'console-authorizer': [],
  // the invoice sweep (issue 32): releases entries and ends voids and deletes (WS#), reads and closes the jobs; no rate counters
  'invoice-sweep': [
    { actions: RW, indexes: true, leadingKeys: [WORKSPACE] },
    { actions: ['dynamodb:GetItem', 'dynamodb:Query'], indexes: true, leadingKeys: [keys.invoiceJobsPartition] },
  ],
};

function tableGrants(s: Synth, f: ServiceFunction) {
  const tableArn = { 'Fn::GetAtt': [s.logicalId(s.stack.table), 'Arn'] };
  return statementsOfRole(s, s.logicalId(f.role))
    .filter((st) => asArray(st.Action as string | string[]).some((a) => a.startsWith('dynamodb:') && !STREAM_ACTIONS.has(a)))
    .map((st) => {
      const resources = asArray(st.Resource);
      expect(st.Effect).toBe('Allow');
      expect(resources[0]).toEqual(tableArn);
      const indexes = resources.length === 2;
      if (indexes) expect(resources[1]).toEqual({ 'Fn::Join': ['', [tableArn, '/index/*']] });
      expect(resources.length).toBeLessThanOrEqual(2);
      expect(Object.keys(st.Condition ?? {})).toEqual(['ForAllValues:StringLike']);
      return {
        actions: [...asArray(st.Action as string | string[])].sort(),
        indexes,
        leadingKeys: asArray(st.Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys'] as string | string[]),
      };
    });
}

describe.each(['dev', 'prod'] as const)('least privilege on the table (%s)', (stage) => {
  const s = synth(stage);
  const all = allFunctions(s);

  test.each(Object.keys(EXPECTED))('%s: its actions, index access and leading-key conditions are exactly the reviewed ones', (name) => {
    const f = all.find(([n]) => n === name)?.[1];
    expect(f).toBeDefined();
    expect(tableGrants(s, f!)).toEqual(EXPECTED[name]);
  });

  test('every function of the stack is on the reviewed list', () => {
    const roleOfFn = new Map(resourcesOfType(s, 'AWS::Lambda::Function').map(([id, r]) => [id, r.Properties!.Role['Fn::GetAtt'][0] as string]));
    const listed = all.map(([, f]) => s.logicalId(f.fn));
    expect([...roleOfFn.keys()].sort()).toEqual(listed.sort());
    expect(all.map(([n]) => n).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  test('no statement of any role in the stack grants Scan, a batch write or a wildcard DynamoDB action, BatchGetItem but with the read-write grant, or an item action without a leading-key condition', () => {
    for (const [, policy] of resourcesOfType(s, 'AWS::IAM::Policy')) {
      for (const st of policy.Properties!.PolicyDocument.Statement as Array<Record<string, any>>) {
        const actions = asArray(st.Action as string | string[]).filter((a) => a.startsWith('dynamodb:'));
        for (const a of actions) expect(['dynamodb:Scan', 'dynamodb:BatchWriteItem', 'dynamodb:*', 'dynamodb:PartiQLSelect']).not.toContain(a);
        if (actions.includes('dynamodb:BatchGetItem')) expect([...actions].sort()).toEqual(RW);
        if (actions.some((a) => !STREAM_ACTIONS.has(a))) expect(st.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys']).toBeDefined();
      }
    }
  });

  test('only the authorizer, me and console-keys (which makes, rolls, edits and revokes keys) may write APIKEY# records, the console and the webhook workers read them (a key by id); no workspace pattern can reach them', () => {
    const holds = (g: { leadingKeys: string[] }) => g.leadingKeys.includes(keys.apiKey('*').PK);
    const apiKeyReaders = all.filter(([, f]) => tableGrants(s, f).some(holds)).map(([n]) => n);
    expect(apiKeyReaders.sort()).toEqual(['authorizer', 'console', 'console-keys', 'me', 'webhook-dispatcher', 'webhook-sender']);
    const readOnly = all.filter(([, f]) => tableGrants(s, f).some((g) => holds(g) && g.actions.every((a) => a === 'dynamodb:GetItem' || a === 'dynamodb:Query'))).map(([n]) => n);
    expect(readOnly.sort()).toEqual(['console', 'webhook-dispatcher', 'webhook-sender']);
    // Of the console's roles, only console-keys may write a key item (APIKEY#) or its by-id entry (APIKEYID#).
    const writes = new Set(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']);
    const keyWriters = all
      .filter(([n]) => n.startsWith('console'))
      .filter(([, f]) =>
        tableGrants(s, f).some((g) => g.actions.some((a) => writes.has(a)) && g.leadingKeys.some((k) => k === keys.apiKey('*').PK || k === keys.apiKeyById('*').GSI2PK)),
      )
      .map(([n]) => n);
    expect(keyWriters).toEqual(['console-keys']);
    // The patterns the other functions hold cannot match an API key item's partition key.
    const like = (pattern: string) =>
      new RegExp(
        `^${pattern
          .split('*')
          .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      );
    for (const pattern of [WORKSPACE, RATE, keys.changeLogPartition('*'), keys.webhookDirectoryPartition]) {
      expect(like(pattern).test(keys.apiKey('0f'.repeat(32)).PK)).toBe(false);
    }
  });
});
