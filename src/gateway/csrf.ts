// Cross-site request forgery protection for the REST API used from a browser. A request that changes
// state and is carried by the session cookie must repeat, in the `X-CSRF-Token` header, the value of
// the `sextant_csrf` cookie (double submit): only a page of this origin can read that cookie and set
// a custom header, a form or a fetch from another site cannot. Requests with `API-KEY` or
// `Authorization` never use the cookie and are left alone. Server-rendered forms outside /api carry
// their own session-bound tokens (consent, CLI approval).
import type { Context, Next } from 'koa';
import { Forbidden } from '../errors.ts';
import { constantTimeEqual, newSecret } from '../security/index.ts';
import { SESSION_COOKIE, secureFlag } from './cookies.ts';

/** The readable cookie holding the token the web client echoes. */
export const CSRF_COOKIE = 'sextant_csrf';
/** The header that must repeat it. */
export const CSRF_HEADER = 'X-CSRF-Token';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export class CsrfRefused extends Forbidden {
  constructor(reason: 'token' | 'cross_site') {
    super(
      reason === 'token' ? 'Missing or wrong CSRF token: reload the page and try again' : 'Cross-site requests are not accepted',
      reason === 'token' ? 'CSRF_TOKEN_INVALID' : 'CROSS_SITE_REQUEST',
    );
  }
}

/**
 * Enforces, for unsafe requests to /api without an explicit credential header: no cross-site
 * browser request (Fetch Metadata; this also stops login CSRF, where no cookie is sent yet) unless
 * its origin is an allowed CORS origin, and the double-submit token whenever the session cookie is sent.
 */
export function csrfProtection(allowedOrigins: string[]) {
  // Not async: a refusal thrown here is turned into a rejected promise by Koa's dispatcher.
  return function csrfMiddleware(ctx: Context, next: Next): Promise<void> {
    if (!SAFE.has(ctx.method) && ctx.path.startsWith('/api/') && !ctx.get('API-KEY') && !ctx.get('Authorization')) {
      const site = ctx.get('Sec-Fetch-Site');
      if ((site === 'cross-site' || site === 'same-site') && !allowedOrigins.includes(ctx.get('Origin'))) throw new CsrfRefused('cross_site');
      if (ctx.cookies.get(SESSION_COOKIE)) {
        const cookie = ctx.cookies.get(CSRF_COOKIE) ?? '';
        const header = ctx.get(CSRF_HEADER);
        if (cookie.length < 16 || !constantTimeEqual(cookie, header)) throw new CsrfRefused('token');
      }
    }
    return next();
  };
}

/** Gives the browser a CSRF cookie when it has none (on the web client's page loads). */
export function ensureCsrfCookie(ctx: Context, secure: boolean): void {
  if ((ctx.cookies.get(CSRF_COOKIE) ?? '').length >= 16) return;
  // Readable by the page on purpose; SameSite=Strict keeps it off every cross-site request.
  ctx.cookies.set(CSRF_COOKIE, newSecret(), { httpOnly: false, sameSite: 'strict', secure: secureFlag(ctx, secure), path: '/', maxAge: 365 * 24 * 3600_000, signed: false, overwrite: true });
}
