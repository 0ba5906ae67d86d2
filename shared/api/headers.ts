import type { APIGatewayProxyEvent } from 'aws-lambda';
import { validationError } from './errors';
import { headerValue, IDEMPOTENCY_KEY_HEADER } from './gateway-edge';

/** The API's own request and response header names are declared with the gateway edge (CORS lists them). */
export { IDEMPOTENCY_KEY_HEADER, NEXT_CURSOR_HEADER, REPLAYED_HEADER } from './gateway-edge';
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** The request asks for CSV: its Accept header names text/csv (JSON stays the default). */
export function acceptsCsv(headers: APIGatewayProxyEvent['headers'] | null): boolean {
  const accept = headerValue(headers, 'Accept');
  return accept !== undefined && accept.split(',').some((t) => t.split(';')[0]!.trim().toLowerCase() === 'text/csv');
}

/** 1-255 printable ASCII characters. */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** The request's Idempotency-Key, checked (400 naming the header when malformed), or undefined. */
export function idempotencyKeyOf(method: string, headers: APIGatewayProxyEvent['headers'] | null): string | undefined {
  if (method === 'GET') return undefined;
  const key = headerValue(headers, IDEMPOTENCY_KEY_HEADER);
  if (key === undefined) return undefined;
  if (!KEY_PATTERN.test(key)) {
    throw validationError(`${IDEMPOTENCY_KEY_HEADER}: must be 1-255 printable ASCII characters`, [
      { field: IDEMPOTENCY_KEY_HEADER, message: 'must be 1-255 printable ASCII characters' },
    ]);
  }
  return key;
}
