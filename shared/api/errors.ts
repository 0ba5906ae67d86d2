/** The one error model. Every error the API returns is an ApiError (or becomes INTERNAL_ERROR). */
export const ERROR_STATUS = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  VALIDATION_ERROR: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  CURSOR_EXPIRED: 410,
  IDEMPOTENCY_KEY_REUSED: 422,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  THROTTLED: 429,
  NOT_IMPLEMENTED: 501,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** A field a request got wrong (400). */
export interface ErrorDetail {
  field: string;
  message: string;
}
/**
 * Why a 403 FORBIDDEN happened, for machines (the contract fixes 403 for both): a rate limit (retry after
 * retryAfter seconds) or a missing scope (retrying will not help). Sent as the one entry of `details`.
 */
export type ForbiddenReason =
  | { reason: 'RATE_LIMITED'; window: 'minute' | 'hour'; limit: number; retryAfter: number }
  | { reason: 'MISSING_SCOPE'; scope: string }
  /** The console: the person's role in the workspace is below the route's (`required`: the least role that may). */
  | { reason: 'ROLE'; required: 'owner' | 'admin' | 'viewer' };

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: ErrorDetail[] | ForbiddenReason[]; requestId?: string };
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
    /** A 403's machine-readable reason (sent as its `details`). */
    readonly reason?: ForbiddenReason,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }
}

export const validationError = (message: string, details?: ErrorDetail[]) => new ApiError('VALIDATION_ERROR', message, details);
export const fieldError = (field: string, message: string) => new ApiError('VALIDATION_ERROR', `${field}: ${message}`, [{ field, message }]);
export const notFound = (kind: string) => new ApiError('NOT_FOUND', `${kind} not found`);
export const conflict = (message: string) => new ApiError('CONFLICT', message);
export const forbidden = (message: string, reason: ForbiddenReason, headers?: Record<string, string>) => new ApiError('FORBIDDEN', message, undefined, headers, reason);
export const unauthorized = () => new ApiError('UNAUTHORIZED', UNAUTHORIZED_MESSAGE);
export const notImplemented = (message = 'This operation is not implemented') => new ApiError('NOT_IMPLEMENTED', message);

/**
 * One generic message for every authentication failure, so a caller learns nothing about why. The API and
 * the console's API share one API Gateway, whose UNAUTHORIZED answer cannot differ by path, so it names
 * both credentials: an API key on /v1, a person's sign-in token on the console.
 */
export const UNAUTHORIZED_MESSAGE = 'Missing or invalid credentials: an API key in X-API-Key, or on the console a sign-in token';

/** Bounds of an error body (declared in the OpenAPI document): messages and details are clipped to them. */
export const MAX_ERROR_MESSAGE_CHARS = 4096;
export const MAX_DETAIL_CHARS = 1024;
export const MAX_ERROR_DETAILS = 100;
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 3)}...` : text);

export function errorBody(code: ErrorCode, message: string, extra?: { details?: ErrorDetail[]; reason?: ForbiddenReason; requestId?: string }): ErrorBody {
  const error: ErrorBody['error'] = { code, message: clip(message, MAX_ERROR_MESSAGE_CHARS) };
  if (extra?.reason) error.details = [extra.reason];
  else if (extra?.details && extra.details.length > 0)
    error.details = extra.details.slice(0, MAX_ERROR_DETAILS).map((d) => ({ field: clip(d.field, MAX_DETAIL_CHARS), message: clip(d.message, MAX_DETAIL_CHARS) }));
  if (extra?.requestId) error.requestId = extra.requestId;
  return { error };
}
