import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUDIT_RETENTION_DAYS } from '../../shared/data/audit';
import { keys } from '../../shared/data/keys';
import { stageConfig } from '../../lib/config';
import { type CfnResourceJson, resourcesOfType, synth } from './support';

/**
 * Runbooks that run (issue 33 item 7), against the synthesized templates: the secret-rotation loop of
 * docs/operations.md lists the stack's resources with `list-stack-resources` (the CLI pages through all of
 * them; `describe-stack-resources` stops at 100) and its query, applied to the template's resources as
 * CloudFormation lists them, finds exactly one function for each name the loop names; the partial restore's
 * Scan filter selects every partition family of a workspace and its API keys, and nothing of another
 * workspace; prod keeps the table's backups at least as long as the audit log promises.
 */
const operations = readFileSync(join(__dirname, '../../docs/operations.md'), 'utf8');

describe.each(['dev', 'prod'] as const)('runbooks (%s)', (stage) => {
  const s = synth(stage);

  test('the secret-rotation loop: list-stack-resources, and its query finds exactly one function per name it loops over', () => {
    expect(operations).not.toMatch(/aws cloudformation describe-stack-resources/);
    const loop =
      /for fn in ([a-z -]+); do\n\s+name=\$\(aws cloudformation list-stack-resources --stack-name TimeTracking-prod \\\n\s+--query "StackResourceSummaries\[\?ResourceType=='AWS::Lambda::Function' && contains\(LogicalResourceId, 'Fn\$\{fn\/\/-\/\}Function'\)\]\.PhysicalResourceId" --output text\)/.exec(
        operations,
      );
    expect(loop).not.toBeNull();
    const names = loop![1]!.trim().split(/\s+/);
    expect(names.length).toBeGreaterThan(0);
    // What list-stack-resources returns (StackResourceSummaries), then the documented filter: type, and the
    // logical id containing Fn<name without dashes>Function (bash's ${fn//-/}).
    const summaries = Object.entries(s.json.Resources).map(([LogicalResourceId, r]) => ({
      LogicalResourceId,
      ResourceType: r.Type,
      PhysicalResourceId: `phys-${LogicalResourceId}`,
    }));
    expect(summaries.length).toBeGreaterThan(100); // more than describe-stack-resources would return
    for (const fn of names) {
      const needle = `Fn${fn.replace(/-/g, '')}Function`;
      const found = summaries.filter((x) => x.ResourceType === 'AWS::Lambda::Function' && x.LogicalResourceId.includes(needle));
      expect([fn, found.length]).toEqual([fn, 1]);
    }
  });

  test("the partial restore's Scan filter selects every partition family of the workspace and its API keys, nothing of another workspace", () => {
    const filter = /--filter-expression "PK = :ws OR begins_with\(PK, :wsp\) OR \(begins_with\(PK, :key\) AND workspaceId = :id\)"/.exec(operations);
    expect(filter).not.toBeNull();
    expect(operations).toContain('\\":ws\\":{\\"S\\":\\"WS#$WS\\"},\\":wsp\\":{\\"S\\":\\"WS#$WS#\\"},\\":key\\":{\\"S\\":\\"APIKEY#\\"},\\":id\\":{\\"S\\":\\"$WS\\"}');
    // The filter, as DynamoDB evaluates it, for WS=acme.
    const selected = (item: { PK: string; workspaceId?: string }) =>
      item.PK === 'WS#acme' || item.PK.startsWith('WS#acme#') || (item.PK.startsWith('APIKEY#') && item.workspaceId === 'acme');
    const ofAcme = [
      keys.workspacePartition('acme'),
      keys.changeLogPartition('acme'),
      keys.changeSequence('acme').PK,
      keys.memberPartition('acme'),
      keys.auditPartition('acme'),
      keys.apiKeyCounter('acme').PK,
      keys.rollupPartition('acme', 'project'),
      keys.webhookLogPartition('acme', 'wh_1'),
      keys.dispatchPosition('acme').PK,
    ];
    for (const PK of ofAcme) expect([PK, selected({ PK })]).toEqual([PK, true]);
    expect(selected({ ...keys.apiKey('ab'.repeat(32)), workspaceId: 'acme' })).toBe(true);
    for (const other of [keys.workspacePartition('acme2'), keys.changeLogPartition('acme2'), keys.apiKey('cd'.repeat(32)).PK, keys.rateCounter('k', 'h').PK]) {
      expect([other, selected({ PK: other, workspaceId: 'acme2' })]).toEqual([other, false]);
    }
  });

  test('prod: an AWS Backup plan of the table keeps daily backups at least as long as the audit log promises (400 days), in a retained vault; dev: none', () => {
    const plans = resourcesOfType(s, 'AWS::Backup::BackupPlan');
    if (stage === 'dev') {
      expect(plans).toHaveLength(0);
      return;
    }
    expect(plans).toHaveLength(1);
    const [rule] = plans[0]![1].Properties!.BackupPlan.BackupPlanRule;
    expect(rule.Lifecycle.DeleteAfterDays).toBe(stageConfig('prod').backupRetentionDays);
    expect(rule.Lifecycle.DeleteAfterDays).toBeGreaterThanOrEqual(AUDIT_RETENTION_DAYS);
    expect(rule.ScheduleExpression).toBe('cron(0 3 * * ? *)');
    const [[vaultId, vault]] = resourcesOfType(s, 'AWS::Backup::BackupVault') as [[string, CfnResourceJson]];
    expect(vault.DeletionPolicy).toBe('Retain');
    expect(rule.TargetBackupVault).toEqual({ 'Fn::GetAtt': [vaultId, 'BackupVaultName'] });
    const [[, selection]] = resourcesOfType(s, 'AWS::Backup::BackupSelection') as [[string, CfnResourceJson]];
    expect(selection.Properties!.BackupSelection.Resources).toEqual([{ 'Fn::GetAtt': [s.logicalId(s.stack.table), 'Arn'] }]);
  });
});
