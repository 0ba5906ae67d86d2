import { RemovalPolicy } from 'aws-cdk-lib';
import { stageConfig, stageConfigFromContext } from '../../lib/config';

describe('stage configuration', () => {
  test('defaults to dev', () => {
    expect(stageConfigFromContext({}).stage).toBe('dev');
  });

  test('prod keeps data: retain, deletion protection, PITR, tracing, longer logs', () => {
    const c = stageConfigFromContext({ stage: 'prod' });
    expect(c).toMatchObject({ stage: 'prod', removalPolicy: RemovalPolicy.RETAIN, deletionProtection: true, pointInTimeRecovery: true, tracing: true });
    expect(c.throttling.rateLimit).toBeGreaterThan(stageConfig('dev').throttling.rateLimit);
  });

  test('context overrides: alarm e-mail, tracing, log level', () => {
    const c = stageConfigFromContext({ stage: 'dev', alarmEmail: 'ops@example.com', tracing: 'true', logLevel: 'WARN' });
    expect(c.alarms.email).toBe('ops@example.com');
    expect(c.tracing).toBe(true);
    expect(c.logLevel).toBe('WARN');
  });

  test('bad context values are rejected with a clear message', () => {
    expect(() => stageConfigFromContext({ stage: 'staging' })).toThrow(/Unknown stage "staging"/);
    expect(() => stageConfigFromContext({ alarmEmail: 'not-an-email' })).toThrow(/alarmEmail/);
    expect(() => stageConfigFromContext({ tracing: 'yes' })).toThrow(/true or false/);
    expect(() => stageConfigFromContext({ logLevel: 'LOUD' })).toThrow(/logLevel/);
  });
});
