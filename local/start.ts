import { join, resolve } from 'node:path';
import { DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { SCOPES, type Scope } from '../shared/api/routes';
import { dynamoConfig } from '../shared/data/db';
import { ensureTable } from '../shared/data/setup';
import { createApiKey } from '../shared/data/apikey-store';
import { seedWorkspace } from '../shared/seed/seed';
import { startDynamoDbLocal } from './dynamodb';
import { createLocalServer } from './server';
import { startWebhookDelivery } from './webhooks';
import { DEMO_WORKSPACE, DEV_CURSOR_SECRET, LOCAL_TABLE_NAME } from './config';

/**
 * npm start: DynamoDB Local (data under DATA_DIR), the table, a demo workspace and key on first run,
 * and the API on PORT through the local gateway. Ctrl-C stops both.
 */
async function main() {
  const port = Number(process.env.PORT ?? 3000);
  const dynamoPort = Number(process.env.DYNAMODB_PORT ?? 8000);
  const dataDir = resolve(process.env.DATA_DIR ?? './.data');
  const authTtl = Number(process.env.AUTH_CACHE_TTL_SECONDS ?? 300);
  process.env.TABLE_NAME ||= LOCAL_TABLE_NAME;
  process.env.CURSOR_SECRET ||= DEV_CURSOR_SECRET;
  process.env.WEBHOOK_ALLOW_LOOPBACK ??= 'true'; // http and loopback receivers, locally only (docs/webhooks.md)
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true'; // EMF metrics are for CloudWatch; set to false to see them locally

  console.log(`Starting DynamoDB Local on port ${dynamoPort} (data in ${dataDir}) ...`);
  const dynamo = await startDynamoDbLocal({ port: dynamoPort, dataDir: join(dataDir, 'dynamodb') });
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  let stopping = false;
  let delivery: ReturnType<typeof startWebhookDelivery> | undefined;
  const stop = async (code = 0) => {
    stopping = true;
    server.close();
    await delivery?.stop();
    await dynamo.stop();
    process.exit(code);
  };

  const client = new DynamoDBClient(dynamoConfig());
  const table = process.env.TABLE_NAME;
  const created = await ensureTable(client, table);
  console.log(`Table ${table}: ${created}`);

  const marker = { PK: { S: 'LOCAL#SETUP' }, SK: { S: 'DEMO' } };
  const done = await client.send(new GetItemCommand({ TableName: table, Key: marker, ConsistentRead: true }));
  if (!done.Item) {
    const seeded = await seedWorkspace(DEMO_WORKSPACE);
    const { key, record } = await createApiKey({ workspaceId: DEMO_WORKSPACE, name: 'Demo key (all scopes)', scopes: [...SCOPES] as Scope[] });
    await client.send(new PutItemCommand({ TableName: table, Item: { ...marker, createdAt: { S: new Date().toISOString() }, keyId: { S: record.id } } }));
    console.log(`\nSeeded workspace "${DEMO_WORKSPACE}": ${JSON.stringify(seeded)}`);
    console.log('\n  Demo API key (shown once; create more with `npm run --silent admin -- keys create`):');
    console.log(`\n    ${key}\n`);
  } else {
    console.log(
      `Demo workspace "${DEMO_WORKSPACE}" exists (its key was printed on first run; \`npm run --silent admin -- keys create --workspace ${DEMO_WORKSPACE} --name me --scopes all\` makes another).`,
    );
  }

  const server = createLocalServer({ authCacheTtlSeconds: authTtl });
  server.on('error', (err) => {
    console.error(`Cannot listen on port ${port}: ${err.message}`);
    void stop(1);
  });
  server.listen(port, () => {
    delivery = startWebhookDelivery(); // the webhook dispatcher and sender, as in AWS (local/webhooks.ts)
    console.log(`API listening on http://127.0.0.1:${port}  (try: curl http://127.0.0.1:${port}/v1/openapi.json)`);
    console.log(`DynamoDB Local: ${dynamo.endpoint}   Authorizer cache: ${authTtl}s   Ctrl-C stops both.`);
  });
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  dynamo.process.on('exit', (code) => {
    if (stopping) return;
    console.error(`DynamoDB Local exited (code ${code}); stopping.`);
    server.close();
    process.exit(1);
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
