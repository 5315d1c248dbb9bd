// For server-rendered pages (login, MCP consent, CLI approval): who is signed in through the browser
// cookie, and how to send them to the sign-in page and back.
import type { Context } from 'koa';
import { authenticate, type Principal } from '../auth/index.ts';
import { AppError } from '../errors.ts';
import { safeNextPath } from '../auth/credentials/safe-next.ts';
import { SESSION_COOKIE } from './cookies.ts';
import type { Services } from '../compose/services.ts';

/**
 * The browser's fully signed-in principal (session cookie after every sign-in step, MFA included), or
 * undefined. Pending-MFA and enrollment tokens never count: they are not sessions.
 */
export async function signedInPrincipal(s: Services, ctx: Context): Promise<Principal | undefined> {
  const value = ctx.cookies.get(SESSION_COOKIE);
  if (!value) return undefined;
  try {
    const principal = await authenticate(s.auth, { via: 'cookie', value });
    return principal.credential === 'session' ? principal : undefined;
  } catch (err) {
    if (err instanceof AppError) return undefined;
    throw err;
  }
}

/** The sign-in page URL that comes back to `next` (a same-origin path) afterwards. */
export function loginUrl(next: string): string {
  return `/login?next=${encodeURIComponent(safeNextPath(next))}`;
}
