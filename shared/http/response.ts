import type { APIGatewayProxyResult } from 'aws-lambda';
import { ApiError, errorBody, type ErrorCode } from '../errors';

export const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' } as const;

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

export function errorResponse(code: ErrorCode, status: number, message: string, extra: { requestId?: string; details?: ApiError['details']; headers?: Record<string, string> } = {}) {
  return json(status, errorBody(code, message, extra), extra.headers);
}

const THROTTLE_ERRORS = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded', 'TimeoutError', 'RequestTimeout']);

/**
 * The one mapping from anything thrown to a response. Typed ApiErrors keep their code and message;
 * a malformed JSON body is a 400; DynamoDB throttling/timeouts are a retryable 503; everything else
 * is a 500 whose body carries only the request id.
 */
export function toErrorResponse(err: unknown, requestId: string): { response: APIGatewayProxyResult; unexpected: boolean } {
  if (err instanceof ApiError) {
    return { response: errorResponse(err.code, err.status, err.message, { details: err.details, headers: err.headers, requestId: err.status >= 500 ? requestId : undefined }), unexpected: false };
  }
  const e = err as { name?: string; cause?: { package?: string }; $metadata?: unknown; statusCode?: number } | undefined;
  if (e?.cause?.package === '@middy/http-json-body-parser') {
    return { response: errorResponse('VALIDATION_ERROR', 400, 'Request body must be valid JSON', { details: [{ field: 'body', message: 'malformed JSON' }] }), unexpected: false };
  }
  if (e?.name && THROTTLE_ERRORS.has(e.name)) {
    return {
      response: errorResponse('SERVICE_UNAVAILABLE', 503, 'The service is busy; retry after a short wait', { requestId, headers: { 'Retry-After': '1' } }),
      unexpected: true,
    };
  }
  return { response: errorResponse('INTERNAL_ERROR', 500, 'An unexpected error occurred', { requestId }), unexpected: true };
}
