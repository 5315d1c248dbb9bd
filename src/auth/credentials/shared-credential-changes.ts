// Replicas drop each other's verified-credential caches. The triggers of credential-cache.ts see only
// the writes made through this process's connection, so each such write is announced on the bus, once
// per event-loop turn however many rows it touched, and after the turn's transaction has committed
// (an announcement before it would let another replica read and cache the old rows again). On
// receipt from another replica, this one's cache is dropped. An announcement lost while Redis is away
// is covered by the cache's MAX_AGE_MS, and a resync drops the cache as well.
import type { MessageBus } from '../../ops/bus/index.ts';
import type { Db } from '../../store/index.ts';
import { credentialCache, onCredentialWrite } from './credential-cache.ts';

const CHANNEL = 'auth:credentials-changed';

/** Connects the credential cache of `db` to the other replicas through `bus`. */
export function shareCredentialChanges(db: Db, bus: MessageBus): void {
  let announcing = false;
  onCredentialWrite(db, () => {
    if (announcing) return;
    announcing = true;
    setImmediate(() => {
      announcing = false;
      bus.publish(CHANNEL, {});
    });
  });
  // The triggers are installed now: this replica's writes are announced even before it verified a credential.
  const cache = credentialCache(db);
  const drop = () => cache.drop();
  bus.subscribe(CHANNEL, (_message, local) => {
    if (!local) drop();
  }, drop);
}
