// Principals of credentials seen recently, so that a client presenting the same credential again costs
// no store read (one statement took ~15 µs of a ~120 µs request in a profile, mostly SQLite's WAL read
// lock). Correctness rests on invalidation that no code path can forget: temporary triggers on every
// table a principal is made from (users, sessions, api_tokens, memberships, organizations) call back
// into JS on any write through the service's connection, and the whole cache is dropped. A revoked
// token, ended session, bumped token_version, disabled user or changed membership is therefore seen on
// the next request. Writes from another process (an operator's sqlite3 shell) are seen within
// MAX_AGE_MS; expiry is checked against the clock on every use.
import type { Db } from '../../store/index.ts';
import type { Principal } from '../principal.ts';

/** How long an entry is trusted without a write seen through this connection. */
export const MAX_AGE_MS = 1000;
const MAX_ENTRIES = 10_000;

interface Entry {
  principal: Principal;
  /** When the credential itself stops being valid (token or session expiry), ms. */
  expiresAt: number;
  cachedAt: number;
  generation: number;
}

export interface CredentialCache {
  get(key: string, now: number): Principal | undefined;
  set(key: string, principal: Principal, expiresAt: number, now: number): void;
}

const WATCHED: [table: string, events: string[]][] = [
  ['users', ['UPDATE', 'DELETE']],
  ['sessions', ['UPDATE', 'DELETE']],
  ['api_tokens', ['UPDATE OF revoked_at, expires_at, user_id, org_id, kind, scopes, token_hash', 'DELETE']],
  ['memberships', ['INSERT', 'UPDATE', 'DELETE']],
  ['organizations', ['UPDATE', 'DELETE']],
];

const caches = new WeakMap<Db, CredentialCache>();

/** The cache of `db`, made (and its triggers installed on this connection) on first use. */
export function credentialCache(db: Db): CredentialCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = createCache(db)));
  return cache;
}

function createCache(db: Db): CredentialCache {
  const entries = new Map<string, Entry>();
  let generation = 0;
  db.function('sextant_credentials_changed', { deterministic: false }, () => {
    generation++;
    entries.clear();
    return null;
  });
  for (const [table, events] of WATCHED) {
    for (const [i, event] of events.entries()) {
      db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS sextant_cc_${table}_${i} AFTER ${event} ON main.${table} BEGIN SELECT sextant_credentials_changed(); END`);
    }
  }
  return {
    get(key, now) {
      const e = entries.get(key);
      if (!e) return undefined;
      if (e.generation !== generation || e.expiresAt <= now || e.cachedAt + MAX_AGE_MS <= now || e.cachedAt > now) {
        entries.delete(key);
        return undefined;
      }
      return e.principal;
    },
    set(key, principal, expiresAt, now) {
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(key, { principal: Object.freeze(principal), expiresAt, cachedAt: now, generation });
    },
  };
}
