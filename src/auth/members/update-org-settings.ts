import { sql } from 'kysely';
import type { Query } from '../../store/index.ts';
import type { Principal, Role } from '../principal.ts';
import type { MembersDeps } from './deps.ts';
import { DomainTaken } from './errors.ts';
import { assertBaseOrg, getOrgSettings, type OrgSettingsView } from './org-settings.ts';
import { saveOrgSettingsQuery } from './org-settings-rows.ts';
import { adminAuditQuery, auditRefusals, type RequestClient } from './member-audit.ts';

export interface OrgSettingsPatch {
  mfa_required?: boolean | undefined;
  allowed_email_domains?: string[] | undefined;
  join_default_role?: Role | undefined;
  session_lifetime_seconds?: number | undefined;
}

/**
 * Replaces the organization's join domains. Each INSERT changes no row when another organization
 * serves the domain; the batch requires them all, so a taken domain rolls the whole change back.
 */
function domainQueries(orgId: string, domains: string[]): { queries: Query[]; wanted: string[] } {
  const wanted = [...new Set(domains.map((d) => d.trim().toLowerCase()))];
  return {
    wanted,
    queries: [
      sql`DELETE FROM org_email_domains WHERE org_id = ${orgId}`,
      ...wanted.map((domain) => sql`INSERT INTO org_email_domains (domain, org_id) VALUES (${domain}, ${orgId}) ON CONFLICT (domain) DO NOTHING`),
    ],
  };
}

/** Changes the given settings; new sessions get the new lifetime, live ones keep theirs. */
export async function updateOrgSettings(deps: Pick<MembersDeps, 'x' | 'clock'>, admin: Principal, client: RequestClient, patch: OrgSettingsPatch): Promise<OrgSettingsView> {
  const act = { action: 'org_settings_changed', target: { type: 'organization', id: admin.orgId }, data: { changes: patch } };
  await auditRefusals(deps, admin, client, act, async () => {
    await assertBaseOrg(deps.x, admin);
    const before = await getOrgSettings(deps, admin);
    const mfa = patch.mfa_required === undefined ? [] : [sql`UPDATE organizations SET mfa_enforced = ${patch.mfa_required ? 1 : 0} WHERE id = ${admin.orgId}`];
    const domains = patch.allowed_email_domains === undefined ? { queries: [], wanted: [] } : domainQueries(admin.orgId, patch.allowed_email_domains);
    const first = mfa.length + 1;
    const settings = { join_default_role: patch.join_default_role ?? before.join_default_role, session_lifetime_seconds: patch.session_lifetime_seconds ?? before.session_lifetime_seconds };
    const done = await deps.x.batch(
      [...mfa, ...domains.queries, saveOrgSettingsQuery(admin.orgId, settings, deps.clock.now()), adminAuditQuery(deps, admin, client, { ...act, data: { before, changes: patch } })],
      { require: domains.wanted.map((_, i) => first + i) },
    );
    if (!done.ok) throw new DomainTaken(domains.wanted[done.failed - first]!);
  });
  return getOrgSettings(deps, admin);
}
