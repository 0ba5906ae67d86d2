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

export interface ErrorDetail {
  field: string;
  message: string;
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: ErrorDetail[]; requestId?: string };
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
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
export const forbidden = (message: string) => new ApiError('FORBIDDEN', message);
export const unauthorized = () => new ApiError('UNAUTHORIZED', UNAUTHORIZED_MESSAGE);
export const notImplemented = (message = 'This operation is not implemented') => new ApiError('NOT_IMPLEMENTED', message);

/** One generic message for every authentication failure, so a caller learns nothing about why. */
export const UNAUTHORIZED_MESSAGE = 'Missing or invalid API key';

export function errorBody(code: ErrorCode, message: string, extra?: { details?: ErrorDetail[]; requestId?: string }): ErrorBody {
  const error: ErrorBody['error'] = { code, message };
  if (extra?.details && extra.details.length > 0) error.details = extra.details;
  if (extra?.requestId) error.requestId = extra.requestId;
  return { error };
}
