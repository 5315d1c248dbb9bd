import { sql } from 'kysely';
import type { Principal, Role } from '../principal.ts';
import type { MembersDeps } from './deps.ts';
import { claimQueries } from '../email-domains/claim-email-domains.ts';
import { assertBaseOrg, getOrgSettings, type OrgSettingsView } from './org-settings.ts';
import { saveOrgSettingsQuery } from './org-settings-rows.ts';
import { adminAuditQuery, auditRefusals, type RequestClient } from './member-audit.ts';

export interface OrgSettingsPatch {
  mfa_required?: boolean | undefined;
  allowed_email_domains?: string[] | undefined;
  join_default_role?: Role | undefined;
  session_lifetime_seconds?: number | undefined;
  production_through_environments?: boolean | undefined;
  subscription_external_recipients?: boolean | undefined;
}

/** Changes the given settings; new sessions get the new lifetime, live ones keep theirs. */
export async function updateOrgSettings(deps: Pick<MembersDeps, 'x' | 'clock'>, admin: Principal, client: RequestClient, patch: OrgSettingsPatch): Promise<OrgSettingsView> {
  const act = { action: 'org_settings_changed', target: { type: 'organization', id: admin.orgId }, data: { changes: patch } };
  await auditRefusals(deps, admin, client, act, async () => {
    await assertBaseOrg(deps.x, admin);
    const before = await getOrgSettings(deps, admin);
    const mfa = patch.mfa_required === undefined ? [] : [sql`UPDATE organizations SET mfa_enforced = ${patch.mfa_required ? 1 : 0} WHERE id = ${admin.orgId}`];
    // Claims only: a claimed domain routes nothing until it is verified (email-domains/).
    const domains = patch.allowed_email_domains === undefined ? [] : await claimQueries(deps.x, admin.orgId, patch.allowed_email_domains, deps.clock.now());
    const settings = {
      join_default_role: patch.join_default_role ?? before.join_default_role,
      session_lifetime_seconds: patch.session_lifetime_seconds ?? before.session_lifetime_seconds,
      production_through_environments: (patch.production_through_environments ?? before.production_through_environments) ? 1 : 0,
      external_recipients: (patch.subscription_external_recipients ?? before.subscription_external_recipients) ? 1 : 0,
    };
    await deps.x.batch([...mfa, ...domains, saveOrgSettingsQuery(admin.orgId, settings, deps.clock.now()), adminAuditQuery(deps, admin, client, { ...act, data: { before, changes: patch } })]);
  });
  return getOrgSettings(deps, admin);
}
