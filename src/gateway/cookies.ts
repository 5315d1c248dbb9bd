import type { Context } from 'koa';
import { arrivedOverHttps } from './client-address.ts';

/** Name of the session cookie (APIKeyCookie in the OpenAPI document). */
export const SESSION_COOKIE = 'sextant_session';

/**
 * A cookie's Secure flag: `configured` (the base URL is https) or a trusted proxy's `X-Forwarded-Proto:
 * https`. Koa's cookie jar is told too, so that it does not refuse a Secure cookie on the plain hop behind
 * the proxy.
 */
export function secureFlag(ctx: Context, configured: boolean): boolean {
  const secure = arrivedOverHttps(ctx, configured);
  if (secure) ctx.cookies.secure = true;
  return secure;
}

/** Sets the HttpOnly session cookie; Secure whenever the service is reached over https. */
export function setSessionCookie(ctx: Context, token: string, maxAgeMs: number, secure: boolean): void {
  ctx.cookies.set(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure: secureFlag(ctx, secure), maxAge: maxAgeMs, path: '/', signed: false });
}

export function clearSessionCookie(ctx: Context, secure: boolean): void {
  ctx.cookies.set(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'lax', secure: secureFlag(ctx, secure), maxAge: 0, path: '/', signed: false });
}

/** Name of the short-lived last-workspace hint cookie (not a credential: the client reads it). */
export const WORKSPACE_HINT_COOKIE = 'sextant_last_workspace';
export const WORKSPACE_HINT_MAX_AGE_MS = 10 * 60_000;

/** Remembers briefly which workspace the user switched to, so a reload can offer it again. */
export function setWorkspaceHintCookie(ctx: Context, orgId: string | null, secure: boolean): void {
  ctx.cookies.set(WORKSPACE_HINT_COOKIE, orgId ?? '', { httpOnly: false, sameSite: 'lax', secure: secureFlag(ctx, secure), maxAge: orgId ? WORKSPACE_HINT_MAX_AGE_MS : 0, path: '/', signed: false });
}

/** Name of the remembered-device cookie (auth/credentials/device-token.ts); only sign-in routes read it. */
export const DEVICE_COOKIE = 'sextant_device';
const DEVICE_COOKIE_PATH = '/api/auth';

/** Sets the HttpOnly remembered-device cookie, sent only to the authentication routes. */
export function setDeviceCookie(ctx: Context, value: string, maxAgeMs: number, secure: boolean): void {
  ctx.cookies.set(DEVICE_COOKIE, value, { httpOnly: true, sameSite: 'lax', secure: secureFlag(ctx, secure), maxAge: maxAgeMs, path: DEVICE_COOKIE_PATH, signed: false });
}
