import type * as z from 'zod/mini';
import type { Role } from '../domain/roles';
import type { Member } from '../data/members';

/**
 * How a console route is declared: ONE call of `consoleRoute(declaration, implementation)` in a feature
 * file (shared/console/features/*.ts), listed in shared/console/routes.ts. From the declarations follow the
 * API Gateway methods and their authorizer (lib/console.ts), the local gateway's routing, the role check,
 * request validation, `Cache-Control: no-store`, and the console's OpenAPI document
 * (GET /console/api/openapi.json). Issue 24's invoices add their routes the same way.
 */
export type ConsoleMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * The Lambdas of the console: `console` (the page, its assets, the console API), `console-invoice-pdf`
 * (the invoice PDF alone, so that pdf-lib, its fonts and pako stay out of the console function's bundle) and
 * `console-keys` (the API-key writes: create, edit, roll, revoke; its role is the only console role that may
 * write key items, lib/console.ts).
 */
export type ConsoleFunctionName = 'console' | 'console-invoice-pdf' | 'console-keys';
export const CONSOLE_FUNCTION_NAMES: readonly ConsoleFunctionName[] = ['console', 'console-invoice-pdf', 'console-keys'];

/**
 * Who may call it: `null` public (the page, its assets, the document); `person` any signed-in person (no
 * workspace in the path: GET /console/api/me); a role: a member of the path's `{workspaceId}` with at least
 * that role (owner > admin > viewer). A person who is not a member of that workspace gets 404.
 */
export type ConsoleAccess = null | 'person' | Role;

export interface ConsoleRouteDecl {
  method: ConsoleMethod;
  /** API Gateway style template under /console, e.g. /console/api/workspaces/{workspaceId}/api-keys. */
  path: string;
  access: ConsoleAccess;
  /**
   * Which Lambda serves it (default `console`). A route served by another function is declared here without
   * its implementation, which that function's entry passes to `consoleHandler` (functions/<name>/index.ts).
   */
  function?: Exclude<ConsoleFunctionName, 'console'>;
  summary: string;
  description?: string;
  /** The OpenAPI tag (the console section). */
  tag: string;
  params?: z.ZodMiniObject;
  query?: z.ZodMiniObject;
  body?: z.ZodMiniType;
  /** The body may be left out (it is then `{}`). */
  bodyOptional?: boolean;
  response: z.ZodMiniType;
  successStatus: 200 | 201;
  /** The route may also answer 202 with this body (work that goes on in later requests: an invoice made in steps). */
  accepted?: z.ZodMiniType;
  /** A text answer (the page and its assets) of this content type, rather than JSON. */
  produces?: string;
  /** The answer carries a secret (a new API key): documented as such; every console API answer is no-store. */
  secret?: boolean;
  /** May answer 409 CONFLICT. */
  conflict?: boolean;
}

export interface ConsolePerson {
  email: string;
}

/** What an implementation receives: validated input, the person, their membership of the path's workspace. */
export interface ConsoleRequest<D extends ConsoleRouteDecl> {
  params: D['params'] extends z.ZodMiniType ? z.output<D['params']> : Record<string, never>;
  query: D['query'] extends z.ZodMiniType ? z.output<D['query']> : Record<string, never>;
  body: D['body'] extends z.ZodMiniType ? z.output<D['body']> : undefined;
  /** Undefined only on public routes. */
  person: ConsolePerson;
  /** The person's membership of the path's workspace (routes whose access is a role). */
  member: Member;
  requestId: string;
  /** The base URL the caller reached (scheme, host, stage). */
  baseUrl: string;
}

/** A text answer with its own headers (the page: Content-Security-Policy). */
export class TextReply {
  constructor(
    readonly body: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/** A binary answer (a PDF): sent base64-encoded with `isBase64Encoded` (API Gateway decodes it for the media types the API lists as binary). */
export class BinaryReply {
  constructor(
    readonly body: Uint8Array,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/** A 202 Accepted answer of a route that declares `accepted`. */
export class AcceptedReply {
  constructor(readonly body: unknown) {}
}

export type ConsoleRun<D extends ConsoleRouteDecl = ConsoleRouteDecl> = (req: ConsoleRequest<D>) => Promise<unknown>;

export type ConsoleRoute<D extends ConsoleRouteDecl = ConsoleRouteDecl> = D & {
  /** Absent for a route of another function (`function`): its entry supplies the implementation. */
  run?: ConsoleRun<D>;
};

/** The function that serves a route. */
export const functionOf = (route: Pick<ConsoleRouteDecl, 'function'>): ConsoleFunctionName => route.function ?? 'console';

/**
 * Declares a console route: its declaration and its implementation, in one place; or, for a route served by
 * a function of its own (`function`), its declaration alone (the route table, the gateway and the document
 * need it; the implementation and what it imports go only into that function's bundle).
 */
export function consoleRoute<const D extends ConsoleRouteDecl & { function: Exclude<ConsoleFunctionName, 'console'> }>(decl: D): ConsoleRoute<D>;
export function consoleRoute<const D extends ConsoleRouteDecl>(decl: D, run: ConsoleRun<D>): ConsoleRoute<D>;
export function consoleRoute<const D extends ConsoleRouteDecl>(decl: D, run?: ConsoleRun<D>): ConsoleRoute<D> {
  return run ? { ...decl, run } : { ...decl };
}
