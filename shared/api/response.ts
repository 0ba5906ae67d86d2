import type { APIGatewayProxyResult } from 'aws-lambda';
import { DomainError, type DomainErrorReason } from '../domain/errors';
import { ApiError, errorBody, type ErrorCode } from './errors';

/** How the API answers each refusal of the domain and data layers. */
const DOMAIN_ERROR_CODES: Record<DomainErrorReason, ErrorCode> = {
  invalid: 'VALIDATION_ERROR',
  'not-found': 'NOT_FOUND',
  conflict: 'CONFLICT',
  'precondition-failed': 'PRECONDITION_FAILED',
  'cursor-expired': 'CURSOR_EXPIRED',
  busy: 'SERVICE_UNAVAILABLE',
};
/** Seconds a client waits before retrying a write that met contention past its budget. */
export const CONTENTION_RETRY_AFTER_SECONDS = 1;

/** A domain or data refusal as the API error it is answered with; anything else unchanged. */
export function toApiError(err: unknown): unknown {
  if (!(err instanceof DomainError)) return err;
  const headers = err.reason === 'busy' ? { 'Retry-After': String(CONTENTION_RETRY_AFTER_SECONDS) } : undefined;
  return new ApiError(DOMAIN_ERROR_CODES[err.reason], err.message, err.details, headers);
}

export const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' } as const;

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

export function errorResponse(
  code: ErrorCode,
  status: number,
  message: string,
  extra: { requestId?: string; details?: ApiError['details']; reason?: ApiError['reason']; headers?: Record<string, string> } = {},
) {
  return json(status, errorBody(code, message, extra), extra.headers);
}

const THROTTLE_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TimeoutError',
  'RequestTimeout',
  'TransactionInProgressException',
  // shared/data/changes.ts: every feed position a write took was voided by readers before it committed
  'FeedContention',
]);
/** DynamoDB unreachable (connection refused or reset, DNS, network): the same retryable condition as a timeout. */
const NETWORK_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** Reasons a transaction is cancelled for load, not for its conditions: retrying it later can succeed. */
const TRANSIENT_CANCELLATIONS = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded', 'TransactionConflict']);

/** DynamoDB busy, throttled, timed out or unreachable: the request is safe to retry (503 + Retry-After). */
function isUnavailable(e: { name?: string; code?: string; message?: string; $metadata?: unknown; CancellationReasons?: Array<{ Code?: string }> }): boolean {
  if (e.name && THROTTLE_ERRORS.has(e.name)) return true;
  // A socket error keeps its code; when the SDK had to wrap it (a rejection that is not an Error of this
  // realm), only its message names the code, on an error that carries the SDK's $metadata.
  const code = e.code ?? (e.$metadata !== undefined ? /\b(E[A-Z]{4,})\b/.exec(String(e.message))?.[1] : undefined);
  if (code && NETWORK_ERROR_CODES.has(code)) return true;
  if (e.name === 'TransactionCanceledException') {
    const codes = (e.CancellationReasons ?? []).map((r) => r.Code ?? 'None');
    return codes.some((c) => TRANSIENT_CANCELLATIONS.has(c)) && codes.every((c) => c === 'None' || TRANSIENT_CANCELLATIONS.has(c));
  }
  return false;
}

/**
 * The one mapping from anything thrown to a response. Typed ApiErrors keep their code and message;
 * DynamoDB throttling, timeouts, unreachability and transactions cancelled
 * for load (throttled, conflicting) are a retryable 503; everything else
 * is a 500 whose body carries only the request id.
 */
export function toErrorResponse(thrown: unknown, requestId: string): { response: APIGatewayProxyResult; unexpected: boolean } {
  const err = toApiError(thrown);
  if (err instanceof ApiError) {
    return {
      response: errorResponse(err.code, err.status, err.message, {
        details: err.details,
        reason: err.reason,
        headers: err.headers,
        requestId: err.status >= 500 ? requestId : undefined,
      }),
      unexpected: false,
    };
  }
  const e = err as { name?: string; code?: string; message?: string; $metadata?: unknown; statusCode?: number; CancellationReasons?: Array<{ Code?: string }> } | undefined;
  if (e && isUnavailable(e)) {
    return {
      response: errorResponse('SERVICE_UNAVAILABLE', 503, 'The service is busy; retry after a short wait', { requestId, headers: { 'Retry-After': '1' } }),
      unexpected: true,
    };
  }
  return { response: errorResponse('INTERNAL_ERROR', 500, 'An unexpected error occurred', { requestId }), unexpected: true };
}
