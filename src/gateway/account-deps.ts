import type { Context } from 'koa';
import type { AccountDeps, ClientInfo } from '../auth/account-deps.ts';
import type { Services } from './services.ts';

/** The account domain's dependencies, taken from the services. */
export function accountDeps(s: Pick<Services, 'store' | 'clock' | 'config' | 'secretBox' | 'mailer' | 'log'>): AccountDeps {
  return {
    db: s.store.db,
    clock: s.clock,
    jwtKey: s.config.secrets.jwtKey,
    secretBox: s.secretBox,
    mailer: s.mailer,
    mailLimits: { perAddressPerHour: s.config.mail.perAddressPerHour, perClientPerHour: s.config.mail.perClientPerHour },
    log: s.log,
    baseUrl: s.config.baseUrl,
    bcryptCost: s.config.bcryptCost,
  };
}

/** Client address (proxy-aware when trustProxy is on) and user agent. */
export function clientInfo(ctx: Context): ClientInfo {
  return { ip: ctx.ip || 'unknown', userAgent: ctx.get('User-Agent').slice(0, 300) };
}
