import { DynamoDBClient, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createGateway, type Gateway } from '../../local/gateway';
import { dynamoConfig, db, tableName } from '../../shared/data/db';
import { ensureTable } from '../../shared/data/setup';
import { createApiKey, type NewKey } from '../../shared/data/apikey-store';
import { SCOPES, type Scope } from '../../shared/api/routes';
import { contractCheckEnabled, contractValidator, reportContractStats } from './contract';

// Every response of every suite is checked against the OpenAPI document (test/support/contract.ts);
// this file's count goes to the run's report when the file ends.
if (typeof afterAll === 'function') afterAll(() => reportContractStats(expect.getState().testPath ?? 'unknown'));

/** Creates this file's table before its tests and drops it after. */
export function useTestTable(): void {
  const client = new DynamoDBClient(dynamoConfig());
  beforeAll(async () => {
    await ensureTable(client, tableName());
  });
  afterAll(async () => {
    await client.send(new DeleteTableCommand({ TableName: tableName() })).catch(() => undefined);
    client.destroy();
  });
}

export interface CallOptions {
  key?: string;
  query?: Record<string, string | string[] | undefined>;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}
export interface CallResult<T = any> {
  status: number;
  headers: Record<string, string>;
  body: T;
  text: string;
}

export interface ApiClientOptions {
  /** Sees every request and its response (e.g. to scan all bodies of a scenario). */
  onResponse?: (req: { method: string; path: string; query: Record<string, string | string[] | undefined>; body?: string }, res: CallResult) => void;
}
/**
 * Calls the API through the local gateway (same routing, authorizer caching and handlers as npm start).
 * Every response is checked against the served OpenAPI document: a status the operation does not declare,
 * or a body its schema refuses, throws a ContractViolation in the calling test (CONTRACT_CHECK=0 turns
 * this off for debugging only).
 */
export function apiClient(gateway: Gateway = createGateway({ authCacheTtlSeconds: 300 }), clientOpts: ApiClientOptions = {}) {
  const call = async <T = any>(method: string, path: string, opts: CallOptions = {}): Promise<CallResult<T>> => {
    const [p, qs] = path.split('?');
    const query: Record<string, string | string[] | undefined> = { ...(opts.query ?? {}) };
    if (qs) for (const [k, v] of new URLSearchParams(qs)) query[k] = v;
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.key !== undefined) headers['X-API-Key'] = opts.key;
    const body = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    if (body !== undefined) headers['Content-Type'] ??= 'application/json';
    const res = await gateway.handle({ method, path: p!, query, headers, ...(body !== undefined ? { body } : {}) });
    if (contractCheckEnabled()) contractValidator().assert({ method: method.toUpperCase(), path: p!, status: res.status, headers: res.headers, body: res.body });
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      parsed = undefined;
    }
    const result: CallResult<T> = { status: res.status, headers: res.headers, body: parsed as T, text: res.body };
    clientOpts.onResponse?.({ method, path: p!, query, ...(body !== undefined ? { body } : {}) }, result);
    return result;
  };
  return {
    gateway,
    call,
    get: <T = any>(path: string, o?: CallOptions) => call<T>('GET', path, o),
    post: <T = any>(path: string, body: unknown, o?: CallOptions) => call<T>('POST', path, { ...o, body }),
    put: <T = any>(path: string, body: unknown, o?: CallOptions) => call<T>('PUT', path, { ...o, body }),
    del: <T = any>(path: string, o?: CallOptions) => call<T>('DELETE', path, o),
  };
}

let wsCounter = 0;
/** A fresh workspace id, unique within the run. */
export const newWorkspace = (label = 'ws') => `${label}-${process.pid}-${Date.now().toString(36)}-${++wsCounter}`;

/** Creates a key (all scopes unless given) and returns the plaintext key. */
export async function makeKey(workspaceId: string, opts: Partial<Omit<NewKey, 'workspaceId'>> = {}): Promise<string> {
  const { key } = await createApiKey({ workspaceId, name: opts.name ?? 'test', scopes: opts.scopes ?? ([...SCOPES] as Scope[]), ...opts });
  return key;
}

/**
 * Every item of this file's table (to prove a rejected request changed nothing). Rate-limit counter
 * items are left out unless asked for: every authenticated request, rejected or not, counts there. So is
 * the change feed's bookkeeping (its position counter and the voids of writes that did not commit): a
 * refused write may take a feed position, but leaves no event and no record (feed tests read the feed).
 */
const FEED_BOOKKEEPING = new Set(['CHANGESEQ', 'CHANGEVOID']);
export async function tableSnapshot(opts: { rateCounters?: boolean } = {}): Promise<string[]> {
  const items: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db().send(new ScanCommand({ TableName: tableName(), ...(start ? { ExclusiveStartKey: start } : {}) }));
    for (const it of res.Items ?? []) {
      if (it._type === 'RATECOUNTER' && !opts.rateCounters) continue;
      if (FEED_BOOKKEEPING.has(String(it._type))) continue;
      const { lastUsedAt: _ignored, ...rest } = it;
      void _ignored;
      items.push(JSON.stringify(rest, Object.keys(rest).sort()));
    }
    start = res.LastEvaluatedKey;
  } while (start);
  return items.sort();
}
