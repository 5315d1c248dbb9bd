// Organizations, workspaces, users and memberships: the statements of the core tables, on the
// asynchronous store (one executor serves both dialects).
import type { Clock } from '../clock.ts';
import { newId } from '../security/index.ts';
import type { Executor, Query } from '../store/index.ts';
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

export interface NewOrganization {
  id?: string;
  name: string;
  baseOrgId?: string | null;
  mfaEnforced?: boolean;
}

/** The INSERT of an organization (or a workspace when `baseOrgId` is given), returning its row: for a batch. */
export function organizationInsert(store: Executor, clock: Clock, { id = newId(8), name, baseOrgId = null, mfaEnforced = false }: NewOrganization): Query<OrgRow> {
  return store.db
    .insertInto('organizations')
    .values({ id, name, base_org_id: baseOrgId, mfa_enforced: mfaEnforced ? 1 : 0, created_at: clock.now() })
    .returningAll();
}

/** Creates an organization, or a workspace when `baseOrgId` is given. */
export async function createOrganization(store: Executor, clock: Clock, org: NewOrganization): Promise<OrgRow> {
  return inserted(await store.one(organizationInsert(store, clock, org)));
}

export function getOrganization(store: Executor, id: string): Promise<OrgRow | undefined> {
  return store.one<OrgRow>(store.db.selectFrom('organizations').selectAll().where('id', '=', id));
}

export interface NewUser {
  id?: string;
  email: string;
  name?: string;
  /** Already hashed (see security/password.ts). */
  passwordHash?: string | null;
  identityKind?: string | null;
  emailVerified?: boolean;
}

/** The INSERT of a user, returning its row: for a batch. */
export function userInsert(
  store: Executor,
  clock: Clock,
  { id = newId(), email, name = '', passwordHash = null, identityKind = passwordHash ? 'password' : null, emailVerified = false }: NewUser,
): Query<UserRow> {
  const now = clock.now();
  return store.db
    .insertInto('users')
    .values({ id, email: normalEmail(email), name, password_hash: passwordHash, identity_kind: identityKind, email_verified_at: emailVerified ? now : null, created_at: now })
    .returningAll();
}

/** Creates a user. */
export async function createUser(store: Executor, clock: Clock, user: NewUser): Promise<UserRow> {
  return inserted(await store.one(userInsert(store, clock, user)));
}

export function getUser(store: Executor, id: string): Promise<UserRow | undefined> {
  return store.one<UserRow>(store.db.selectFrom('users').selectAll().where('id', '=', id));
}

/** Email addresses of the given users, by id (unknown ids are left out). */
export async function userEmails(store: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await store.all<{ id: string; email: string }>(store.db.selectFrom('users').select(['id', 'email']).where('id', 'in', unique));
  return new Map(rows.map((r) => [r.id, r.email]));
}

export function findUserByEmail(store: Executor, email: string): Promise<UserRow | undefined> {
  return store.one<UserRow>(store.db.selectFrom('users').selectAll().where('email', '=', normalEmail(email)));
}

export interface NewMembership {
  userId: string;
  orgId: string;
  role: Role;
  permissions?: Permission[];
}

/** The upsert of a user's membership of an organization: for a batch. */
export function membershipUpsert(store: Executor, clock: Clock, { userId, orgId, role, permissions = [] }: NewMembership): Query {
  return store.db
    .insertInto('memberships')
    .values({ user_id: userId, org_id: orgId, role, can_merge: permissions.includes('merge_to_production') ? 1 : 0, created_at: clock.now() })
    .onConflict((oc) => oc.columns(['user_id', 'org_id']).doUpdateSet((eb) => ({ role: eb.ref('excluded.role'), can_merge: eb.ref('excluded.can_merge') })));
}

/** Adds (or changes) a user's membership of an organization. */
export async function setMembership(store: Executor, clock: Clock, membership: NewMembership): Promise<void> {
  await store.run(membershipUpsert(store, clock, membership));
}

export function getMembership(store: Executor, userId: string, orgId: string): Promise<MembershipRow | undefined> {
  return store.one<MembershipRow>(
    store.db.selectFrom('memberships').select(['user_id', 'org_id', 'role', 'can_merge', 'deactivated_at']).where('user_id', '=', userId).where('org_id', '=', orgId),
  );
}

/** The user's base organization: the one non-workspace organization they belong to. */
export function baseOrgOf(store: Executor, userId: string): Promise<OrgRow | undefined> {
  return store.one<OrgRow>(
    store.db
      .selectFrom('organizations as o')
      .innerJoin('memberships as m', 'm.org_id', 'o.id')
      .selectAll('o')
      .where('m.user_id', '=', userId)
      .where('o.base_org_id', 'is', null)
      .orderBy('m.created_at')
      .limit(1),
  );
}

const normalEmail = (email: string) => email.trim().toLowerCase();

function inserted<R>(row: R | undefined): R {
  if (!row) throw new Error('the insert returned no row');
  return row;
}
