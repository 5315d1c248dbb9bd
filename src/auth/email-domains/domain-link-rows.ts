// The SQL of verification links mailed to an address at a claimed domain (migration 0102). Only a
// SHA-256 of a link's token is kept; a link is spent once, by an admin of the organization that asked.
import { sql } from 'kysely';
import { hashSecret, newSecret } from '../../security/index.ts';
import type { Executor, Query } from '../../store/index.ts';

export const DOMAIN_LINK_TTL_MS = 24 * 3600_000;

/** The INSERT of a new link and its token: the only time the token exists in clear. */
export function insertDomainLinkQuery(l: { orgId: string; domain: string; address: string; requestedBy: string; now: number }): { token: string; query: Query } {
  const token = newSecret('sxt_dom_');
  const query = sql`INSERT INTO org_email_domain_links (token_hash, org_id, domain, address, requested_by, created_at, expires_at)
    VALUES (${hashSecret(token)}, ${l.orgId}, ${l.domain}, ${l.address}, ${l.requestedBy}, ${l.now}, ${l.now + DOMAIN_LINK_TTL_MS})`;
  return { token, query };
}

/** The live link behind a token for the organization, if any (unused, unexpired). */
export async function liveDomainLink(x: Executor, orgId: string, token: string, now: number): Promise<{ domain: string; address: string } | undefined> {
  const row = await x.one(sql<{ domain: string; address: string }>`SELECT domain, address FROM org_email_domain_links
    WHERE token_hash = ${hashSecret(token)} AND org_id = ${orgId} AND used_at IS NULL AND expires_at > ${now}`);
  return row && { ...row, domain: row.domain.toLowerCase() };
}

/** Spends a live link: exactly one of concurrent spenders changes the row (the batch requires it). */
export function spendDomainLinkQuery(orgId: string, token: string, now: number): Query {
  return sql`UPDATE org_email_domain_links SET used_at = ${now}
    WHERE token_hash = ${hashSecret(token)} AND org_id = ${orgId} AND used_at IS NULL AND expires_at > ${now}`;
}
