import { Match } from 'aws-cdk-lib/assertions';
import { keys } from '../../shared/data/keys';
import { FUNCTION_NAMES, type FunctionName, RESOURCES } from '../../shared/api/routes';
import { CURSOR_FUNCTIONS } from '../../lib/time-tracking-stack';
import { API_FUNCTIONS_BEYOND_ENTITIES, type Synth, asArray, resourcesOfType, statementsOfRole, synth } from './support';

const dynamoActions = (s: Synth, roleId: string) =>
  statementsOfRole(s, roleId)
    .flatMap((st) => asArray(st.Action as string | string[]))
    .filter((a) => a.startsWith('dynamodb:'));

describe.each(['dev', 'prod'] as const)('functions (%s)', (stage) => {
  const s = synth(stage);
  const fnJson = (name: FunctionName | 'authorizer') => {
    const f = name === 'authorizer' ? s.stack.authorizerFunction : s.stack.functions[name];
    return { f, json: s.json.Resources[s.logicalId(f.fn)]!, roleId: s.logicalId(f.role) };
  };

  test('one function per resource, one for openapi (and the reference page), one for /v1/me, one for the change feed, one for reports, one authorizer, the webhook dispatcher and sender, the console, its invoice PDF, its key writes and its authorizer, the invoice sweep: resources + 12, all nodejs22.x on arm64', () => {
    s.template.resourceCountIs('AWS::Lambda::Function', RESOURCES.length + 12);
    // the registry's resources, each with its function, and the API's four functions that serve no entity
    expect([...FUNCTION_NAMES].sort()).toEqual([...RESOURCES, ...API_FUNCTIONS_BEYOND_ENTITIES].sort());
    s.template.allResourcesProperties('AWS::Lambda::Function', { Runtime: 'nodejs22.x', Architectures: ['arm64'], Handler: 'index.handler' });
    for (const name of [...FUNCTION_NAMES, 'authorizer'] as const) expect(fnJson(name).json.Type).toBe('AWS::Lambda::Function');
  });

  test('every function gets TABLE_NAME, STAGE, Powertools service name and log level, and its own log group', () => {
    for (const name of [...FUNCTION_NAMES, 'authorizer'] as const) {
      const { f, json } = fnJson(name);
      const env = json.Properties!.Environment.Variables;
      expect(env.TABLE_NAME).toEqual({ Ref: s.logicalId(s.stack.table) });
      expect(env.STAGE).toBe(stage);
      expect(env.POWERTOOLS_SERVICE_NAME).toBe(`time-tracking-${stage}`);
      expect(env.POWERTOOLS_LOG_LEVEL).toBe(stage === 'prod' ? 'INFO' : 'DEBUG');
      expect(env.POWERTOOLS_METRICS_NAMESPACE).toBe('TimeTracking');
      expect(json.Properties!.LoggingConfig.LogGroup).toEqual({ Ref: s.logicalId(f.logGroup) });
    }
    s.template.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: `/time-tracking/${stage}/lambda/clients`,
      RetentionInDays: stage === 'prod' ? 90 : 7,
    });
  });

  test('X-Ray tracing follows the stage (prod on, dev off)', () => {
    for (const name of [...FUNCTION_NAMES, 'authorizer'] as const) {
      const tracing = fnJson(name).json.Properties!.TracingConfig;
      if (stage === 'prod') expect(tracing).toEqual({ Mode: 'Active' });
      else expect(tracing).toBeUndefined();
    }
    s.template.hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: stage === 'prod' });
  });

  test('function roles have no managed policies; each may only write to its own log group', () => {
    for (const name of [...FUNCTION_NAMES, 'authorizer'] as const) {
      const { f, roleId } = fnJson(name);
      expect(s.json.Resources[roleId]!.Properties!.ManagedPolicyArns).toBeUndefined();
      const logStatements = statementsOfRole(s, roleId).filter((st) => asArray(st.Action).some((a: string) => a.startsWith('logs:')));
      expect(logStatements).toHaveLength(1);
      expect(logStatements[0]!.Resource).toEqual({ 'Fn::GetAtt': [s.logicalId(f.logGroup), 'Arn'] });
    }
  });

  test('resource functions: read/write data of the table and its indexes, never Scan or batch calls (test/cdk/least-privilege.test.ts lists every role)', () => {
    for (const name of RESOURCES) {
      const { roleId } = fnJson(name);
      const actions = dynamoActions(s, roleId);
      expect([...actions].sort()).toEqual([
        'dynamodb:BatchGetItem',
        'dynamodb:ConditionCheckItem',
        'dynamodb:DeleteItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
      ]);
      expect(actions).not.toContain('dynamodb:Scan');
      expect(actions.some((a) => a.includes('*'))).toBe(false);
      const tableStatement = statementsOfRole(s, roleId).find((st) => asArray(st.Action).includes('dynamodb:Query'))!;
      const tableId = s.logicalId(s.stack.table);
      expect(tableStatement.Resource).toEqual([{ 'Fn::GetAtt': [tableId, 'Arn'] }, { 'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId, 'Arn'] }, '/index/*']] }]);
    }
  });

  test('openapi function: no table access at all; CORS_ORIGINS in every function (default *)', () => {
    expect(dynamoActions(s, fnJson('openapi').roleId)).toEqual([]);
    for (const name of FUNCTION_NAMES) expect(fnJson(name).json.Properties!.Environment.Variables.CORS_ORIGINS).toBe('*');
  });

  test('me function: GetItem and UpdateItem on API key and rate-counter items of the base table only', () => {
    const statements = statementsOfRole(s, fnJson('me').roleId).filter((st) => asArray(st.Action).some((a: string) => a.startsWith('dynamodb:')));
    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        Resource: { 'Fn::GetAtt': [s.logicalId(s.stack.table), 'Arn'] },
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['APIKEY#*', 'RATE#*'] } },
      },
    ]);
  });

  test('change feed function: Query and conditional Put on feed items, UpdateItem on rate counters; base table only', () => {
    const { roleId } = fnJson('changes');
    const statements = statementsOfRole(s, roleId).filter((st) => asArray(st.Action).some((a: string) => a.startsWith('dynamodb:')));
    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: ['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
        Resource: { 'Fn::GetAtt': [s.logicalId(s.stack.table), 'Arn'] },
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['WS#*#CHANGES', 'RATE#*'] } },
      },
    ]);
  });

  test('reports function: GetItem and Query on the table and its indexes, no other write than UpdateItem on rate counters', () => {
    const { roleId } = fnJson('reports');
    const statements = statementsOfRole(s, roleId).filter((st) => asArray(st.Action).some((a: string) => a.startsWith('dynamodb:')));
    const tableId = s.logicalId(s.stack.table);
    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: ['dynamodb:GetItem', 'dynamodb:Query'],
        Resource: [{ 'Fn::GetAtt': [tableId, 'Arn'] }, { 'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId, 'Arn'] }, '/index/*']] }],
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['WS#*'] } },
      },
      {
        Effect: 'Allow',
        Action: 'dynamodb:UpdateItem',
        Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } },
      },
    ]);
  });

  test('authorizer: GetItem and UpdateItem on API key items of the base table only', () => {
    const { roleId } = fnJson('authorizer');
    const statements = statementsOfRole(s, roleId).filter((st) => asArray(st.Action).some((a: string) => a.startsWith('dynamodb:')));
    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        Resource: { 'Fn::GetAtt': [s.logicalId(s.stack.table), 'Arn'] },
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [keys.apiKey('*').PK] } },
      },
    ]);
    expect(keys.apiKey('*').PK).toBe('APIKEY#*');
  });

  test('only the cursor-signing functions may read the cursor secret, and get its ARN (not its value)', () => {
    const secretId = s.logicalId(s.stack.cursorSecret);
    for (const name of [...FUNCTION_NAMES, 'authorizer'] as const) {
      const { json, roleId } = fnJson(name);
      const reads = statementsOfRole(s, roleId).filter((st) => asArray(st.Action).includes('secretsmanager:GetSecretValue') && st.Resource?.Ref === secretId);
      const env = json.Properties!.Environment.Variables;
      if ((CURSOR_FUNCTIONS as readonly string[]).includes(name)) {
        expect(reads).toHaveLength(1);
        expect(reads[0]!.Resource).toEqual({ Ref: secretId });
        expect(env.CURSOR_SECRET_ARN).toEqual({ Ref: secretId });
      } else {
        expect(reads).toHaveLength(0);
        expect(env.CURSOR_SECRET_ARN).toBeUndefined();
      }
      expect(env.CURSOR_SECRET).toBeUndefined();
    }
    expect([...CURSOR_FUNCTIONS].sort()).toEqual(['changes', 'invoices', 'time-entries', 'webhooks']);
  });

  test('bounded timeouts (authorizer, openapi and me 5 s, resources 10 s)', () => {
    expect(fnJson('authorizer').json.Properties!.Timeout).toBe(5);
    expect(fnJson('openapi').json.Properties!.Timeout).toBe(5);
    expect(fnJson('me').json.Properties!.Timeout).toBe(5);
    for (const name of RESOURCES) expect(fnJson(name).json.Properties!.Timeout).toBe(10);
    s.template.allResourcesProperties('AWS::Lambda::Function', { MemorySize: Match.anyValue() });
  });

  test('no role in the stack has a wildcard action', () => {
    for (const [, p] of resourcesOfType(s, 'AWS::IAM::Policy')) {
      for (const st of p.Properties!.PolicyDocument.Statement) {
        for (const a of asArray(st.Action as string | string[])) expect(a).not.toMatch(/\*/);
      }
    }
  });
});
