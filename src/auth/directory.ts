// Organizations, workspaces, users and memberships: the SQL of the core tables.
import type { Clock } from '../clock.ts';
import { newId } from '../security/index.ts';
import { statement, type Db } from '../store/index.ts';
import type { Permission, Role } from './principal.ts';

export interface OrgRow {
  id: string;
  name: string;
  base_org_id: string | null;
  mfa_enforced: number;
  created_at: number;
}

export interface UserRow {
  id: string;
  email: string;
  name: string;
  slack_title: string;
  password_hash: string | null;
  identity_kind: string | null;
  email_verified_at: number | null;
  disabled_at: number | null;
  token_version: number;
  default_workspace_id: string | null;
  /** Sealed TOTP secrets and the last accepted time step (migration 0010). */
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_enabled_at: number | null;
  totp_last_step: number | null;
  created_at: number;
}

export interface MembershipRow {
  user_id: string;
  org_id: string;
  role: Role;
  can_merge: number;
  /** Set while an admin has deactivated the member (migration 0014). */
  deactivated_at: number | null;
}

/** Creates an organization, or a workspace when `baseOrgId` is given. */
export function createOrganization(
  db: Db,
  clock: Clock,
  { id = newId(8), name, baseOrgId = null, mfaEnforced = false }: { id?: string; name: string; baseOrgId?: string | null; mfaEnforced?: boolean },
): OrgRow {
  db.prepare('INSERT INTO organizations (id, name, base_org_id, mfa_enforced, created_at) VALUES (?, ?, ?, ?, ?)').run(
    id,
    name,
    baseOrgId,
    mfaEnforced ? 1 : 0,
    clock.now(),
  );
  return getOrganization(db, id)!;
}

export function getOrganization(db: Db, id: string): OrgRow | undefined {
  return statement(db, 'SELECT * FROM organizations WHERE id = ?').get(id) as OrgRow | undefined;
}

/** Creates a user; `passwordHash` is already hashed (see security/password.ts). */
export function createUser(
  db: Db,
  clock: Clock,
  {
    id = newId(),
    email,
    name = '',
    passwordHash = null,
    identityKind = passwordHash ? 'password' : null,
    emailVerified = false,
  }: { id?: string; email: string; name?: string; passwordHash?: string | null; identityKind?: string | null; emailVerified?: boolean },
): UserRow {
  const now = clock.now();
  db.prepare(
    `INSERT INTO users (id, email, name, password_hash, identity_kind, email_verified_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(id, email.trim().toLowerCase(), name, passwordHash, identityKind, emailVerified ? now : null, now);
  return getUser(db, id)!;
}

export function getUser(db: Db, id: string): UserRow | undefined {
  return statement(db, 'SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
}

/** Email addresses of the given users, by id (unknown ids are left out). */
export function userEmails(db: Db, ids: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const id of new Set(ids)) {
    const row = statement(db, 'SELECT email FROM users WHERE id = ?').get(id) as { email: string } | undefined;
    if (row) out.set(id, row.email);
  }
  return out;
}

export function findUserByEmail(db: Db, email: string): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE email = ?').get(email.trim().toLowerCase()) as UserRow | undefined;
}

/** Adds (or changes) a user's membership of an organization. */
export function setMembership(
  db: Db,
  clock: Clock,
  { userId, orgId, role, permissions = [] }: { userId: string; orgId: string; role: Role; permissions?: Permission[] },
): void {
  db.prepare(
    `INSERT INTO memberships (user_id, org_id, role, can_merge, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (user_id, org_id) DO UPDATE SET role = excluded.role, can_merge = excluded.can_merge`,
  ).run(userId, orgId, role, permissions.includes('merge_to_production') ? 1 : 0, clock.now());
}

export function getMembership(db: Db, userId: string, orgId: string): MembershipRow | undefined {
  return statement(db, 'SELECT user_id, org_id, role, can_merge, deactivated_at FROM memberships WHERE user_id = ? AND org_id = ?').get(userId, orgId) as
    | MembershipRow
    | undefined;
}

/** The user's base organization: the one non-workspace organization they belong to. */
export function baseOrgOf(db: Db, userId: string): OrgRow | undefined {
  return db
    .prepare(
      `SELECT o.* FROM organizations o JOIN memberships m ON m.org_id = o.id
       WHERE m.user_id = ? AND o.base_org_id IS NULL ORDER BY m.created_at LIMIT 1`,
    )
    .get(userId) as OrgRow | undefined;
}
