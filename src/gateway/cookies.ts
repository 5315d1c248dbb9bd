import type { Context } from 'koa';

/** Name of the session cookie (APIKeyCookie in the OpenAPI document). */
export const SESSION_COOKIE = 'sextant_session';

/** Sets the HttpOnly session cookie; Secure whenever the service is reached over https. */
export function setSessionCookie(ctx: Context, token: string, maxAgeMs: number, secure: boolean): void {
  ctx.cookies.set(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure, maxAge: maxAgeMs, path: '/', signed: false });
}

export function clearSessionCookie(ctx: Context, secure: boolean): void {
  ctx.cookies.set(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'lax', secure, maxAge: 0, path: '/', signed: false });
}
