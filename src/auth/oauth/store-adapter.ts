// oidc-provider's storage on the asynchronous store (SQLite or PostgreSQL): one row per (model, id),
// expiry measured with the injected Clock (the provider checks its own expiry on top), revocation by
// grant in one statement. The provider reads `consumed` before it consumes a code or refresh token,
// which alone lets two replicas redeeming the same one at once both pass; so consuming goes through the
// single-use consumer (one conditional UPDATE), and the request that changes no row fails as a second
// use would.
import { sql } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Clock } from '../../clock.ts';
import { consumeOnce } from '../../security/index.ts';
import type { AuthStore } from '../single-use-tables.ts';

export interface StoreAdapterDeps {
  store: AuthStore;
  clock: Clock;
  /** The provider's error for a model consumed already (the caller lost a race to consume it). */
  alreadyConsumed: (model: string) => Error;
}

interface Row {
  payload: string;
  consumed_at: number | null;
}

/** Builds the adapter factory the provider calls once per model name. */
export function storeAdapterFactory(deps: StoreAdapterDeps): (model: string) => Adapter {
  return (model) => createStoreAdapter(deps, model);
}

function read(row: Row | undefined): AdapterPayload | undefined {
  if (!row) return undefined;
  const payload = JSON.parse(row.payload) as AdapterPayload;
  return row.consumed_at === null ? payload : { ...payload, consumed: Math.floor(row.consumed_at / 1000) };
}

/** The row of one model and id: created once (`created_at` stays), its other columns replaced. */
function upsertRow(store: AuthStore, model: string, id: string, payload: AdapterPayload, now: number, expiresIn: number | undefined) {
  return store.db
    .insertInto('oauth_models')
    .values({
      model,
      id,
      payload: JSON.stringify(payload),
      grant_id: payload.grantId ?? null,
      uid: payload.uid ?? null,
      account_id: model === 'Grant' ? (payload.accountId ?? null) : null,
      client_id: payload.clientId ?? payload.client_id ?? null,
      created_at: now,
      expires_at: expiresIn ? now + expiresIn * 1000 : null,
    })
    .onConflict((oc) =>
      oc.columns(['model', 'id']).doUpdateSet((eb) => ({
        payload: eb.ref('excluded.payload'),
        grant_id: eb.ref('excluded.grant_id'),
        uid: eb.ref('excluded.uid'),
        account_id: eb.ref('excluded.account_id'),
        client_id: eb.ref('excluded.client_id'),
        expires_at: eb.ref('excluded.expires_at'),
      })),
    );
}

function createStoreAdapter({ store, clock, alreadyConsumed }: StoreAdapterDeps, model: string): Adapter {
  const { db } = store;
  const ofModel = () => db.selectFrom('oauth_models').select(['payload', 'consumed_at']).where('model', '=', model);
  const live = () => ofModel().where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', clock.now())]));
  return {
    async upsert(id, payload, expiresIn) {
      await store.run(upsertRow(store, model, id, payload, clock.now(), expiresIn));
    },
    async find(id) {
      return read(await store.one(live().where('id', '=', id)));
    },
    async findByUid(uid) {
      return read(await store.one(live().where('uid', '=', uid)));
    },
    async findByUserCode() {
      return undefined; // device flow is off
    },
    async consume(id) {
      const won = await consumeOnce(store, { table: 'oauth_models', usedColumn: 'consumed_at', where: { model, id }, now: clock.now() });
      if (!won) throw alreadyConsumed(model);
    },
    async destroy(id) {
      await store.run(db.deleteFrom('oauth_models').where('model', '=', model).where('id', '=', id));
    },
    async revokeByGrantId(grantId) {
      await store.run(db.deleteFrom('oauth_models').where('model', '=', model).where('grant_id', '=', grantId));
    },
  };
}

/** When the provider first stored an interaction, by the injected Clock (undefined if unknown). */
export async function interactionCreatedAt(store: AuthStore, uid: string): Promise<number | undefined> {
  const row = await store.one(
    store.db.selectFrom('oauth_models').select('created_at').where('model', '=', 'Interaction').where('id', '=', uid),
  );
  return row?.created_at;
}

/** Registered clients that never obtained a grant are dropped after this long (open registration). */
const UNUSED_CLIENT_MS = 7 * 24 * 3600_000;

/** Deletes expired rows and clients that never got a grant; the service calls it hourly. */
export async function purgeExpiredOAuthModels(store: AuthStore, clock: Clock): Promise<number> {
  const now = clock.now();
  const expired = await store.run(store.db.deleteFrom('oauth_models').where('expires_at', 'is not', null).where('expires_at', '<=', now));
  const unused = await store.run(
    store.db
      .deleteFrom('oauth_models')
      .where('model', '=', 'Client')
      .where('created_at', '<=', now - UNUSED_CLIENT_MS)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('oauth_models as g').select(sql`1`.as('one')).where('g.model', '=', 'Grant').whereRef('g.client_id', '=', 'oauth_models.id'))),
      ),
  );
  return expired.changes + unused.changes;
}
