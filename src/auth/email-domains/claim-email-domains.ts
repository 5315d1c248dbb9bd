// Claims made through the settings' `allowed_email_domains`: a claim is pending and does nothing until
// its organization verifies it (verify-domain-by-dns.ts, confirm-domain-link.ts).
import type { Executor, Query } from '../../store/index.ts';
import { DomainTaken } from '../members/errors.ts';
import { domainsRoutedElsewhere, replaceClaimsQueries } from './domain-rows.ts';
import { isPublicMailDomain, newDomainToken } from './domain-names.ts';
import { PublicMailDomain } from './errors.ts';

/**
 * The statements that make `domains` the organization's claims. Public mail domains are refused (422)
 * and so is a domain another organization verified (409 DOMAIN_TAKEN). Should another organization
 * verify one between this check and the batch, the claim stays and reads as taken: it routes nothing.
 */
export async function claimQueries(x: Executor, orgId: string, domains: string[], now: number): Promise<Query[]> {
  const wanted = [...new Set(domains.map((d) => d.trim().toLowerCase()))];
  const publicAt = domains.findIndex((d) => isPublicMailDomain(d.trim()));
  if (publicAt >= 0) throw new PublicMailDomain(domains[publicAt]!.trim().toLowerCase(), publicAt);
  const taken = await domainsRoutedElsewhere(x, orgId, wanted);
  const first = wanted.find((d) => taken.has(d));
  if (first !== undefined) throw new DomainTaken(first);
  return replaceClaimsQueries(orgId, wanted, new Map(wanted.map((d) => [d, newDomainToken()])), now);
}
