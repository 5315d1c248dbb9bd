// The MCP clients a user has connected with OAuth (one per grant) and disconnecting one, which
// deletes the grant with every token and code issued from it.
import { sql } from 'kysely';
import type { Principal } from '../principal.ts';
import type { Clock } from '../../clock.ts';
import { NotFound } from '../../errors.ts';
import type { AuthStore } from '../single-use-tables.ts';
import { parseAccountId } from './account.ts';

export interface ConnectedClient {
  grant_id: string;
  client_id: string;
  client_name: string | null;
  client_uri: string | null;
  org_id: string;
  scopes: string[];
  connected_at: number;
  expires_at: number | null;
}

interface GrantRow {
  id: string;
  payload: string;
  account_id: string | null;
  client_id: string | null;
  created_at: number;
  expires_at: number | null;
  client_payload: string | null;
}

type Deps = { store: AuthStore; clock: Clock };

/** The caller's live grants (account ids are `<user>:<org>`), with their clients' metadata. */
function ownGrants({ store, clock }: Deps, principal: Principal) {
  const prefix = `${principal.userId}:`;
  return store.db
    .selectFrom('oauth_models as g')
    .leftJoin('oauth_models as c', (j) => j.on('c.model', '=', 'Client').onRef('c.id', '=', 'g.client_id'))
    .select(['g.id', 'g.payload', 'g.account_id', 'g.client_id', 'g.created_at', 'g.expires_at', 'c.payload as client_payload'])
    .where('g.model', '=', 'Grant')
    .where(sql<boolean>`substr(g.account_id, 1, length(cast(${prefix} as text))) = ${prefix}`)
    .where((eb) => eb.or([eb('g.expires_at', 'is', null), eb('g.expires_at', '>', clock.now())]));
}

/** Lists the caller's connected clients across their organizations, newest first. */
export async function listConnectedClients(deps: Deps, principal: Principal): Promise<ConnectedClient[]> {
  const rows: GrantRow[] = await deps.store.all(ownGrants(deps, principal).orderBy('g.created_at', 'desc'));
  return rows.map(toClient);
}

/** Revokes one of the caller's grants and everything issued from it; 404 for anyone else's. */
export async function disconnectClient(deps: Deps, principal: Principal, grantId: string): Promise<void> {
  const { db } = deps.store;
  const removed = await deps.store.batch(
    [
      ownGrants(deps, principal).where('g.id', '=', grantId),
      db.deleteFrom('oauth_models').where((eb) => eb.or([eb('grant_id', '=', grantId), eb.and([eb('model', '=', 'Grant'), eb('id', '=', grantId)])])),
    ],
    { require: [0] },
  );
  if (!removed.ok) throw new NotFound('Connected client not found', 'CONNECTED_CLIENT_NOT_FOUND');
}

function toClient(row: GrantRow): ConnectedClient {
  const grant = JSON.parse(row.payload) as { openid?: { scope?: string }; resources?: Record<string, string> };
  const client = row.client_payload ? (JSON.parse(row.client_payload) as { client_name?: string; client_uri?: string }) : {};
  const scopes = new Set([...(grant.openid?.scope?.split(' ') ?? []), ...Object.values(grant.resources ?? {}).flatMap((s) => s.split(' '))]);
  return {
    grant_id: row.id,
    client_id: row.client_id ?? '',
    client_name: client.client_name ?? null,
    client_uri: client.client_uri ?? null,
    org_id: parseAccountId(row.account_id ?? '')?.orgId ?? '',
    scopes: [...scopes].filter(Boolean),
    connected_at: row.created_at,
    expires_at: row.expires_at,
  };
}
