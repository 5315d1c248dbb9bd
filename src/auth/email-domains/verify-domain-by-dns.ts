// Proof by DNS: the organization publishes its token in the TXT record _sextant-verification.<domain>.
import type { Principal } from '../principal.ts';
import { assertBaseOrg } from '../members/org-settings.ts';
import { DomainTaken } from '../members/errors.ts';
import { auditRefusals, type RequestClient } from '../members/member-audit.ts';
import { claimRow } from './domain-rows.ts';
import { txtRecordName } from './domain-names.ts';
import { DomainNotClaimed, DomainNotVerified, type DnsFailure } from './errors.ts';
import { emailDomainView, type EmailDomainView } from './email-domain-view.ts';
import { routeDomain } from './route-domain.ts';
import type { EmailDomainDeps } from './deps.ts';

/** Looks the claim's TXT record up and, when it holds the token, routes the domain to the organization. */
export async function verifyDomainByDns(deps: EmailDomainDeps, admin: Principal, client: RequestClient, domainIn: string): Promise<EmailDomainView> {
  const domain = domainIn.trim().toLowerCase();
  const act = { action: 'email_domain_verified', target: { type: 'email_domain', id: domain }, data: { method: 'dns' } };
  return auditRefusals(deps, admin, client, act, async () => {
    await assertBaseOrg(deps.x, admin);
    const claim = await claimRow(deps.x, admin.orgId, domain);
    if (!claim) throw new DomainNotClaimed();
    if (claim.verified_org === admin.orgId) return emailDomainView(admin.orgId, claim);
    if (claim.verified_org !== null) throw new DomainTaken(domain);
    if (claim.token === null) throw new DomainNotClaimed();
    const record = { name: txtRecordName(domain), value: claim.token };
    const failure = dnsFailure(await deps.txt.lookup(record.name), claim.token);
    if (failure) throw new DomainNotVerified(domain, failure, record);
    return routeDomain(deps, admin, client, { domain, method: 'dns' });
  });
}

/** Why the records prove nothing, or undefined when one of them is the token. */
function dnsFailure(records: string[] | undefined, token: string): DnsFailure | undefined {
  if (records === undefined) return 'dns_failed';
  if (records.length === 0) return 'no_record';
  return records.some((r) => r.trim() === token) ? undefined : 'wrong_value';
}
