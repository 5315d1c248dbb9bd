import type { Context } from 'koa';
import type { ClientInfo } from '../auth/account/account-deps.ts';

/** Client address (a valid IP: the one trusted proxies saw, see client-address.ts) and user agent. */
export function clientInfo(ctx: Context): ClientInfo {
  return { ip: ctx.ip || 'unknown', userAgent: ctx.get('User-Agent').slice(0, 300) };
}
