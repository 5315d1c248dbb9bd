// Small named middleware, one concern each. Those with nothing to do after the rest of the chain are
// plain functions returning next()'s promise: an async function would add a promise and a resumption
// per request for nothing (every request passes through all of them).
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../log.ts';
import { accessLineWriter } from './access-line.ts';

/**
 * What a request carries along: its id, a child logger with it (made on first use: most requests log
 * only their access line, and a pino child costs more than the rest of their logging), and whatever
 * later middleware adds (the principal). A class, so the lazy logger is a getter on the prototype
 * instead of a property defined on every request's state.
 */
class RequestState {
  [key: string]: unknown;
  #child: Logger | undefined;
  constructor(
    readonly requestId: string,
    readonly parentLog: Logger,
  ) {}
  get log(): Logger {
    return (this.#child ??= this.parentLog.child({ request_id: this.requestId }));
  }
}

/** Gives every request an id (a sane incoming X-Request-Id is kept) and a child logger that carries it. */
export function requestId(log: Logger) {
  return function requestIdMiddleware(ctx: Context, next: Next): Promise<void> {
    // Header names in lower case on the hot path: see securityHeaders.
    const incoming = ctx.get('x-request-id');
    const id = incoming && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.state = new RequestState(id, log);
    ctx.res.setHeader('x-request-id', id);
    return next();
  };
}

/** One structured line per request: path without the query string, which may carry tokens. */
export function accessLog(log: Logger) {
  // Its fields are fixed and none can hold a secret (redaction matches keys, not values), so the
  // access line skips the censor pass: ~4 of ~5 µs per line, on every request.
  const line = accessLineWriter(log.child({}, { redact: [] }));
  return async function accessLogMiddleware(ctx: Context, next: Next): Promise<void> {
    const started = performance.now();
    try {
      await next();
    } finally {
      line({ requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - started), userId: ctx.state.principal?.userId });
    }
  };
}

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Conservative security headers for an API that also serves a few server-rendered pages. `script-src`
 * is explicit because oidc-provider appends the hash of its auto-submitting form's script to it.
 */
export function securityHeaders(https: boolean) {
  // Set on Node's response directly, from one list made at start: Koa's set() adds a check and a
  // type switch per header on every request and changes nothing for constant string values. Names in
  // lower case (header names are case-insensitive): Node keys its header table by the lower-cased
  // name, and a name already in lower case is used as it is instead of a new string looked up in V8's
  // string table on every request.
  const headers: [string, string][] = [
    ['x-content-type-options', 'nosniff'],
    ['x-frame-options', 'DENY'],
    ['referrer-policy', 'no-referrer'],
    ['cross-origin-opener-policy', 'same-origin'],
    ['content-security-policy', "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'"],
    ...(https ? [['strict-transport-security', HSTS] as [string, string]] : []),
  ];
  return function securityHeadersMiddleware(ctx: Context, next: Next): Promise<void> {
    for (const [name, value] of headers) ctx.res.setHeader(name, value);
    // Behind a TLS-terminating proxy we trust, the browser talks https even when the base URL is not configured so.
    if (!https && ctx.state.forwardedHttps === true) ctx.res.setHeader('strict-transport-security', HSTS);
    return next();
  };
}

/**
 * Errors Koa reports on its own: those raised after the response began (a download's query stopped
 * mid-stream, a client gone). Without a listener Koa prints them to stderr with their stack, outside the
 * structured log; here they become one warning with the request's id and the error's stable code.
 */
export function logLateErrors(log: Logger) {
  return function onLateError(err: Error & { code?: unknown }, ctx?: Context): void {
    const state = ctx?.state as RequestState | undefined;
    log.warn({ request_id: state?.requestId, error_code: typeof err.code === 'string' ? err.code : undefined, message: err.message }, 'response ended by an error after it began');
  };
}
