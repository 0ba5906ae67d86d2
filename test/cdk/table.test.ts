import { TABLE, createTableInput } from '../../shared/data/table';
import { resourcesOfType, synth } from './support';

const sortBy = <T>(xs: T[], key: (x: T) => string) => [...xs].sort((a, b) => key(a).localeCompare(key(b)));

describe.each(['dev', 'prod'] as const)('table (%s)', (stage) => {
  const s = synth(stage);
  const [[, table]] = resourcesOfType(s, 'AWS::DynamoDB::Table') as [[string, any]];
  const p = table.Properties;

  test('one table, keys and GSIs exactly as shared/data/table.ts (the same definition DynamoDB Local uses)', () => {
    s.template.resourceCountIs('AWS::DynamoDB::Table', 1);
    const local = createTableInput('any');
    expect(p.BillingMode).toBe(local.BillingMode);
    expect(p.KeySchema).toEqual(local.KeySchema);
    expect(sortBy(p.AttributeDefinitions, (a: any) => a.AttributeName)).toEqual(sortBy(local.AttributeDefinitions, (a) => a.AttributeName));
    expect(p.GlobalSecondaryIndexes).toEqual(local.GlobalSecondaryIndexes);
    expect(p.GlobalSecondaryIndexes.map((i: any) => i.IndexName)).toEqual(TABLE.indexes.map((i) => i.name));
  });

  test('TTL on the shared ttl attribute', () => {
    expect(p.TimeToLiveSpecification).toEqual({ AttributeName: TABLE.ttlAttribute, Enabled: true });
    expect(TABLE.ttlAttribute).toBe('ttl');
  });

  test('point-in-time recovery is on', () => {
    expect(p.PointInTimeRecoverySpecification.PointInTimeRecoveryEnabled).toBe(true);
  });

  test('table name is generated (one stack per stage can share an account)', () => {
    expect(p.TableName).toBeUndefined();
  });
});

test('prod: deletion protection, 35 days of PITR, table and secret retained on stack deletion', () => {
  const s = synth('prod');
  s.template.hasResource('AWS::DynamoDB::Table', {
    Properties: {
      DeletionProtectionEnabled: true,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 35 },
    },
    DeletionPolicy: 'Retain',
    UpdateReplacePolicy: 'Retain',
  });
  s.template.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Retain' });
});

test('dev: no deletion protection, destroyed with the stack', () => {
  const s = synth('dev');
  s.template.hasResource('AWS::DynamoDB::Table', {
    Properties: { DeletionProtectionEnabled: false },
    DeletionPolicy: 'Delete',
  });
});

test.each(['dev', 'prod'] as const)('%s: Contributor Insights on the table (most accessed and throttled keys)', (stage) => {
  synth(stage).template.hasResourceProperties('AWS::DynamoDB::Table', { ContributorInsightsSpecification: { Enabled: true } });
});
