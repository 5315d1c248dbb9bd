import type { Principal } from '../principal.ts';
import { assertBaseOrg } from '../members/org-settings.ts';
import type { Executor } from '../../store/index.ts';
import { emailDomainsOf, type EmailDomainView } from './email-domain-view.ts';

/** The caller's organization's claimed domains (a base organization: workspaces follow it). */
export async function listEmailDomains({ x }: { x: Executor }, admin: Principal): Promise<EmailDomainView[]> {
  await assertBaseOrg(x, admin);
  return emailDomainsOf(x, admin.orgId);
}
