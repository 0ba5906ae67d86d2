import type * as z from 'zod/mini';
import type { Member } from '../data/members';
import type { InputOf, PersonAccess, RouteDecl } from '../api/kernel/route';

export { AcceptedReply, BinaryReply, TextReply } from '../api/kernel/route';

/**
 * How a console route is declared: ONE call of `consoleRoute(declaration, implementation)` in a feature
 * file (shared/console/features/*.ts), listed in shared/console/routes.ts. From the declarations follow the
 * API Gateway methods and their authorizer (lib/console.ts), the local gateway's routing, the role check,
 * request validation, `Cache-Control: no-store`, and the console's OpenAPI document
 * (GET /console/api/openapi.json). A console route is the HTTP kernel's declaration
 * (shared/api/kernel/route.ts, the API's routes are too) whose `access` is a person's: served by the one
 * stack (shared/api/kernel/stack.ts) with the person caller (shared/console/handler.ts), documented by the
 * one OpenAPI builder (shared/api/kernel/openapi.ts).
 */
export type ConsoleMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

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
export type ConsoleAccess = null | PersonAccess;

export interface ConsoleRouteDecl extends RouteDecl {
  method: ConsoleMethod;
  /** API Gateway style template under /console, e.g. /console/api/workspaces/{workspaceId}/api-keys. */
  path: string;
  access: ConsoleAccess;
  /**
   * Which Lambda serves it (default `console`). A route served by another function is declared here without
   * its implementation, which that function's entry passes to `consoleHandler` (functions/<name>/index.ts).
   */
  function?: Exclude<ConsoleFunctionName, 'console'>;
  /** The OpenAPI tag (the console section). */
  tag: string;
  /** The route may also answer 202 with this body (work that goes on in later requests: an invoice made in steps). */
  accepted?: z.ZodMiniType;
  /** A text answer (the page and its assets) of this content type, rather than JSON. */
  produces?: string;
  /** The answer carries a secret (a new API key): documented as such; every console API answer is no-store. */
  secret?: boolean;
}

export interface ConsolePerson {
  email: string;
}

/** What an implementation receives: validated input, the person, their membership of the path's workspace. */
export type ConsoleRequest<D extends ConsoleRouteDecl> = InputOf<D> & {
  /** Undefined only on public routes. */
  person: ConsolePerson;
  /** The person's membership of the path's workspace (routes whose access is a role). */
  member: Member;
  requestId: string;
  /** The base URL the caller reached (scheme, host, stage). */
  baseUrl: string;
  /** The request as an Idempotency-Key binds it: the concrete path, the query as sent, the parsed JSON body. */
  sent: { path: string; query: Readonly<Record<string, string | undefined>> | null; body: unknown };
};

export type ConsoleRun<D extends ConsoleRouteDecl = ConsoleRouteDecl> = (req: ConsoleRequest<D>) => Promise<unknown>;

export type ConsoleRoute<D extends ConsoleRouteDecl = ConsoleRouteDecl> = D & {
  /** Absent for a route its function's entry binds (a route of another function, the console's document). */
  // a method: a table of routes of many declarations is a list of ConsoleRoute (its parameter is bivariant)
  run?(req: ConsoleRequest<D>): Promise<unknown>;
};

/** The function that serves a route. */
export const functionOf = (route: Pick<ConsoleRouteDecl, 'function'>): ConsoleFunctionName => route.function ?? 'console';

/**
 * Declares a console route: its declaration and its implementation, in one place; or its declaration alone
 * for a route whose function's entry binds the implementation (`consoleHandler(fn, implementations)`): a
 * route served by a function of its own (`function`: the implementation and what it imports go only into
 * that function's bundle), or the console's OpenAPI document (functions/console/index.ts). A function
 * whose route has no implementation fails when its handler is built.
 */
export function consoleRoute<const D extends ConsoleRouteDecl>(decl: D, run?: ConsoleRun<D>): ConsoleRoute<D> {
  return run ? { ...decl, run } : { ...decl };
}
