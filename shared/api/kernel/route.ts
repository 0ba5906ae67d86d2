import type * as z from 'zod/mini';
import type { Scope } from '../../domain/auth';
import type { Role } from '../../domain/roles';

/**
 * The HTTP kernel's route declaration, shared by the integration API (shared/api/routes.ts) and the console
 * (shared/console/routes.ts): what a route says about itself, from which the one stack
 * (shared/api/kernel/stack.ts) and the one OpenAPI builder (shared/api/kernel/openapi.ts) do the rest.
 *
 * `access` says who may call it:
 * - `null`: public (no credential): the documents, the reference page, the console page and its assets;
 * - `{ scopes }`: an API key (the `X-API-Key` the API's authorizer resolved) holding every scope listed;
 *   `{ scopes: [] }`: any valid key (GET /v1/me, GET /v1/changes);
 * - `'person'`: any signed-in person (the ID token the console authorizer verified), no workspace;
 * - a role: a signed-in member of the path's `{workspaceId}` with at least that role (owner > admin > viewer).
 */
export interface KeyAccess {
  scopes: readonly Scope[];
}
export type PersonAccess = 'person' | Role;
export type Access = null | KeyAccess | PersonAccess;
/** Who calls, as the stack sees it: the caller kind an access belongs to. */
export type CallerKindName = 'public' | 'api-key' | 'person';
export const callerOf = (access: Access): CallerKindName => (access === null ? 'public' : typeof access === 'object' ? 'api-key' : 'person');

/** The fields of a route every caller kind reads: the table's entries (API and console) carry these. */
export interface RouteDecl {
  method: string;
  /** API Gateway style template, e.g. /v1/clients/{id} or /console/api/workspaces/{workspaceId}/api-keys. */
  path: string;
  summary: string;
  /** More than the summary says (the OpenAPI operation's description). */
  description?: string;
  params?: z.ZodMiniObject;
  query?: z.ZodMiniObject;
  body?: z.ZodMiniType;
  /** The body may be left out (it is then `{}`). */
  bodyOptional?: boolean;
  response: z.ZodMiniType;
  successStatus: 200 | 201;
  /** The answer is this text (or binary) type, not JSON. */
  produces?: string;
  /** May answer 409 CONFLICT. */
  conflict?: boolean;
  /** Declared, but permanently answered with 501 NOT_IMPLEMENTED (documented as such). */
  notImplemented?: string;
}
/** A route of a table, as the stack and the OpenAPI builder take it: its id (the operation id) and its access. */
export type KernelRoute = RouteDecl & { id: string; access: Access };

/**
 * A route's answer when it is more than a body with the route's success status: extra headers (ETag, a
 * page's Content-Security-Policy) or another status (304 Not Modified, which has no body; 202 Accepted).
 */
export class Reply {
  constructor(
    readonly body: unknown,
    readonly headers: Readonly<Record<string, string>> = {},
    readonly status?: number,
  ) {}
}
/** A text answer with its own headers (the console page: Content-Security-Policy). */
export class TextReply extends Reply {
  constructor(body: string, headers: Readonly<Record<string, string>> = {}) {
    super(body, headers);
  }
}
/** A 202 Accepted answer of a route that declares `accepted` (work that goes on in later requests). */
export class AcceptedReply extends Reply {
  constructor(body: unknown) {
    super(body, {}, 202);
  }
}
/** A binary answer (a PDF): sent base64-encoded with `isBase64Encoded` (API Gateway decodes it for the media types the API lists as binary). */
export class BinaryReply {
  constructor(
    readonly body: Uint8Array,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/** The validated input of a route, typed from its schemas. */
export type InputOf<R extends Pick<RouteDecl, 'params' | 'query' | 'body'>> = {
  params: R['params'] extends z.ZodMiniType ? z.output<R['params']> : Record<string, never>;
  query: R['query'] extends z.ZodMiniType ? z.output<R['query']> : Record<string, never>;
  body: R['body'] extends z.ZodMiniType ? z.output<R['body']> : undefined;
};
