// On PostgreSQL every replica hears of every write to the credential tables, whichever process made
// it: migration 0101's triggers NOTIFY sextant_credentials when the write commits, and this listener
// drops the cache, also on each (re)connection, since notifications sent meanwhile are lost. The
// replica's own writes drop its cache at once already (the executor's watch); this covers the others.
// Imported by path (pg loads only where PostgreSQL is used).
import type { Executor } from '../../store/index.ts';
import { pgListen, type PgListener } from '../../store/pg-listen.ts';
import { credentialCache } from './credential-cache.ts';

export const CREDENTIALS_CHANNEL = 'sextant_credentials';

/** Drops the credential cache of `store` whenever the database at `url` announces a credential write; `notified` is told after each drop. */
export function listenForCredentialChanges(store: Executor, url: string, notified: () => void = () => {}): Promise<PgListener> {
  const cache = credentialCache(store);
  return pgListen(url, CREDENTIALS_CHANNEL, () => {
    cache.drop();
    notified();
  });
}
