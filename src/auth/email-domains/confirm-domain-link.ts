// The mailed link's last step: an admin of the organization that asked opens it while signed in. The
// link is spent in the batch that routes the domain, so exactly one of concurrent openers wins.
import type { Principal } from '../principal.ts';
import { assertBaseOrg } from '../members/org-settings.ts';
import { auditRefusals, type RequestClient } from '../members/member-audit.ts';
import { liveDomainLink, spendDomainLinkQuery } from './domain-link-rows.ts';
import { InvalidDomainLink } from './errors.ts';
import type { EmailDomainView } from './email-domain-view.ts';
import { routeDomain } from './route-domain.ts';
import type { EmailDomainDeps } from './deps.ts';

/** Spends a live link of the admin's organization and routes its domain there. A link of another organization reads as invalid. */
export async function confirmDomainLink(deps: Pick<EmailDomainDeps, 'x' | 'clock'>, admin: Principal, client: RequestClient, token: string): Promise<EmailDomainView> {
  const act = { action: 'email_domain_verified', target: { type: 'organization', id: admin.orgId }, data: { method: 'email' } };
  return auditRefusals(deps, admin, client, act, async () => {
    await assertBaseOrg(deps.x, admin);
    const link = await liveDomainLink(deps.x, admin.orgId, token, deps.clock.now());
    if (!link) throw new InvalidDomainLink();
    const before = [spendDomainLinkQuery(admin.orgId, token, deps.clock.now())];
    return routeDomain(deps, admin, client, { domain: link.domain, method: 'email', before, onBeforeMissed: () => new InvalidDomainLink() });
  });
}
