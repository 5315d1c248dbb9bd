// oidc-provider's storage in SQLite: one row per (model, id), expiry measured with the injected Clock
// (the provider checks its own expiry on top), revocation by grant in one statement.
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Clock } from '../../clock.ts';
import { sql } from 'kysely';
import type { Db, Executor } from '../../store/index.ts';

interface Row {
  payload: string;
  consumed_at: number | null;
}

/** Builds the adapter factory the provider calls once per model name. */
export function sqliteAdapterFactory(db: Db, clock: Clock): (model: string) => Adapter {
  return (model) => createSqliteAdapter(db, clock, model);
}

function createSqliteAdapter(db: Db, clock: Clock, model: string): Adapter {
  const upsert = db.prepare(
    `INSERT INTO oauth_models (model, id, payload, grant_id, uid, account_id, client_id, created_at, expires_at)
     VALUES (@model, @id, @payload, @grant_id, @uid, @account_id, @client_id, @now, @expires_at)
     ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid,
       account_id = excluded.account_id, client_id = excluded.client_id, expires_at = excluded.expires_at`,
  );
  const live = `model = ? AND (expires_at IS NULL OR expires_at > ?)`;
  const byId = db.prepare(`SELECT payload, consumed_at FROM oauth_models WHERE ${live} AND id = ?`);
  const byUid = db.prepare(`SELECT payload, consumed_at FROM oauth_models WHERE ${live} AND uid = ?`);
  const read = (row: Row | undefined): AdapterPayload | undefined => {
    if (!row) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    return row.consumed_at === null ? payload : { ...payload, consumed: Math.floor(row.consumed_at / 1000) };
  };
  return {
    async upsert(id, payload, expiresIn) {
      const now = clock.now();
      upsert.run({
        model,
        id,
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        uid: payload.uid ?? null,
        account_id: model === 'Grant' ? (payload.accountId ?? null) : null,
        client_id: payload.clientId ?? payload.client_id ?? null,
        now,
        expires_at: expiresIn ? now + expiresIn * 1000 : null,
      });
    },
    async find(id) {
      return read(byId.get(model, clock.now(), id) as Row | undefined);
    },
    async findByUid(uid) {
      return read(byUid.get(model, clock.now(), uid) as Row | undefined);
    },
    async findByUserCode() {
      return undefined; // device flow is off
    },
    async consume(id) {
      db.prepare('UPDATE oauth_models SET consumed_at = ? WHERE model = ? AND id = ?').run(clock.now(), model, id);
    },
    async destroy(id) {
      db.prepare('DELETE FROM oauth_models WHERE model = ? AND id = ?').run(model, id);
    },
    async revokeByGrantId(grantId) {
      db.prepare('DELETE FROM oauth_models WHERE model = ? AND grant_id = ?').run(model, grantId);
    },
  };
}

/** When the provider first stored an interaction, by the injected Clock (undefined if unknown). */
export async function interactionCreatedAt(deps: { store: Executor }, uid: string): Promise<number | undefined> {
  const row = await deps.store.one<{ created_at: number }>(sql`SELECT created_at FROM oauth_models WHERE model = 'Interaction' AND id = ${uid}`);
  return row?.created_at;
}

/** Registered clients that never obtained a grant are dropped after this long (open registration). */
const UNUSED_CLIENT_MS = 7 * 24 * 3600_000;

/** Deletes expired rows and clients that never got a grant; the service calls it hourly. */
export function purgeExpiredOAuthModels(db: Db, clock: Clock): number {
  const now = clock.now();
  const expired = db.prepare('DELETE FROM oauth_models WHERE expires_at IS NOT NULL AND expires_at <= ?').run(now).changes;
  const unused = db
    .prepare(
      `DELETE FROM oauth_models WHERE model = 'Client' AND created_at <= ?
       AND NOT EXISTS (SELECT 1 FROM oauth_models g WHERE g.model = 'Grant' AND g.client_id = oauth_models.id)`,
    )
    .run(now - UNUSED_CLIENT_MS).changes;
  return expired + unused;
}
