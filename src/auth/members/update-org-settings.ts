import { transact } from '../../store/index.ts';
import type { Principal, Role } from '../principal.ts';
import type { MembersDeps } from './deps.ts';
import { DomainTaken } from './errors.ts';
import { assertBaseOrg, getOrgSettings, type OrgSettingsView } from './org-settings.ts';
import { saveOrgSettings } from './org-settings-rows.ts';
import { auditAdmin, auditRefusals, type RequestClient } from './member-audit.ts';

export interface OrgSettingsPatch {
  mfa_required?: boolean | undefined;
  allowed_email_domains?: string[] | undefined;
  join_default_role?: Role | undefined;
  session_lifetime_seconds?: number | undefined;
}

/** Replaces the organization's join domains; a domain another organization serves is refused. */
function setDomains(deps: MembersDeps, orgId: string, domains: string[]): void {
  const wanted = [...new Set(domains.map((d) => d.trim().toLowerCase()))];
  for (const domain of wanted) {
    const owner = deps.db.prepare('SELECT org_id FROM org_email_domains WHERE domain = ?').pluck().get(domain) as string | undefined;
    if (owner !== undefined && owner !== orgId) throw new DomainTaken(domain);
  }
  deps.db.prepare('DELETE FROM org_email_domains WHERE org_id = ?').run(orgId);
  const insert = deps.db.prepare('INSERT INTO org_email_domains (domain, org_id) VALUES (?, ?)');
  for (const domain of wanted) insert.run(domain, orgId);
}

/** Changes the given settings; new sessions get the new lifetime, live ones keep theirs. */
export function updateOrgSettings(deps: MembersDeps, admin: Principal, client: RequestClient, patch: OrgSettingsPatch): OrgSettingsView {
  const act = { action: 'org_settings_changed', target: { type: 'organization', id: admin.orgId }, data: { changes: patch } };
  auditRefusals(deps, admin, client, act, () => transact(deps.db, () => {
    assertBaseOrg(deps.db, admin);
    const before = getOrgSettings(deps.db, admin);
    if (patch.mfa_required !== undefined) deps.db.prepare('UPDATE organizations SET mfa_enforced = ? WHERE id = ?').run(patch.mfa_required ? 1 : 0, admin.orgId);
    if (patch.allowed_email_domains !== undefined) setDomains(deps, admin.orgId, patch.allowed_email_domains);
    saveOrgSettings(deps.db, deps.clock, admin.orgId, {
      join_default_role: patch.join_default_role ?? before.join_default_role,
      session_lifetime_seconds: patch.session_lifetime_seconds ?? before.session_lifetime_seconds,
    });
    auditAdmin(deps, admin, client, { ...act, data: { before, changes: patch } });
  }));
  return getOrgSettings(deps.db, admin);
}
