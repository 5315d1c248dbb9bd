// The MCP clients a user has connected with OAuth (one per grant) and disconnecting one, which
// deletes the grant with every token and code issued from it.
import type { Principal } from '../index.ts';
import type { Clock } from '../../clock.ts';
import { NotFound } from '../../errors.ts';
import type { Db } from '../../store/index.ts';
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
  account_id: string;
  client_id: string;
  created_at: number;
  expires_at: number | null;
  client_payload: string | null;
}

const ownGrants = `SELECT g.id, g.payload, g.account_id, g.client_id, g.created_at, g.expires_at, c.payload AS client_payload
  FROM oauth_models g LEFT JOIN oauth_models c ON c.model = 'Client' AND c.id = g.client_id
  WHERE g.model = 'Grant' AND substr(g.account_id, 1, length(@user) + 1) = @user || ':' AND (g.expires_at IS NULL OR g.expires_at > @now)`;

/** Lists the caller's connected clients across their organizations, newest first. */
export function listConnectedClients({ db, clock }: { db: Db; clock: Clock }, principal: Principal): ConnectedClient[] {
  const rows = db.prepare(`${ownGrants} ORDER BY g.created_at DESC`).all({ user: principal.userId, now: clock.now() }) as GrantRow[];
  return rows.map(toClient);
}

/** Revokes one of the caller's grants and everything issued from it; 404 for anyone else's. */
export function disconnectClient({ db, clock }: { db: Db; clock: Clock }, principal: Principal, grantId: string): void {
  const row = db.prepare(`${ownGrants} AND g.id = @grant`).get({ user: principal.userId, now: clock.now(), grant: grantId });
  if (!row) throw new NotFound('Connected client not found', 'CONNECTED_CLIENT_NOT_FOUND');
  db.prepare("DELETE FROM oauth_models WHERE grant_id = ? OR (model = 'Grant' AND id = ?)").run(grantId, grantId);
}

function toClient(row: GrantRow): ConnectedClient {
  const grant = JSON.parse(row.payload) as { openid?: { scope?: string }; resources?: Record<string, string> };
  const client = row.client_payload ? (JSON.parse(row.client_payload) as { client_name?: string; client_uri?: string }) : {};
  const scopes = new Set([...(grant.openid?.scope?.split(' ') ?? []), ...Object.values(grant.resources ?? {}).flatMap((s) => s.split(' '))]);
  return {
    grant_id: row.id,
    client_id: row.client_id,
    client_name: client.client_name ?? null,
    client_uri: client.client_uri ?? null,
    org_id: parseAccountId(row.account_id)?.orgId ?? '',
    scopes: [...scopes].filter(Boolean),
    connected_at: row.created_at,
    expires_at: row.expires_at,
  };
}
