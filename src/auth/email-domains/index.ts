// Email domains (issue 33): an organization claims a domain, proves it owns it by a DNS TXT record or a
// mailed link, and only then does the domain route sign-ins and sign-ups to it.
export type { EmailDomainDeps } from './deps.ts';
export type { TxtRecords } from './ports.ts';
export type { EmailDomainView } from './email-domain-view.ts';
export { emailDomainsOf } from './email-domain-view.ts';
export { listEmailDomains } from './list-email-domains.ts';
export { claimQueries } from './claim-email-domains.ts';
export { verifyDomainByDns } from './verify-domain-by-dns.ts';
export { requestDomainLink } from './request-domain-link.ts';
export { confirmDomainLink } from './confirm-domain-link.ts';
export { isPublicMailDomain, txtRecordName, VERIFICATION_MAILBOXES, TXT_LABEL } from './domain-names.ts';
export { DOMAIN_LINK_TTL_MS } from './domain-link-rows.ts';
export * from './errors.ts';
