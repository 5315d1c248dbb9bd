import type { Context } from 'koa';
import type { ClientInfo } from '../auth/account/account-deps.ts';
import { DEVICE_COOKIE } from './cookies.ts';

/** Client address (a valid IP: the one trusted proxies saw, see client-address.ts), user agent and the remembered-device cookie. */
export function clientInfo(ctx: Context): ClientInfo {
  return { ip: ctx.ip || 'unknown', userAgent: ctx.get('User-Agent').slice(0, 300), device: ctx.cookies.get(DEVICE_COOKIE) };
}
