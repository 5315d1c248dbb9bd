// The store reads behind authenticating one request, each a single statement: the credential, its
// user, the organization and the membership come back as one row. Every request pays for these, and
// a statement outside a transaction takes and releases SQLite's WAL read lock (a few system calls),
// so one statement instead of four or six is most of what authenticating costs.
import { sql } from 'kysely';
import type { Executor } from '../../store/index.ts';
import type { TokenKind } from '../tokens/api-tokens.ts';
import type { Role } from '../principal.ts';

/** The caller as the store sees them in one organization: user, organization and membership. */
export interface CallerRow {
  user_id: string;
  email: string;
  disabled_at: number | null;
  token_version: number;
  /** Null when the organization no longer exists. */
  org_id: string | null;
  base_org_id: string | null;
  /** Null when the user is not (or no longer) a member. */
  role: Role | null;
  can_merge: number | null;
  /** Set while the membership is deactivated. */
  deactivated_at: number | null;
}

export interface TokenCallerRow extends CallerRow {
  token_id: string;
  kind: TokenKind;
  scopes: string;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
}

const CALLER = sql.raw('u.id AS user_id, u.email, u.disabled_at, u.token_version, o.id AS org_id, o.base_org_id, m.role, m.can_merge, m.deactivated_at');

/** An API, CLI or MCP token by the hash of its value, with its user, organization and membership. */
export function tokenCaller(store: Executor, tokenHash: string): Promise<TokenCallerRow | undefined> {
  return store.one(
    sql<TokenCallerRow>`SELECT t.id AS token_id, t.kind, t.scopes, t.expires_at, t.revoked_at, t.last_used_at, ${CALLER}
     FROM api_tokens t JOIN users u ON u.id = t.user_id
     LEFT JOIN organizations o ON o.id = t.org_id
     LEFT JOIN memberships m ON m.user_id = t.user_id AND m.org_id = t.org_id
     WHERE t.token_hash = ${tokenHash}`,
  );
}

export interface SessionCallerRow extends CallerRow {
  /** The session row the token names (all null when there is none). */
  s_user_id: string | null;
  s_org_id: string | null;
  s_kind: string | null;
  s_expires_at: number | null;
  s_ended_at: number | null;
  /** What minted an embedded session, and whether it still lives. */
  parent_session_id: string | null;
  parent_token_id: string | null;
  p_ended_at: number | null;
  p_expires_at: number | null;
  t_id: string | null;
  t_revoked_at: number | null;
  t_expires_at: number | null;
}

/** A JWT's subject in its organization, with the session it names (sid may be null: no session). */
export function sessionCaller(store: Executor, userId: string, orgId: string, sid: string | null): Promise<SessionCallerRow | undefined> {
  return store.one(
    sql<SessionCallerRow>`SELECT ${CALLER}, s.user_id AS s_user_id, s.org_id AS s_org_id, s.kind AS s_kind, s.expires_at AS s_expires_at,
            s.ended_at AS s_ended_at, s.parent_session_id, s.parent_token_id, p.ended_at AS p_ended_at,
            p.expires_at AS p_expires_at, t.id AS t_id, t.revoked_at AS t_revoked_at, t.expires_at AS t_expires_at
     FROM users u
     LEFT JOIN organizations o ON o.id = ${orgId}
     LEFT JOIN memberships m ON m.user_id = u.id AND m.org_id = ${orgId}
     LEFT JOIN sessions s ON s.id = ${sid}
     LEFT JOIN sessions p ON p.id = s.parent_session_id
     LEFT JOIN api_tokens t ON t.id = s.parent_token_id
     WHERE u.id = ${userId}`,
  );
}
