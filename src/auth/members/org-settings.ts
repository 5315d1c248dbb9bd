import { sql } from 'kysely';
import { Forbidden } from '../../errors.ts';
import { byteOrder, type Executor } from '../../store/index.ts';
import type { Principal, Role } from '../principal.ts';
import { SESSION_TTL_SECONDS } from '../credentials/sessions.ts';
import { readOrgSettings } from './org-settings-rows.ts';
import { orgRow, type OrgRow } from './org-rows.ts';

export interface OrgSettingsView {
  mfa_required: boolean;
  /** Domains whose addresses join the organization on self-service sign-up. */
  allowed_email_domains: string[];
  join_default_role: Role;
  /** Lifetime of new sessions, seconds. */
  session_lifetime_seconds: number;
}

/** Settings belong to a base organization; its workspaces follow them. */
export async function assertBaseOrg(x: Executor, admin: Principal): Promise<OrgRow> {
  const org = await orgRow(x, admin.orgId);
  if (!org || org.base_org_id !== null) {
    throw new Forbidden('Organization settings are managed from the base organization, not a workspace', 'BASE_ORG_REQUIRED');
  }
  return org;
}

/** The organization's settings as an admin reads them. */
export async function getOrgSettings({ x }: { x: Executor }, admin: Principal): Promise<OrgSettingsView> {
  const org = await assertBaseOrg(x, admin);
  const settings = await readOrgSettings(x, admin.orgId);
  const domains = await x.all(sql<{ domain: string }>`SELECT domain FROM org_email_domains WHERE org_id = ${admin.orgId} ORDER BY ${byteOrder(x, 'domain')}`);
  return {
    mfa_required: org.mfa_enforced === 1,
    allowed_email_domains: domains.map((d) => d.domain),
    join_default_role: settings.join_default_role,
    session_lifetime_seconds: settings.session_lifetime_seconds ?? SESSION_TTL_SECONDS,
  };
}
