import { join, resolve } from 'node:path';
import type { Server } from 'node:http';
import { DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { SCOPES, type Scope } from '../shared/api/routes';
import { db, dynamoConfig } from '../shared/data/db';
import { ensureTable } from '../shared/data/setup';
import { createApiKey } from '../shared/data/apikey-store';
import { seedWorkspace } from '../shared/seed/seed';
import { invoiceOldestWeek } from '../shared/seed/seed-demo';
import { createLocalServer, DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, guardProcess } from './server';
import { superviseDynamoDbLocal, takeOver, type SupervisedDynamo } from './supervisor';
import { installDurableCommits } from './durable-commits';
import { portFree, portProblems } from './ports';
import { startWebhookDelivery } from './webhooks';
import { startInvoiceSweep } from './invoice-sweep';
import { CONSOLE_CLIENT_ID, DEMO_OWNER_EMAIL, DEMO_WORKSPACE, DEV_CURSOR_SECRET, LOCAL_TABLE_NAME } from './config';
import { ensureAccount } from '../shared/data/accounts';
import { addMember, getMembership } from '../shared/data/members';
import { buildConsoleAssets } from './console-assets';
import { startLocalOidc } from './oidc';
import { LOCAL_WEBHOOK_KEY_RING } from '../shared/data/secrets';

/**
 * npm start: DynamoDB Local (data under DATA_DIR, supervised: restarted when it dies, 503 meanwhile), the
 * table, a demo workspace and key on first run, and the API on PORT through the local gateway. Ctrl-C
 * stops both. The pids are recorded in DATA_DIR/npm-start.json: a DynamoDB Local left by a server that
 * was killed is stopped by the next npm start.
 */
const loopback = (host: string) => host === 'localhost' || host === '::1' || host.startsWith('127.');
const seconds = (name: string, fallbackMs: number) => (process.env[name] ? Number(process.env[name]) * 1000 : fallbackMs);

async function main() {
  const port = Number(process.env.PORT ?? 3000);
  // Loopback unless HOST opens it deliberately (HOST=0.0.0.0: every interface).
  const host = process.env.HOST || '127.0.0.1';
  const dynamoPort = Number(process.env.DYNAMODB_PORT ?? 8000);
  const oidcPort = Number(process.env.OIDC_PORT ?? 3001);
  const dataDir = resolve(process.env.DATA_DIR ?? './.data');
  const authTtl = Number(process.env.AUTH_CACHE_TTL_SECONDS ?? 300);
  const headersTimeoutMs = seconds('HEADERS_TIMEOUT_SECONDS', DEFAULT_HEADERS_TIMEOUT_MS);
  const requestTimeoutMs = seconds('REQUEST_TIMEOUT_SECONDS', DEFAULT_REQUEST_TIMEOUT_MS);
  process.env.TABLE_NAME ||= LOCAL_TABLE_NAME;
  process.env.CURSOR_SECRET ||= DEV_CURSOR_SECRET;
  process.env.WEBHOOK_SECRET_KEYS ||= LOCAL_WEBHOOK_KEY_RING;
  process.env.WEBHOOK_ALLOW_LOOPBACK ??= 'true'; // http and loopback receivers, locally only (docs/webhooks.md)
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true'; // EMF metrics are for CloudWatch; set to false to see them locally

  // The URL the printed commands use: the host itself, or loopback when HOST is every interface.
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const baseUrl = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;

  const stateFile = join(dataDir, 'npm-start.json');
  // A DynamoDB Local left by a predecessor that was killed holds DYNAMODB_PORT: stop it first, then check.
  const released = await takeOver(stateFile);
  // The process is gone once its command line is; its listening socket may take a moment longer to close.
  if (released !== undefined) for (const until = Date.now() + 5000; Date.now() < until && !(await portFree(released));) await new Promise((r) => setTimeout(r, 100));
  const problems = await portProblems([
    { name: 'PORT', port },
    { name: 'DYNAMODB_PORT', port: dynamoPort },
    // OIDC_PORT=0: any free port (the tests' choice)
    ...(oidcPort === 0 ? [] : [{ name: 'OIDC_PORT', port: oidcPort }]),
  ]);
  if (problems.length > 0) {
    console.error(`npm start cannot start; nothing was started:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }

  // what stop() stops, as far as it got
  const running: {
    server?: Server;
    oidc?: Server;
    oidcAuth?: Server;
    dynamo?: SupervisedDynamo;
    delivery?: ReturnType<typeof startWebhookDelivery>;
    sweep?: ReturnType<typeof startInvoiceSweep>;
  } = {};
  let stopping = false;
  const stop = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    const stopped: string[] = [];
    if (running.server?.listening) stopped.push(`the API (${baseUrl})`);
    running.server?.close();
    running.server?.closeAllConnections();
    if (running.oidc?.listening) stopped.push(`the OpenID Provider (${process.env.CONSOLE_ISSUER ?? 'issuer unknown'})`);
    running.oidc?.close();
    running.oidc?.closeAllConnections();
    running.oidcAuth?.close();
    running.oidcAuth?.closeAllConnections();
    if (running.delivery) stopped.push('webhook delivery');
    await running.delivery?.stop();
    if (running.sweep) stopped.push('the invoice sweep');
    await running.sweep?.stop();
    const dynamoPid = running.dynamo?.pid();
    if (running.dynamo) stopped.push(`DynamoDB Local (${dynamoPid ? `pid ${dynamoPid}, ` : ''}port ${dynamoPort}; its data stays in ${dataDir})`);
    await running.dynamo?.stop();
    if (stopped.length > 0) console.log(`Stopped ${stopped.join(', ')}.`);
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGHUP', () => void stop(0));

  console.log(`Starting DynamoDB Local on port ${dynamoPort} (data in ${dataDir}) ...`);
  console.log(
    `  Note: DynamoDB Local has no authentication and listens on every network interface (its jar has no bind-address option): while this runs, anyone who can reach port ${dynamoPort} of this machine can read and change the table. On a shared network, block the port for other machines (README, "Running locally").`,
  );
  const supervised = await superviseDynamoDbLocal({ port: dynamoPort, dbPath: join(dataDir, 'dynamodb'), stateFile, onGiveUp: () => void stop(1) });
  running.dynamo = supervised;
  if (stopping) return;
  process.env.DYNAMODB_ENDPOINT = supervised.endpoint;
  // A transaction DynamoDB Local acknowledged must survive its being killed (local/durable-commits.ts).
  installDurableCommits(db(), { endpoint: supervised.endpoint, tableName: process.env.TABLE_NAME, instance: supervised.instance });

  try {
    const client = new DynamoDBClient(dynamoConfig());
    const table = process.env.TABLE_NAME;
    const created = await ensureTable(client, table);
    console.log(`Table ${table}: ${created}`);

    // Commands printed below work as printed: the admin CLI needs this DynamoDB Local (and a non-default table name).
    const adminEnv = `DYNAMODB_ENDPOINT=${supervised.endpoint}${table === LOCAL_TABLE_NAME ? '' : ` TABLE_NAME=${table}`}`;
    const newKeyCommand = `${adminEnv} npm run --silent admin -- keys create --workspace ${DEMO_WORKSPACE} --name me --scopes all`;
    const marker = { PK: { S: 'LOCAL#SETUP' }, SK: { S: 'DEMO' } };
    const done = await client.send(new GetItemCommand({ TableName: table, Key: marker, ConsistentRead: true }));
    if (!done.Item) {
      const seeded = await seedWorkspace(DEMO_WORKSPACE, { demo: { invoice: invoiceOldestWeek } });
      const { key, record } = await createApiKey({ workspaceId: DEMO_WORKSPACE, name: 'Demo key (all scopes)', scopes: [...SCOPES] as Scope[] });
      await client.send(new PutItemCommand({ TableName: table, Item: { ...marker, createdAt: { S: new Date().toISOString() }, keyId: { S: record.id } } }));
      console.log(`\nSeeded workspace "${DEMO_WORKSPACE}": ${JSON.stringify(seeded)}`);
      console.log(`\n  Demo API key (shown once; all scopes, ${record.perMinute} requests a minute and ${record.perHour} an hour):`);
      console.log(`\n    ${key}\n`);
      console.log(`  Try it:\n    curl -s ${baseUrl}/v1/me -H 'X-API-Key: ${key}'`);
      console.log(`  Another key:\n    ${newKeyCommand}\n`);
    } else {
      console.log(`Demo workspace "${DEMO_WORKSPACE}" exists (its key was printed on first run). Another key:\n    ${newKeyCommand}`);
    }
    // The console's demo owner (first run; or the first run after the console arrived): its password is shown once.
    const ownerPassword = await ensureAccount(DEMO_OWNER_EMAIL);
    if (!(await getMembership(DEMO_WORKSPACE, DEMO_OWNER_EMAIL))) await addMember(DEMO_WORKSPACE, DEMO_OWNER_EMAIL, 'owner', 'npm-start');
    if (ownerPassword) {
      console.log(`  Console sign-in (owner of "${DEMO_WORKSPACE}"; shown once): http://127.0.0.1:${port}/console`);
      console.log(`    Email:    ${DEMO_OWNER_EMAIL}\n    Password: ${ownerPassword}\n`);
    }
    client.destroy();
  } catch (err) {
    console.error('Setting up the table or the demo workspace failed:', err);
    await stop(1);
    return;
  }

  // The console: its page's assets (esbuild), and the OpenID Provider it signs in with (local/oidc.ts).
  process.env.CONSOLE_ASSETS_DIR ||= buildConsoleAssets(join(dataDir, 'console-assets'));
  try {
    const consoleUrls = [...new Set([`${baseUrl}/console`, `http://127.0.0.1:${port}/console`, `http://localhost:${port}/console`])];
    // OIDC_AUTH_PORT (0: any): Cognito's layout, the provider's endpoints on another origin than its issuer.
    const authPort = process.env.OIDC_AUTH_PORT ? Number(process.env.OIDC_AUTH_PORT) : undefined;
    const oidc = await startLocalOidc(oidcPort, () => consoleUrls, authPort !== undefined ? { authPort } : {});
    running.oidc = oidc.server;
    running.oidcAuth = oidc.authServer;
    process.env.CONSOLE_ISSUER = oidc.issuer;
    if (oidc.authOrigin) process.env.CONSOLE_AUTH_ORIGIN = oidc.authOrigin;
    process.env.CONSOLE_CLIENT_ID = CONSOLE_CLIENT_ID;
  } catch (err) {
    console.error(`Cannot start the OpenID Provider on OIDC_PORT ${oidcPort}: ${(err as Error).message}`);
    await stop(1);
    return;
  }

  // From here on, nothing a request does ends the process: errors that escape a request are its 500.
  guardProcess();
  const server = (running.server = createLocalServer({ authCacheTtlSeconds: authTtl, storeAvailable: supervised.available, headersTimeoutMs, requestTimeoutMs }));
  server.on('error', (err) => {
    console.error(`Cannot listen on ${host} port ${port}: ${err.message}`);
    void stop(1);
  });
  server.listen(port, host, () => {
    running.delivery = startWebhookDelivery(); // the webhook dispatcher and sender, as in AWS (local/webhooks.ts)
    running.sweep = startInvoiceSweep(); // the invoice sweep every INVOICE_SWEEP_INTERVAL_MS, as the schedule runs it in AWS
    console.log(`API listening on ${baseUrl}${loopback(host) ? ' (this machine only; HOST=0.0.0.0 opens it to the network)' : ` (HOST=${host}: reachable from the network)`}`);
    console.log(`  API reference (a browser): ${baseUrl}/v1/docs`);
    console.log(
      `  Console (a browser): ${baseUrl}/console   OpenID Provider (issuer): ${process.env.CONSOLE_ISSUER}${process.env.CONSOLE_AUTH_ORIGIN ? `, endpoints: ${process.env.CONSOLE_AUTH_ORIGIN}` : ''}`,
    );
    console.log(`  OpenAPI document:\n    curl -s ${baseUrl}/v1/openapi.json`);
    console.log(
      `DynamoDB Local: ${supervised.endpoint} (pid ${supervised.pid()})   Authorizer cache: ${authTtl}s (a revoked or changed key takes that long; AUTH_CACHE_TTL_SECONDS=5 npm start shortens it)   Ctrl-C stops both.`,
    );
  });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
