import type { Context } from 'koa';
import { rememberDevice } from '../auth/credentials/device-token.ts';
import type { Services } from '../compose/services.ts';
import { DEVICE_COOKIE, setDeviceCookie } from './cookies.ts';

/** After a successful sign-in: (re)sets the signed cookie that exempts this device from the per-account sign-in ceiling. */
export function rememberSignedInDevice(s: Services, ctx: Context, userId: string): void {
  const { value, maxAgeMs } = rememberDevice({ jwtKey: s.config.secrets.jwtKey, clock: s.clock }, userId, ctx.cookies.get(DEVICE_COOKIE));
  setDeviceCookie(ctx, value, maxAgeMs, s.config.baseUrl.startsWith('https://'));
}
