import type { Context } from 'koa';
import type { ClientInfo } from '../auth/account/account-deps.ts';

/** Client address (proxy-aware when trustProxy is on) and user agent. */
export function clientInfo(ctx: Context): ClientInfo {
  return { ip: ctx.ip || 'unknown', userAgent: ctx.get('User-Agent').slice(0, 300) };
}
