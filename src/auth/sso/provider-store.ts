// The SQL of an organization's OIDC providers (table sso_configs). Every read and write is scoped
// to one organization, so another organization's provider is simply not found.
import type { Db } from '../../store/index.ts';
import type { Role } from '../principal.ts';

/** One IdP group and what membership of it gives: a role and row-level-security groups. */
export interface GroupMapping {
  group: string;
  role?: Role | undefined;
  rls_groups?: string[] | undefined;
}

export interface SsoProviderRow {
  id: string;
  org_id: string;
  /** The slug in the sign-in URL (`/api/auth/{org}/{type}/login`). */
  type: string;
  name: string;
  issuer: string;
  client_id: string;
  client_secret: string | null;
  scopes: string;
  email_claim: string;
  groups_claim: string | null;
  jit_provisioning: number;
  default_role: Role;
  group_mappings: string;
  enabled: number;
  created_at: number;
  updated_at: number | null;
}

/** The settings an admin gives; the secret is sealed by the caller. */
export interface SsoProviderFields {
  type: string;
  name: string;
  issuer: string;
  clientId: string;
  sealedSecret: string | null;
  scopes: string[];
  emailClaim: string;
  groupsClaim: string | null;
  jitProvisioning: boolean;
  defaultRole: Role;
  groupMappings: GroupMapping[];
}

export function listProviderRows(db: Db, orgId: string): SsoProviderRow[] {
  return db.prepare('SELECT * FROM sso_configs WHERE org_id = ? ORDER BY type').all(orgId) as SsoProviderRow[];
}

export function providerRow(db: Db, orgId: string, id: string): SsoProviderRow | undefined {
  return db.prepare('SELECT * FROM sso_configs WHERE org_id = ? AND id = ?').get(orgId, id) as SsoProviderRow | undefined;
}

/** The enabled provider behind a sign-in URL. */
export function providerByType(db: Db, orgId: string, type: string): SsoProviderRow | undefined {
  return db.prepare('SELECT * FROM sso_configs WHERE org_id = ? AND type = ? AND enabled = 1').get(orgId, type) as SsoProviderRow | undefined;
}

function values(f: SsoProviderFields): unknown[] {
  return [f.type, f.name, f.issuer, f.clientId, f.sealedSecret, f.scopes.join(' '), f.emailClaim, f.groupsClaim, f.jitProvisioning ? 1 : 0, f.defaultRole, JSON.stringify(f.groupMappings)];
}

/** Inserts a provider; false when the organization already has one with this type. */
export function insertProviderRow(db: Db, p: { id: string; orgId: string; now: number; fields: SsoProviderFields }): boolean {
  const res = db
    .prepare(
      `INSERT INTO sso_configs (type, name, issuer, client_id, client_secret, scopes, email_claim, groups_claim, jit_provisioning, default_role, group_mappings, id, org_id, enabled, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?) ON CONFLICT (org_id, type) DO NOTHING`,
    )
    .run(...values(p.fields), p.id, p.orgId, p.now, p.now);
  return res.changes === 1;
}

/** Replaces a provider's settings (its type stays: it is in the URL registered at the IdP). */
export function updateProviderRow(db: Db, p: { id: string; orgId: string; now: number; fields: SsoProviderFields }): void {
  db.prepare(
    `UPDATE sso_configs SET type = ?, name = ?, issuer = ?, client_id = ?, client_secret = ?, scopes = ?, email_claim = ?, groups_claim = ?,
       jit_provisioning = ?, default_role = ?, group_mappings = ?, updated_at = ? WHERE org_id = ? AND id = ?`,
  ).run(...values(p.fields), p.now, p.orgId, p.id);
}

/** Deletes a provider and its pending logins; its linked identities go too, so a new one starts fresh. */
export function deleteProviderRow(db: Db, row: SsoProviderRow): void {
  db.prepare('DELETE FROM sso_logins WHERE org_id = ? AND type = ?').run(row.org_id, row.type);
  db.prepare('DELETE FROM sso_identities WHERE org_id = ? AND issuer = ?').run(row.org_id, row.issuer);
  db.prepare('DELETE FROM sso_configs WHERE org_id = ? AND id = ?').run(row.org_id, row.id);
}
