import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import type { AuthContext } from '../../shared/api/auth';
import { lambdaContext as localLambdaContext } from '../../local/gateway';
import type { Client } from '../../shared/domain/entities/clients';
import type { Favorite } from '../../shared/domain/entities/favorites';
import type { Invoice } from '../../shared/domain/entities/invoices';
import type { Project } from '../../shared/domain/entities/projects';
import type { Tag } from '../../shared/domain/entities/tags';
import type { Task } from '../../shared/domain/entities/tasks';
import type { TimeEntry } from '../../shared/domain/entities/time-entries';

/**
 * A small workspace with some of everything (the catalog of the time-entry seeder, 200 entries,
 * 20 invoices, 10 favorites) and an all-scopes key with limits no benchmark reaches, plus the
 * events API Gateway would send for it. Requires the bench environment (lib/env.ts).
 */
export interface Workspace {
  id: string;
  key: string;
  auth: AuthContext;
  user: string;
  clients: Client[];
  projects: Project[];
  tasks: Task[];
  tags: Tag[];
  entries: TimeEntry[];
  favorites: Favorite[];
  invoices: Invoice[];
}

export const HUGE_LIMITS = { perMinute: 100_000_000, perHour: 1_000_000_000 };

export async function createWorkspace(id: string, opts: { timeEntries?: number; invoices?: number; favorites?: number } = {}): Promise<Workspace> {
  const { ensureSeedCatalog, seedTimeEntries, SEED_USERS } = await import('../../shared/seed/seed-time-entries');
  const { seedInvoices } = await import('../../shared/seed/seed-invoices');
  const { favorites } = await import('../../shared/data/repositories');
  const { createApiKey } = await import('../../shared/data/apikey-store');
  const { SCOPES } = await import('../../shared/api/routes');
  const cat = await ensureSeedCatalog(id);
  const entries = await seedTimeEntries(id, opts.timeEntries ?? 200);
  const invoices = await seedInvoices(id, opts.invoices ?? 20);
  const user = SEED_USERS[0]!;
  const favs: Favorite[] = [];
  for (let i = 0; i < (opts.favorites ?? 10); i++) {
    const p = cat.projects[i % cat.projects.length]!;
    favs.push(await favorites.create(id, { userId: user, name: `Favorite ${i}`, projectId: p.project.id, taskId: p.tasks[0]!.id, tagIds: [cat.tags[i % cat.tags.length]!.id] }));
  }
  const { key, record } = await createApiKey({ workspaceId: id, name: 'bench', scopes: [...SCOPES], ...HUGE_LIMITS });
  return {
    id,
    key,
    auth: { workspaceId: id, keyId: record.id, scopes: [...SCOPES], ...HUGE_LIMITS },
    user,
    clients: cat.clients,
    projects: cat.projects.map((p) => p.project),
    tasks: cat.projects.flatMap((p) => p.tasks),
    tags: cat.tags,
    entries,
    favorites: favs,
    invoices,
  };
}

export interface EventInput {
  method: string;
  /** Route template, e.g. /v1/clients/{id}. */
  resource: string;
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

/** The REST (v1) proxy event API Gateway sends a resource function, with the authorizer's context. */
export function apiEvent(input: EventInput, auth: AuthContext | undefined, requestId = 'bench-request'): APIGatewayProxyEvent {
  let path = input.resource;
  for (const [k, v] of Object.entries(input.pathParameters ?? {})) path = path.replace(`{${k}}`, encodeURIComponent(v));
  const headers: Record<string, string> = {
    Accept: 'application/json',
    Host: 'abc123.execute-api.eu-west-1.amazonaws.com',
    'User-Agent': 'bench',
    'X-Forwarded-Proto': 'https',
    ...(auth ? { 'X-API-Key': 'svc_live_redacted' } : {}),
    ...(input.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
  };
  const q = input.query && Object.keys(input.query).length ? input.query : null;
  return {
    resource: input.resource,
    path,
    httpMethod: input.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: q,
    multiValueQueryStringParameters: q ? Object.fromEntries(Object.entries(q).map(([k, v]) => [k, [v]])) : null,
    pathParameters: input.pathParameters ?? null,
    stageVariables: null,
    body: input.body === undefined ? null : JSON.stringify(input.body),
    isBase64Encoded: false,
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      authorizer: auth
        ? {
            workspaceId: auth.workspaceId,
            keyId: auth.keyId,
            scopes: auth.scopes.join(','),
            perMinute: auth.perMinute,
            perHour: auth.perHour,
            principalId: auth.keyId,
            integrationLatency: 0,
          }
        : null,
      protocol: 'HTTP/1.1',
      httpMethod: input.method,
      identity: { sourceIp: '127.0.0.1', userAgent: 'bench' } as APIGatewayProxyEvent['requestContext']['identity'],
      path: `/prod${path}`,
      stage: 'prod',
      requestId,
      requestTimeEpoch: Date.now(),
      resourceId: 'abc123',
      resourcePath: input.resource,
    },
  };
}

/** The REQUEST authorizer event for a key. */
export function authorizerEvent(key: string): APIGatewayRequestAuthorizerEvent {
  const ev = apiEvent({ method: 'GET', resource: '/v1/clients' }, undefined);
  return {
    type: 'REQUEST',
    methodArn: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/GET/v1/clients',
    resource: ev.resource,
    path: ev.path,
    httpMethod: ev.httpMethod,
    headers: { ...ev.headers, 'X-API-Key': key },
    multiValueHeaders: { ...ev.multiValueHeaders, 'X-API-Key': [key] },
    pathParameters: null,
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    stageVariables: null,
    requestContext: ev.requestContext,
  } as APIGatewayRequestAuthorizerEvent;
}

/** The same Lambda context the local gateway gives a function. */
export function lambdaContext(fn: string, requestId = 'bench-request'): Context {
  return localLambdaContext(`bench-${fn}`, requestId);
}
