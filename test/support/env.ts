import { randomBytes } from 'node:crypto';

// Each test file gets its own table on the shared DynamoDB Local (created by useTestTable()).
process.env.TABLE_NAME = `test_${randomBytes(6).toString('hex')}`;
process.env.CURSOR_SECRET ??= 'test-cursor-secret';
process.env.WEBHOOK_SECRET_KEYS ??= JSON.stringify({ current: 't1', t1: 'test-webhook-key-one-of-at-least-32-characters' });
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_DEV ??= 'false';
process.env.AWS_REGION ??= 'local';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
// Webhooks: tests run as a local run does (http and loopback receivers allowed); AWS rules are tested by setting it false.
process.env.WEBHOOK_ALLOW_LOOPBACK ??= 'true';
