// One error base with a stable code and an HTTP-free kind; the gateway maps kinds to status codes
// in one place (src/gateway/error-handler.ts).

export type ErrorKind =
  | 'invalid'
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'precondition_failed'
  | 'gone'
  | 'too_large'
  | 'rate_limited'
  | 'unavailable';

/** A field-level problem, rendered as one entry of the 422 `detail` list. */
export interface FieldIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** Base of every expected failure. `message` is safe to show to the caller. */
export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Input that passed the request schema but breaks a domain rule on a named field (422). */
export class ValidationFailed extends AppError {
  constructor(
    readonly issues: FieldIssue[],
    message = 'Validation failed',
  ) {
    super('invalid', 'VALIDATION_FAILED', message);
  }
}

/** A list's `cursor` that no page of it handed out (altered, or another list's): 422 at the query's cursor. */
export class InvalidCursor extends ValidationFailed {
  constructor() {
    super([{ loc: ['query', 'cursor'], msg: 'Invalid cursor', type: 'value_error' }]);
  }
}

export class NotFound extends AppError {
  constructor(what = 'Not Found', code = 'NOT_FOUND') {
    super('not_found', code, what);
  }
}

/** A path that exists, asked with a method it does not take; `allowed` lists the ones it does. */
export class MethodNotAllowed extends AppError {
  constructor(readonly allowed: string[]) {
    super('method_not_allowed', 'METHOD_NOT_ALLOWED', 'Method Not Allowed');
  }
}

export class Unauthorized extends AppError {
  constructor(message = 'Not authenticated', code = 'NOT_AUTHENTICATED') {
    super('unauthorized', code, message);
  }
}

export class Forbidden extends AppError {
  constructor(message = 'Not allowed', code = 'FORBIDDEN') {
    super('forbidden', code, message);
  }
}

export class Conflict extends AppError {
  constructor(message: string, code = 'CONFLICT', data?: Record<string, unknown>) {
    super('conflict', code, message, data);
  }
}

export class RateLimited extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Too many attempts, try again later',
    code = 'RATE_LIMITED',
  ) {
    super('rate_limited', code, message, { retry_after: retryAfterSeconds });
  }
}
