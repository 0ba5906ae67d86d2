/**
 * Child process of the throughput section (bench/throughput.ts): serves HTTP on a free loopback port and
 * reports the port on fd 3.
 *   gateway: the local gateway (local/server.ts: API Gateway stand-in + the deployed handler modules)
 *   bare:    a minimal node:http server making the same DynamoDB calls for GET /v1/clients/{id},
 *            GET /v1/clients and POST /v1/clients (the rate-limit counter UpdateItem, then GetItem /
 *            Query / for a create the change feed's position UpdateItem and the TransactWriteItems of the
 *            record, its name lock, the list's bound counter and the change event, retried on a
 *            transaction conflict within the same budget as the product's writes), with no framework: no
 *            validation, logging, metrics or error mapping. The key's context comes from an in-memory map,
 *            as the gateway's authorizer answer comes from its cache.
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
  // the product's conflict retry (full jitter within WRITE_CONTENTION_BUDGET_MS), not framework
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { contentionBudget, isContention } = require('../shared/data/write') as typeof import('../shared/data/write');
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
        // the writes of the product's create (bench/dynamo-work.ts section 4 counts them: position +
        // transaction), written out by hand: since the change feed (issue 30) a create also takes the
        // event's position and commits the event and the list's bound counter with the record and its lock
        const input = JSON.parse(body) as { name: string };
        const id = randomUUID();
        const now = new Date().toISOString();
        const record = { name: input.name, archived: false, id, createdAt: now, updatedAt: now };
        const item = { ...record, _v: 1, _rv: 1, PK: ws, SK: `CLIENT#${id}`, _type: 'CLIENT' };
        const bytes = Buffer.byteLength(JSON.stringify(item));
        const budget = contentionBudget();
        for (let attempt = 0; ; attempt++) {
          const at = Date.now();
          const position = await db().send(
            new UpdateCommand({
              TableName: table,
              Key: { PK: `${ws}#CHANGESEQ`, SK: 'SEQ' },
              UpdateExpression: 'SET #t = :type, #prev = if_not_exists(#at, :zero), #at = :at ADD #n :count',
              ExpressionAttributeNames: { '#t': '_type', '#prev': 'prevAt', '#at': 'at', '#n': 'n' },
              ExpressionAttributeValues: { ':type': 'CHANGESEQ', ':zero': 0, ':at': at, ':count': 1 },
              ReturnValues: 'ALL_NEW',
            }),
          );
          const n = Number(position.Attributes?.n);
          const event = {
            id: `evt_${randomUUID()}`,
            type: 'client.created',
            resource: 'client',
            resourceId: id,
            occurredAt: new Date(at).toISOString(),
            data: { ...record, etag: '"1"' },
          };
          try {
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
                  {
                    Update: {
                      TableName: table,
                      // its own bound counter (the same size and condition), so the bare server's creates do not
                      // count against the clients bound (MAX_CLIENTS, 5,000) that the gateway's creates check
                      Key: { PK: `${ws}#LISTBOUND`, SK: 'CLIENT-BARE' },
                      UpdateExpression: 'SET #t = :type ADD #n :count, #b :bytes',
                      ConditionExpression: '(attribute_not_exists(#n) OR #n < :max) AND (attribute_not_exists(#b) OR #b <= :room)',
                      ExpressionAttributeNames: { '#t': '_type', '#n': 'n', '#b': 'bytes' },
                      ExpressionAttributeValues: { ':type': 'LISTBOUND', ':count': 1, ':bytes': bytes, ':max': 1_000_000, ':room': 1_000_000_000 },
                    },
                  },
                  {
                    Put: {
                      TableName: table,
                      Item: {
                        PK: `${ws}#CHANGES`,
                        SK: `EVT#${String(n).padStart(15, '0')}`,
                        _type: 'CHANGE',
                        position: n,
                        at,
                        prevAt: Number(position.Attributes?.prevAt ?? 0),
                        ttl: Math.floor(at / 1000) + 31 * 86_400,
                        event,
                      },
                      ConditionExpression: 'attribute_not_exists(PK)',
                    },
                  },
                ],
              }),
            );
            return void send(201, { ...record, etag: '"1"' });
          } catch (err) {
            if (isContention(err) && (await budget.wait(attempt))) continue;
            throw err;
          }
        }
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
