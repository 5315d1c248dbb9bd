// The one place where errors become HTTP: typed domain errors map by kind; anything else is a 500
// with a generic body, and its cause goes to the log with the request id.
import type { Context, Next } from 'koa';
import { AppError, MethodNotAllowed, RateLimited, ValidationFailed, type ErrorKind } from '../errors.ts';

const STATUS: Record<ErrorKind, number> = {
  invalid: 422,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  precondition_failed: 412,
  gone: 410,
  too_large: 413,
  rate_limited: 429,
  unavailable: 503,
};

/** The status of a typed error: pages that answer in HTML pick theirs here too. */
export function statusOf(err: AppError): number {
  return err instanceof ValidationFailed ? 422 : STATUS[err.kind];
}

/** Maps AppError kinds to status codes and bodies; hides everything else behind a 500. */
export async function errorHandler(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (err) {
    if (ctx.headerSent || !ctx.writable) {
      // A client that left makes its work stop with a typed error (a cancelled query): not a fault.
      if (!ctx.writable && err instanceof AppError) ctx.state.log?.info({ error_code: err.code }, 'the client left before the answer');
      else ctx.state.log?.error({ err }, 'error after the response started');
      return;
    }
    writeError(ctx, err);
  }
}

/**
 * Writes the response for `err` (also used by middleware that answers before routing). Every body
 * carries the stable `code`; a 422 is always the documented HTTPValidationError, whose `detail` is a
 * list of issues: a rule about the request as a whole (an archive refused, a query that does not
 * parse) is one issue with an empty `loc`, so clients read every 422 the same way.
 */
export function writeError(ctx: Context, err: unknown): void {
  if (err instanceof AppError) {
    ctx.status = statusOf(err);
    const data = err.data ? { data: err.data } : {};
    const detail = err instanceof ValidationFailed ? err.issues : ctx.status === 422 ? [{ loc: [], msg: err.message, type: 'value_error' }] : err.message;
    ctx.body = { detail, code: err.code, ...data };
    if (err instanceof RateLimited) ctx.set('Retry-After', String(err.retryAfterSeconds));
    if (err instanceof MethodNotAllowed) ctx.set('Allow', err.allowed.join(', '));
    if (err.kind === 'unauthorized') ctx.set('WWW-Authenticate', 'Bearer');
    return;
  }
  const status = httpStatusOf(err);
  if (status && status >= 400 && status < 500) {
    // Errors raised by Koa's own parsers (malformed body, payload too large...).
    ctx.status = status;
    ctx.body = { detail: status === 413 ? 'Request body too large' : 'Bad request', code: status === 413 ? 'BODY_TOO_LARGE' : 'BAD_REQUEST' };
    return;
  }
  ctx.state.log?.error({ err }, 'unexpected error');
  ctx.status = 500;
  ctx.body = { detail: 'Internal Server Error', code: 'INTERNAL_ERROR', request_id: ctx.state.requestId };
}

function httpStatusOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { status?: unknown; statusCode?: unknown; expose?: unknown };
  const s = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : undefined;
  return e.expose === false ? undefined : s;
}
