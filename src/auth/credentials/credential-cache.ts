// Principals of credentials seen recently, so that a client presenting the same credential again costs
// no store read (one statement took ~15 µs of a ~120 µs request in a profile, mostly SQLite's WAL read
// lock). Correctness rests on invalidation that no code path can forget: temporary triggers on every
// table a principal is made from (users, sessions, api_tokens, memberships, organizations) call back
// into JS on any write through the service's connection, and the whole cache is dropped. A revoked
// token, ended session, bumped token_version, disabled user or changed membership is therefore seen on
// the next request. Replicas tell each other of such writes (shared-credential-changes.ts); writes
// from any other process (an operator's sqlite3 shell) are seen within MAX_AGE_MS; expiry is checked
// against the clock on every use.
import type { Clock } from '../../clock.ts';
import type { Db, Executor } from '../../store/index.ts';
import { getUser, type UserRow } from '../directory.ts';
import type { Principal } from '../principal.ts';

/** How long an entry is trusted without a write seen through this connection. */
export const MAX_AGE_MS = 1000;
const MAX_ENTRIES = 10_000;

interface Entry {
  value: Principal | UserRow;
  /** When the credential itself stops being valid (token or session expiry), ms. */
  expiresAt: number;
  cachedAt: number;
  generation: number;
}

export interface CredentialCache {
  get(key: string, now: number): Principal | undefined;
  set(key: string, principal: Principal, expiresAt: number, now: number): void;
  /** A user's row, kept like principals (the users table is watched): `/api/auth/me` on every page load. */
  user(id: string, now: number): UserRow | undefined;
  keepUser(row: UserRow, now: number): void;
  /** Drops every entry: another replica wrote to a watched table (shared-credential-changes.ts). */
  drop(): void;
}

const WATCHED: [table: string, events: string[]][] = [
  ['users', ['UPDATE', 'DELETE']],
  ['sessions', ['UPDATE', 'DELETE']],
  ['api_tokens', ['UPDATE OF revoked_at, expires_at, user_id, org_id, kind, scopes, token_hash', 'DELETE']],
  ['memberships', ['INSERT', 'UPDATE', 'DELETE']],
  ['organizations', ['UPDATE', 'DELETE']],
];

const caches = new WeakMap<Db, CredentialCache>();
/** Told when a write through the connection dropped the cache (replicas are told in turn). */
const writeListeners = new WeakMap<Db, () => void>();

export function onCredentialWrite(db: Db, listener: () => void): void {
  writeListeners.set(db, listener);
}

/** The cache of `db`, made (and its triggers installed on this connection) on first use. */
export function credentialCache(db: Db): CredentialCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = createCache(db)));
  return cache;
}

/** The caller's user row as the credential cache holds it (the principal was just read from it, the same writes empty both). */
export async function cachedUser(deps: { db: Db; store: Executor; clock: Clock }, userId: string): Promise<UserRow | undefined> {
  const cache = credentialCache(deps.db);
  const now = deps.clock.now();
  const cached = cache.user(userId, now);
  if (cached) return cached;
  const row = await getUser(deps.store, userId);
  if (row) cache.keepUser(row, now);
  return row;
}

function createCache(db: Db): CredentialCache {
  const entries = new Map<string, Entry>();
  let generation = 0;
  const drop = () => {
    generation++;
    entries.clear();
  };
  db.function('sextant_credentials_changed', { deterministic: false }, () => {
    drop();
    writeListeners.get(db)?.();
    return null;
  });
  for (const [table, events] of WATCHED) {
    for (const [i, event] of events.entries()) {
      db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS sextant_cc_${table}_${i} AFTER ${event} ON main.${table} BEGIN SELECT sextant_credentials_changed(); END`);
    }
  }
  const fresh = (key: string, now: number) => {
    const e = entries.get(key);
    if (!e) return undefined;
    if (e.generation !== generation || e.expiresAt <= now || e.cachedAt + MAX_AGE_MS <= now || e.cachedAt > now) {
      entries.delete(key);
      return undefined;
    }
    return e.value;
  };
  const keep = (key: string, value: Principal | UserRow, expiresAt: number, now: number) => {
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    entries.set(key, { value: Object.freeze(value), expiresAt, cachedAt: now, generation });
  };
  return {
    get: (key, now) => fresh(`p:${key}`, now) as Principal | undefined,
    set: (key, principal, expiresAt, now) => keep(`p:${key}`, principal, expiresAt, now),
    user: (id, now) => fresh(`u:${id}`, now) as UserRow | undefined,
    keepUser: (row, now) => keep(`u:${row.id}`, row, Infinity, now),
    drop,
  };
}
