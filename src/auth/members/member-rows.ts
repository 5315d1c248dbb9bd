// The SQL behind the member list: one row per membership of the organization, with what an admin
// sees of the account (status, last sign-in, MFA, sign-in methods). Keyset pages follow the email.
import { statement, type Db } from '../../store/index.ts';
import type { Role } from '../principal.ts';

export interface MemberRow {
  user_id: string;
  email: string;
  name: string;
  role: Role;
  can_merge: number;
  deactivated_at: number | null;
  disabled_at: number | null;
  totp_enabled_at: number | null;
  has_password: number;
  identity_kind: string | null;
  has_sso: number;
  last_sign_in_at: number | null;
  joined_at: number;
}

const COLUMNS = `u.id AS user_id, u.email, u.name, m.role, m.can_merge, m.deactivated_at, u.disabled_at, u.totp_enabled_at,
  u.password_hash IS NOT NULL AS has_password, u.identity_kind,
  EXISTS (SELECT 1 FROM sso_identities i WHERE i.user_id = u.id) AS has_sso,
  (SELECT MAX(s.created_at) FROM sessions s WHERE s.user_id = u.id AND s.kind = 'session') AS last_sign_in_at,
  m.created_at AS joined_at`;

/** Escapes LIKE's wildcards so a search for `a_b` finds only `a_b`. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Up to `limit` members after the email `after`, whose name or email contains `q`. */
export function memberRows(db: Db, orgId: string, { q, after, limit }: { q: string | undefined; after: string | undefined; limit: number }): MemberRow[] {
  return statement(
    db,
    `SELECT ${COLUMNS} FROM memberships m JOIN users u ON u.id = m.user_id
     WHERE m.org_id = @org AND (@q IS NULL OR u.email LIKE @q ESCAPE '\\' OR u.name LIKE @q ESCAPE '\\')
       AND (@after IS NULL OR u.email > @after)
     ORDER BY u.email LIMIT @limit`,
  ).all({ org: orgId, q: q ? likePattern(q) : null, after: after ?? null, limit }) as MemberRow[];
}

/** One member of the organization, or undefined. */
export function memberRow(db: Db, orgId: string, userId: string): MemberRow | undefined {
  return statement(db, `SELECT ${COLUMNS} FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = ? AND u.id = ?`).get(orgId, userId) as
    | MemberRow
    | undefined;
}

/** Active admins of the organization (membership and account both active). */
export function activeAdminCount(db: Db, orgId: string): number {
  return statement(
    db,
    `SELECT COUNT(*) FROM memberships m JOIN users u ON u.id = m.user_id
     WHERE m.org_id = ? AND m.role = 'admin' AND m.deactivated_at IS NULL AND u.disabled_at IS NULL`,
  )
    .pluck()
    .get(orgId) as number;
}
