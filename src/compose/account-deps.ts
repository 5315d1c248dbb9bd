// The account domain's port onto configuration, storage and mail.
import type { AccountDeps } from '../auth/account/account-deps.ts';
import type { Services } from './services.ts';
import { unconvertedDb } from './unconverted-db.ts';

/** The account domain's dependencies, taken from the services. */
export function accountDeps(s: Pick<Services, 'store' | 'executor' | 'clock' | 'config' | 'secretBox' | 'mailer' | 'log'>): AccountDeps {
  return {
    db: unconvertedDb(s.store),
    store: s.executor,
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

