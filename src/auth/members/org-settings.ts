import { Forbidden } from '../../errors.ts';
import type { Executor } from '../../store/index.ts';
import { emailDomainsOf, type EmailDomainView } from '../email-domains/email-domain-view.ts';
import type { Principal, Role } from '../principal.ts';
import { SESSION_TTL_SECONDS } from '../credentials/sessions.ts';
import { readOrgSettings } from './org-settings-rows.ts';
import { orgRow, type OrgRow } from './org-rows.ts';

export interface OrgSettingsView {
  mfa_required: boolean;
  /** Domains the organization claims; only verified ones route sign-ins and sign-ups here (see email_domains). */
  allowed_email_domains: string[];
  /** Each claimed domain with its status and the TXT record that proves it. */
  email_domains: EmailDomainView[];
  join_default_role: Role;
  /** Lifetime of new sessions, seconds. */
  session_lifetime_seconds: number;
  /** Knowledge writes to production are refused: changes arrive by merging an environment. */
  production_through_environments: boolean;
  /** Subscriptions may mail addresses outside the organization (default: members only). */
  subscription_external_recipients: boolean;
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
  const domains = await emailDomainsOf(x, admin.orgId);
  return {
    mfa_required: org.mfa_enforced === 1,
    allowed_email_domains: domains.map((d) => d.domain),
    email_domains: domains,
    join_default_role: settings.join_default_role,
    session_lifetime_seconds: settings.session_lifetime_seconds ?? SESSION_TTL_SECONDS,
    production_through_environments: Number(settings.production_through_environments) === 1,
    subscription_external_recipients: Number(settings.external_recipients) === 1,
  };
}
