// The SQL of an organization's OIDC providers (table sso_configs). Every read and write is scoped
// to one organization, so another organization's provider is simply not found.
import { byteOrder } from '../../store/index.ts';
import type { AuthStore } from '../single-use-tables.ts';
import type { SsoProviderRow } from '../user-tables.ts';
import type { Role } from '../principal.ts';

/** One IdP group and what membership of it gives: a role and row-level-security groups. */
export interface GroupMapping {
  group: string;
  role?: Role | undefined;
  rls_groups?: string[] | undefined;
}

export type { SsoProviderRow } from '../user-tables.ts';

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

/** The organization's providers, by type. */
export function listProviderRows(x: AuthStore, orgId: string): Promise<SsoProviderRow[]> {
  return x.all(x.db.selectFrom('sso_configs').selectAll().where('org_id', '=', orgId).orderBy(byteOrder(x, 'type')));
}

export function providerRow(x: AuthStore, orgId: string, id: string): Promise<SsoProviderRow | undefined> {
  return x.one(x.db.selectFrom('sso_configs').selectAll().where('org_id', '=', orgId).where('id', '=', id));
}

/** The enabled provider behind a sign-in URL. */
export function providerByType(x: AuthStore, orgId: string, type: string): Promise<SsoProviderRow | undefined> {
  return x.one(x.db.selectFrom('sso_configs').selectAll().where('org_id', '=', orgId).where('type', '=', type).where('enabled', '=', 1));
}

function columns(f: SsoProviderFields) {
  return {
    type: f.type,
    name: f.name,
    issuer: f.issuer,
    client_id: f.clientId,
    client_secret: f.sealedSecret,
    scopes: f.scopes.join(' '),
    email_claim: f.emailClaim,
    groups_claim: f.groupsClaim,
    jit_provisioning: f.jitProvisioning ? 1 : 0,
    default_role: f.defaultRole,
    group_mappings: JSON.stringify(f.groupMappings),
  };
}

/** Inserts a provider; false when the organization already has one with this type. */
export async function insertProviderRow(x: AuthStore, p: { id: string; orgId: string; now: number; fields: SsoProviderFields }): Promise<boolean> {
  const { changes } = await x.run(
    x.db
      .insertInto('sso_configs')
      .values({ ...columns(p.fields), id: p.id, org_id: p.orgId, enabled: 1, created_at: p.now, updated_at: p.now })
      .onConflict((oc) => oc.columns(['org_id', 'type']).doNothing()),
  );
  return changes === 1;
}

/**
 * Replaces a provider's settings (its type stays: it is in the URL registered at the IdP); false when
 * another provider of the organization already has the new type, or the provider is gone.
 */
export async function updateProviderRow(x: AuthStore, p: { id: string; orgId: string; now: number; fields: SsoProviderFields }): Promise<boolean> {
  const { changes } = await x.run(
    x.db
      .updateTable('sso_configs')
      .set({ ...columns(p.fields), updated_at: p.now })
      .where('org_id', '=', p.orgId)
      .where('id', '=', p.id)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('sso_configs as other').select('other.id').where('other.org_id', '=', p.orgId).where('other.type', '=', p.fields.type).where('other.id', '!=', p.id)))),
  );
  return changes === 1;
}

/** Deletes a provider and its pending logins; its linked identities go too, so a new one starts fresh. */
export async function deleteProviderRow(x: AuthStore, row: SsoProviderRow): Promise<void> {
  await x.batch([
    x.db.deleteFrom('sso_logins').where('org_id', '=', row.org_id).where('type', '=', row.type),
    x.db.deleteFrom('sso_identities').where('org_id', '=', row.org_id).where('issuer', '=', row.issuer),
    x.db.deleteFrom('sso_configs').where('org_id', '=', row.org_id).where('id', '=', row.id),
  ]);
}
