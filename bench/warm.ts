import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../shared/data/db';
import { apiEvent, lambdaContext, type Workspace } from './lib/fixtures';
import { median, percentile } from './lib/stats';

/**
 * Section 3: warm overhead of the framework. The full stack (the clients function's middy handler:
 * logger, route resolution, auth context, rate limit, scope, body, zod validation, error handling,
 * metrics) against a bare handler that makes the SAME DynamoDB calls with the same inputs (the
 * rate-limit counter's conditional UpdateItem, then the route's GetItem or Query) on the same client,
 * and nothing else: no validation, no logging, no metrics. The rate-limit write is in both, so the
 * difference is framework work only, not DynamoDB work.
 *
 * Calls alternate (full, bare, bare, full, ...) after a warm-up; the overhead is the difference of the
 * two p50s (and p99s). Measured twice: against DynamoDB Local (the real calls, with its latency noise)
 * and with DynamoDB answered from memory by a client middleware replaying recorded responses (CPU
 * only: isolates the framework's own cost; both handlers still build, send and parse every command).
 */
type Handler = (e: APIGatewayProxyEvent, c: Context) => Promise<APIGatewayProxyResult>;

export interface WarmResult {
  route: string;
  mode: 'DynamoDB Local' | 'in-memory DynamoDB';
  iterations: number;
  full: { p50: number; p99: number };
  bare: { p50: number; p99: number };
  overheadP50: number;
  overheadP99: number;
  pairedMedian: number;
}

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** The rate-limit counter write, exactly as shared/data/rate-counter.ts sends it, written out by hand. */
function bareRateLimit(keyId: string, limits: { perMinute: number; perHour: number }) {
  const now = Date.now();
  const hourStart = Math.floor(now / HOUR) * HOUR;
  const m = `m${String((Math.floor(now / MINUTE) * MINUTE - hourStart) / MINUTE).padStart(2, '0')}`;
  return db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { PK: `RATE#${keyId}`, SK: new Date(hourStart).toISOString() },
      UpdateExpression: 'SET #ttl = :ttl, #type = :type ADD #h :one, #m :one',
      ConditionExpression: '(attribute_not_exists(#h) OR #h < :perHour) AND (attribute_not_exists(#m) OR #m < :perMinute)',
      ExpressionAttributeNames: { '#ttl': 'ttl', '#type': '_type', '#h': 'h', '#m': m },
      ExpressionAttributeValues: {
        ':ttl': Math.floor((hourStart + HOUR) / 1000) + 3600,
        ':type': 'RATECOUNTER',
        ':one': 1,
        ':perHour': limits.perHour,
        ':perMinute': limits.perMinute,
      },
      ReturnValues: 'UPDATED_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    }),
  );
}

export function bareHandlers(): { get: Handler; list: Handler } {
  const headers = { 'Content-Type': 'application/json; charset=utf-8' };
  return {
    get: async (event) => {
      const auth = event.requestContext.authorizer as Record<string, string>;
      await bareRateLimit(auth.keyId!, { perMinute: Number(auth.perMinute), perHour: Number(auth.perHour) });
      const res = await db().send(
        new GetCommand({ TableName: tableName(), Key: { PK: `WS#${auth.workspaceId}`, SK: `CLIENT#${event.pathParameters!.id}` }, ConsistentRead: true }),
      );
      return { statusCode: 200, headers, body: JSON.stringify(res.Item) };
    },
    list: async (event) => {
      const auth = event.requestContext.authorizer as Record<string, string>;
      await bareRateLimit(auth.keyId!, { perMinute: Number(auth.perMinute), perHour: Number(auth.perHour) });
      const res = await db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)',
          ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK' },
          ExpressionAttributeValues: { ':pk': `WS#${auth.workspaceId}`, ':sk': 'CLIENT#' },
        }),
      );
      return { statusCode: 200, headers, body: JSON.stringify({ items: res.Items }) };
    },
  };
}

/** Replays recorded outputs per command: DynamoDB answered from memory (mode 'in-memory DynamoDB'). */
function installReplay(doc: { middlewareStack: unknown }) {
  const recorded = new Map<string, unknown>();
  const state = { replay: false };
  (doc.middlewareStack as { add: (mw: unknown, o: object) => void }).add(
    (next: (a: unknown) => Promise<{ output: unknown }>, ctx: { commandName?: string }) => async (args: unknown) => {
      const name = ctx.commandName ?? '?';
      if (state.replay && recorded.has(name)) return { output: structuredClone(recorded.get(name)), response: {} };
      const res = await next(args);
      recorded.set(name, structuredClone(res.output));
      return res;
    },
    { step: 'initialize', name: 'benchReplay' },
  );
  return state;
}

export async function measureWarm(
  ws: Workspace,
  iterations: number,
  progress?: (s: string) => void,
  modes: ReadonlyArray<WarmResult['mode']> = ['DynamoDB Local', 'in-memory DynamoDB'],
): Promise<WarmResult[]> {
  const { handler } = (await import('../functions/clients/index')) as unknown as { handler: Handler };
  const bare = bareHandlers();
  const client = ws.clients[0]!;
  const replay = installReplay(db());
  const cases: Array<{ route: string; event: () => APIGatewayProxyEvent; bare: Handler }> = [
    { route: 'GET /v1/clients/{id}', event: () => apiEvent({ method: 'GET', resource: '/v1/clients/{id}', pathParameters: { id: client.id } }, ws.auth), bare: bare.get },
    { route: 'GET /v1/clients', event: () => apiEvent({ method: 'GET', resource: '/v1/clients' }, ws.auth), bare: bare.list },
  ];
  const time = async (h: Handler, event: APIGatewayProxyEvent) => {
    // a context per invocation, as Lambda gives: its deadline (the function's timeout) starts now
    const ctx = lambdaContext('clients');
    const t = performance.now();
    const res = await h(event, ctx);
    const ms = performance.now() - t;
    if (res.statusCode !== 200) throw new Error(`warm: ${res.statusCode} ${res.body}`);
    return ms;
  };
  const out: WarmResult[] = [];
  for (const mode of modes) {
    for (const c of cases) {
      replay.replay = false;
      for (let i = 0; i < 50; i++) {
        await time(handler, c.event());
        await time(c.bare, c.event());
      }
      replay.replay = mode === 'in-memory DynamoDB';
      const n = mode === 'in-memory DynamoDB' ? iterations * 4 : iterations;
      const full: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < n; i++) {
        if (i % 2 === 0) {
          full.push(await time(handler, c.event()));
          b.push(await time(c.bare, c.event()));
        } else {
          b.push(await time(c.bare, c.event()));
          full.push(await time(handler, c.event()));
        }
      }
      replay.replay = false;
      const p = (xs: number[]) => ({ p50: percentile(xs, 50), p99: percentile(xs, 99) });
      const f = p(full);
      const bb = p(b);
      out.push({
        route: c.route,
        mode,
        iterations: n,
        full: f,
        bare: bb,
        overheadP50: f.p50 - bb.p50,
        overheadP99: f.p99 - bb.p99,
        pairedMedian: median(full.map((x, i) => x - b[i]!)),
      });
      progress?.(`warm: ${c.route} (${mode}) done`);
    }
  }
  return out;
}
