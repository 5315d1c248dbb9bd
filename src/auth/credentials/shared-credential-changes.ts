// SQLite replicas drop each other's verified-credential caches. The triggers behind credential-cache.ts
// see only the writes made through this process's connection, so each such write is announced on the
// bus, once per event-loop turn however many rows it touched, and after the turn's transaction has
// committed (an announcement before it would let another replica read and cache the old rows again).
// On receipt from another replica, this one's cache is dropped. An announcement lost while Redis is
// away is covered by the cache's MAX_AGE_MS, and a resync drops the cache as well.
// On PostgreSQL this is not needed: the database itself notifies every replica of every such write,
// from whichever process (pg-credential-changes.ts).
import type { MessageBus } from '../../ops/bus/index.ts';
import type { Executor } from '../../store/index.ts';
import { credentialCache } from './credential-cache.ts';

const CHANNEL = 'auth:credentials-changed';

/** Connects the credential cache of `store` to the other replicas through `bus`. */
export function shareCredentialChanges(store: Executor, bus: MessageBus): void {
  let announcing = false;
  // Made now, with its watch: this replica's writes are announced even before it verified a credential.
  const cache = credentialCache(store);
  cache.onWrite(() => {
    if (announcing) return;
    announcing = true;
    setImmediate(() => {
      announcing = false;
      bus.publish(CHANNEL, {});
    });
  });
  const drop = () => cache.drop();
  bus.subscribe(CHANNEL, (_message, local) => {
    if (!local) drop();
  }, drop);
}
