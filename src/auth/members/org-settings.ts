import { Forbidden } from '../../errors.ts';
import type { Db } from '../../store/index.ts';
import { getOrganization } from '../directory.ts';
import type { Principal, Role } from '../principal.ts';
import { SESSION_TTL_SECONDS } from '../credentials/sessions.ts';
import { orgSettingsOf } from './org-settings-rows.ts';

export interface OrgSettingsView {
  mfa_required: boolean;
  /** Domains whose addresses join the organization on self-service sign-up. */
  allowed_email_domains: string[];
  join_default_role: Role;
  /** Lifetime of new sessions, seconds. */
  session_lifetime_seconds: number;
}

/** Settings belong to a base organization; its workspaces follow them. */
export function assertBaseOrg(db: Db, admin: Principal): void {
  if (getOrganization(db, admin.orgId)?.base_org_id !== null) {
    throw new Forbidden('Organization settings are managed from the base organization, not a workspace', 'BASE_ORG_REQUIRED');
  }
}

/** The organization's settings as an admin reads them. */
export function getOrgSettings(db: Db, admin: Principal): OrgSettingsView {
  assertBaseOrg(db, admin);
  const settings = orgSettingsOf(db, admin.orgId);
  return {
    mfa_required: getOrganization(db, admin.orgId)!.mfa_enforced === 1,
    allowed_email_domains: db.prepare('SELECT domain FROM org_email_domains WHERE org_id = ? ORDER BY domain').pluck().all(admin.orgId) as string[],
    join_default_role: settings.join_default_role,
    session_lifetime_seconds: settings.session_lifetime_seconds ?? SESSION_TTL_SECONDS,
  };
}
