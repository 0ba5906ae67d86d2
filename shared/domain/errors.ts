/**
 * What the domain and data layers can refuse, without any HTTP: the API layer (shared/api/response.ts,
 * `toApiError`) maps each reason to its status and error code. Messages are written for the API's
 * caller, so they pass through unchanged.
 */
export type DomainErrorReason = 'invalid' | 'not-found' | 'conflict' | 'precondition-failed' | 'cursor-expired' | 'busy';

export interface FieldProblem {
  field: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly reason: DomainErrorReason,
    message: string,
    readonly details?: FieldProblem[],
    /**
     * The refusal depends on state another request can change soon (a list bound a delete frees, a write
     * contending with others): an Idempotency-Key does not keep it, so a retry with the same key runs again.
     */
    readonly transient = false,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** Input the rules refuse (a 400 at the API). */
export const invalid = (message: string, details?: FieldProblem[]) => new DomainError('invalid', message, details);
/** Input refused because of one field, named in the message and the details. */
export const invalidField = (field: string, message: string) => new DomainError('invalid', `${field}: ${message}`, [{ field, message }]);
/** No such record in the caller's workspace: "<Kind> not found". */
export const notFound = (kind: string) => new DomainError('not-found', `${kind} not found`);
/** The change conflicts with stored state (a taken name, a record still in use, a state rule). */
export const conflict = (message: string) => new DomainError('conflict', message);
/** A whole list at its bound: a 409 that a delete can clear (so never kept for an Idempotency-Key). */
export const boundReached = (message: string) => new DomainError('conflict', message, undefined, true);
/**
 * Other requests kept changing the record (or what it references) for the whole retry budget: a 503 with
 * Retry-After (retryable, as a throttle is), never a 409.
 */
export const busy = (message: string) => new DomainError('busy', message, undefined, true);
/** The record is not the version the caller named (If-Match): nothing was changed. */
export const preconditionFailed = (kind: string) =>
  new DomainError('precondition-failed', `${kind} has changed since the ETag given in If-Match; read it again and retry with its current ETag`);
/** A position in the change feed older than its retention: the caller resynchronises from the lists. */
export const cursorExpired = (message: string) => new DomainError('cursor-expired', message);
