// Principals of credentials seen recently, so that a client presenting the same credential again costs
// no store read (one statement took ~15 µs of a ~120 µs request in a profile, mostly SQLite's WAL read
// lock). Correctness rests on invalidation that no code path can forget: the store watches every table
// a principal is made from (users, sessions, api_tokens, memberships, organizations) and the whole
// cache is dropped on any write to them. On SQLite, temporary triggers see every write through the
// service's connection; on PostgreSQL the executor reports its own writes once committed, and the
// other processes' arrive as notifications (pg-credential-changes.ts, migration 0101). A revoked token,
// ended session, bumped token_version, disabled user or changed membership is therefore seen on the
// next request. SQLite replicas tell each other through the bus (shared-credential-changes.ts); writes
// from any other process (an operator's sqlite3 shell) are seen within MAX_AGE_MS; expiry is checked
// against the clock on every use.
import type { Clock } from '../../clock.ts';
import type { MaybePromise } from '../../shared/settled.ts';
import type { Executor, WatchedTables } from '../../store/index.ts';
import { getUser, type UserRow } from '../directory.ts';
import type { Principal } from '../principal.ts';

/** How long an entry is trusted without a write seen. */
export const MAX_AGE_MS = 1000;
const MAX_ENTRIES = 10_000;

/** The writes that change a principal. Recording a token's use (last_used_at) is not one. */
export const CREDENTIAL_TABLES: WatchedTables = {
  users: { update: true, delete: true },
  sessions: { update: true, delete: true },
  api_tokens: { update: ['revoked_at', 'expires_at', 'user_id', 'org_id', 'kind', 'scopes', 'token_hash'], delete: true },
  memberships: { insert: true, update: true, delete: true },
  organizations: { update: true, delete: true },
};

interface Entry {
  value: Principal | UserRow;
  /** When the credential itself stops being valid (token or session expiry), ms. */
  expiresAt: number;
  cachedAt: number;
  generation: number;
}

export interface CredentialCache {
  /**
   * The generation to pass to `set` for what is read from the store after this call: an entry read
   * before a drop (a write committed while the read was under way) is then not kept.
   */
  generation(): number;
  get(key: string, now: number): Principal | undefined;
  set(key: string, principal: Principal, expiresAt: number, now: number, generation: number): void;
  /** A user's row, kept like principals (the users table is watched): `/api/auth/me` on every page load. */
  user(id: string, now: number): UserRow | undefined;
  keepUser(row: UserRow, now: number, generation: number): void;
  /** Drops every entry: another replica wrote to a watched table. */
  drop(): void;
  /** Told after a write of this process dropped the cache (replicas are told in turn). */
  onWrite(listener: () => void): void;
}

const caches = new WeakMap<Executor, CredentialCache>();

/** The cache of the service using `store`, made (and the watch installed) on first use. */
export function credentialCache(store: Executor): CredentialCache {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = createCache(store)));
  return cache;
}

/**
 * The caller's user row as the credential cache holds it (the principal was just read from it, the
 * same writes empty both): at once when held, else read and kept.
 */
export function cachedUser(deps: { store: Executor; clock: Clock }, userId: string): MaybePromise<UserRow | undefined> {
  const cache = credentialCache(deps.store);
  const now = deps.clock.now();
  return cache.user(userId, now) ?? readUser(deps.store, cache, userId, now);
}

async function readUser(store: Executor, cache: CredentialCache, userId: string, now: number): Promise<UserRow | undefined> {
  const generation = cache.generation();
  const row = await getUser(store, userId);
  if (row) cache.keepUser(row, now, generation);
  return row;
}

function createCache(store: Executor): CredentialCache {
  const entries = new Map<string, Entry>();
  const writeListeners: (() => void)[] = [];
  let generation = 0;
  const drop = () => {
    generation++;
    entries.clear();
  };
  store.watch(CREDENTIAL_TABLES, () => {
    drop();
    for (const listener of writeListeners) listener();
  });
  const fresh = (key: string, now: number) => {
    const e = entries.get(key);
    if (!e) return undefined;
    if (e.generation !== generation || e.expiresAt <= now || e.cachedAt + MAX_AGE_MS <= now || e.cachedAt > now) {
      entries.delete(key);
      return undefined;
    }
    return e.value;
  };
  const keep = (key: string, value: Principal | UserRow, expiresAt: number, now: number, seen: number) => {
    if (seen !== generation) return;
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    entries.set(key, { value: Object.freeze(value), expiresAt, cachedAt: now, generation });
  };
  return {
    generation: () => generation,
    get: (key, now) => fresh(`p:${key}`, now) as Principal | undefined,
    set: (key, principal, expiresAt, now, seen) => keep(`p:${key}`, principal, expiresAt, now, seen),
    user: (id, now) => fresh(`u:${id}`, now) as UserRow | undefined,
    keepUser: (row, now, seen) => keep(`u:${row.id}`, row, Infinity, now, seen),
    drop,
    onWrite: (listener) => void writeListeners.push(listener),
  };
}
