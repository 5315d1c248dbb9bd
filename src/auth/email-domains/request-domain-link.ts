// Proof by mail, where DNS is out of reach: a single-use link to an administrative mailbox at the
// domain (domain-names.ts), which an admin of the organization then opens while signed in.
import { consumeMailQuota } from '../credentials/rate-limit.ts';
import type { MailMessage } from '../../mail/index.ts';
import type { Principal } from '../principal.ts';
import { assertBaseOrg } from '../members/org-settings.ts';
import { DomainTaken } from '../members/errors.ts';
import { adminAuditQuery, auditRefusals, type RequestClient } from '../members/member-audit.ts';
import { claimRow } from './domain-rows.ts';
import { DOMAIN_LINK_TTL_MS, insertDomainLinkQuery } from './domain-link-rows.ts';
import { DomainNotClaimed } from './errors.ts';
import type { EmailDomainDeps } from './deps.ts';

/** The mail with the link to the organization settings page, which spends the token. */
export function domainLinkMail(baseUrl: string, to: string, domain: string, token: string, orgName: string): MailMessage {
  const link = `${baseUrl}/admin/organization?domain_token=${encodeURIComponent(token)}`;
  return {
    to,
    subject: `Confirm that ${orgName} may use ${domain} on Sextant`,
    text:
      `An admin of ${orgName} on Sextant asks to verify the email domain ${domain}. Once verified, people signing in or up with an address at ${domain} ` +
      `are sent to ${orgName}.\n\nIf that is right, forward this mail to an admin of ${orgName}, who opens this link while signed in (valid ${DOMAIN_LINK_TTL_MS / 3600_000} hours, usable once):\n\n${link}\n\n` +
      `Verification token: ${token}\n\nIf you do not know ${orgName}, ignore this mail: nothing changes.\n`,
  };
}

/** Mails a verification link for a pending claim to `mailbox@domain`; the link and its mail commit together. */
export async function requestDomainLink(deps: EmailDomainDeps, admin: Principal, client: RequestClient, domainIn: string, mailbox: string): Promise<{ sent_to: string; expires_at: string }> {
  const domain = domainIn.trim().toLowerCase();
  const address = `${mailbox}@${domain}`;
  const act = { action: 'email_domain_link_sent', target: { type: 'email_domain', id: domain }, data: { address } };
  return auditRefusals(deps, admin, client, act, async () => {
    const org = await assertBaseOrg(deps.x, admin);
    const claim = await claimRow(deps.x, admin.orgId, domain);
    if (!claim) throw new DomainNotClaimed();
    if (claim.verified_org !== null && claim.verified_org !== admin.orgId) throw new DomainTaken(domain);
    await consumeMailQuota(deps.store, deps.clock, { email: address, ip: client.ip }, deps.mailLimits);
    const now = deps.clock.now();
    const link = insertDomainLinkQuery({ orgId: admin.orgId, domain, address, requestedBy: admin.userId, now });
    const mail = deps.mailer.stage(domainLinkMail(deps.baseUrl, address, domain, link.token, org.name));
    await deps.x.batch([link.query, mail.query, adminAuditQuery(deps, admin, client, act)]);
    mail.committed();
    return { sent_to: address, expires_at: new Date(now + DOMAIN_LINK_TTL_MS).toISOString() };
  });
}
