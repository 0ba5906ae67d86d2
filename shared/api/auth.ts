import type { APIGatewayEventDefaultAuthorizerContext } from 'aws-lambda';
import { isScope, type Scope } from '../domain/auth';
import { forbidden, unauthorized } from './errors';

/**
 * What the authorizer tells the resource Lambdas, through API Gateway's authorizer context (values
 * must be strings, numbers or booleans there, so scopes travel as a comma list).
 */
export interface AuthContext {
  workspaceId: string;
  keyId: string;
  /** The key's name (GET /v1/me); absent from contexts cached before it was added. */
  keyName?: string;
  scopes: Scope[];
  perMinute: number;
  perHour: number;
  /** ISO date-time; the middleware re-checks it so a cached allow cannot outlive the key's expiry. */
  expiresAt?: string;
}

export type AuthorizerContextValues = Record<string, string | number | boolean>;

export function encodeAuthContext(ctx: AuthContext): AuthorizerContextValues {
  const out: AuthorizerContextValues = {
    workspaceId: ctx.workspaceId,
    keyId: ctx.keyId,
    ...(ctx.keyName !== undefined ? { keyName: ctx.keyName } : {}),
    scopes: ctx.scopes.join(','),
    perMinute: ctx.perMinute,
    perHour: ctx.perHour,
  };
  if (ctx.expiresAt) out.expiresAt = ctx.expiresAt;
  return out;
}

/** An authorizer context value as a string (API Gateway may pass numbers and booleans as such). */
const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined);

/** Parses the authorizer context of an event. Anything missing or odd is a 401, never a 500. */
export function decodeAuthContext(raw: APIGatewayEventDefaultAuthorizerContext, now = new Date()): AuthContext {
  const workspaceId = str(raw?.workspaceId);
  const keyId = str(raw?.keyId);
  const perMinute = Number(str(raw?.perMinute));
  const perHour = Number(str(raw?.perHour));
  if (!workspaceId || !keyId || !Number.isInteger(perMinute) || !Number.isInteger(perHour)) throw unauthorized();
  const scopes = (str(raw?.scopes) ?? '').split(',').filter(isScope);
  const expiresAt = str(raw?.expiresAt) || undefined;
  if (expiresAt && Date.parse(expiresAt) <= now.getTime()) throw unauthorized();
  const keyName = str(raw?.keyName);
  return { workspaceId, keyId, ...(keyName !== undefined ? { keyName } : {}), scopes, perMinute, perHour, ...(expiresAt ? { expiresAt } : {}) };
}

export function requireScope(ctx: AuthContext, scope: Scope): void {
  if (!ctx.scopes.includes(scope)) throw forbidden(`This API key lacks the required scope: ${scope}`, { reason: 'MISSING_SCOPE', scope });
}
