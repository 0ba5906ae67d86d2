/**
 * Child process of the throughput section (bench/throughput.ts): serves HTTP on a free loopback port and
 * reports the port on fd 3.
 *   gateway: the local gateway (local/server.ts: API Gateway stand-in + the deployed handler modules)
 *   bare:    a minimal node:http server making the same DynamoDB calls for GET /v1/clients/{id},
 *            GET /v1/clients and POST /v1/clients (the rate-limit counter UpdateItem, then GetItem /
 *            Query / the TransactWrite of item + name lock), with no framework: no validation, logging,
 *            metrics or error mapping. The key's context comes from an in-memory map, as the gateway's
 *            authorizer answer comes from its cache.
 */
import { randomUUID } from 'node:crypto';
import { writeSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

const HOUR = 3_600_000;
const MINUTE = 60_000;

function bareServer(auth: { key: string; workspaceId: string; keyId: string; perMinute: number; perHour: number }): Server {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { db, tableName } = require('../shared/data/db') as typeof import('../shared/data/db');
  const table = tableName();
  const keys = new Map([[auth.key, auth]]);
  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });
  const rate = (a: typeof auth) => {
    const now = Date.now();
    const hourStart = Math.floor(now / HOUR) * HOUR;
    const m = `m${String((Math.floor(now / MINUTE) * MINUTE - hourStart) / MINUTE).padStart(2, '0')}`;
    return db().send(
      new UpdateCommand({
        TableName: table,
        Key: { PK: `RATE#${a.keyId}`, SK: new Date(hourStart).toISOString() },
        UpdateExpression: 'SET #ttl = :ttl, #type = :type ADD #h :one, #m :one',
        ConditionExpression: '(attribute_not_exists(#h) OR #h < :perHour) AND (attribute_not_exists(#m) OR #m < :perMinute)',
        ExpressionAttributeNames: { '#ttl': 'ttl', '#type': '_type', '#h': 'h', '#m': m },
        ExpressionAttributeValues: { ':ttl': Math.floor((hourStart + HOUR) / 1000) + 3600, ':type': 'RATECOUNTER', ':one': 1, ':perHour': a.perHour, ':perMinute': a.perMinute },
        ReturnValues: 'UPDATED_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const body = await readBody(req);
      const a = keys.get(String(req.headers['x-api-key']));
      if (!a) return void res.writeHead(401).end();
      await rate(a);
      const ws = `WS#${a.workspaceId}`;
      const path = (req.url ?? '/').split('?')[0]!;
      const send = (status: number, v: unknown) => res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(v));
      if (req.method === 'GET' && path.startsWith('/v1/clients/')) {
        const r = await db().send(new GetCommand({ TableName: table, Key: { PK: ws, SK: `CLIENT#${path.slice('/v1/clients/'.length)}` }, ConsistentRead: true }));
        return void send(r.Item ? 200 : 404, r.Item ?? {});
      }
      if (req.method === 'GET' && path === '/v1/clients') {
        const r = await db().send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)',
            ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK' },
            ExpressionAttributeValues: { ':pk': ws, ':sk': 'CLIENT#' },
          }),
        );
        return void send(200, { items: r.Items });
      }
      if (req.method === 'POST' && path === '/v1/clients') {
        const input = JSON.parse(body) as { name: string };
        const id = randomUUID();
        const now = new Date().toISOString();
        const item = { name: input.name, archived: false, id, createdAt: now, updatedAt: now, _v: 1, PK: ws, SK: `CLIENT#${id}`, _type: 'CLIENT' };
        await db().send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
              {
                Put: {
                  TableName: table,
                  Item: { PK: ws, SK: `UNIQUE#CLIENTNAME#${input.name.trim().toLowerCase()}`, _type: 'UNIQUE', owner: item.SK },
                  ConditionExpression: 'attribute_not_exists(PK)',
                },
              },
            ],
          }),
        );
        return void send(201, item);
      }
      send(404, {});
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  };
  return createServer((req, res) => void handle(req, res));
}

function main() {
  const mode = process.argv[2];
  let server: Server;
  if (mode === 'gateway') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createLocalServer } = require('../local/server') as typeof import('../local/server');
    server = createLocalServer({ authCacheTtlSeconds: 3600 });
  } else if (mode === 'bare') {
    server = bareServer(JSON.parse(process.env.BENCH_AUTH!) as Parameters<typeof bareServer>[0]);
  } else throw new Error(`unknown mode ${mode}`);
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    writeSync(3, JSON.stringify({ port: (server.address() as AddressInfo).port }) + '\n');
  });
}

main();
