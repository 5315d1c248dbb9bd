// The SQL of email domains (migrations 0010 and 0102). org_email_domains routes sign-ins and sign-ups
// and holds verified domains only; org_email_domain_claims holds each organization's claims.
import { sql } from 'kysely';
import type { Executor, Query } from '../../store/index.ts';

export type VerificationMethod = 'dns' | 'email' | 'operator';

/** One claim of the organization with what routes its domain: this organization, another, or none. */
export interface ClaimRow {
  domain: string;
  token: string | null;
  verified_org: string | null;
  verified_at: number | null;
  method: VerificationMethod | null;
}

/**
 * The organization's claims, and the domains it routes without a claim (set by an operator). The
 * routing row's organization tells verified (this one), taken (another) or pending (none).
 */
export async function claimRows(x: Executor, orgId: string): Promise<ClaimRow[]> {
  const claims = await x.all(sql<ClaimRow>`SELECT c.domain, c.token, d.org_id AS verified_org, d.verified_at, d.method
    FROM org_email_domain_claims c LEFT JOIN org_email_domains d ON d.domain = c.domain WHERE c.org_id = ${orgId}`);
  const routed = await x.all(sql<ClaimRow>`SELECT d.domain, NULL AS token, d.org_id AS verified_org, d.verified_at, d.method FROM org_email_domains d
    WHERE d.org_id = ${orgId} AND NOT EXISTS (SELECT 1 FROM org_email_domain_claims c WHERE c.org_id = ${orgId} AND c.domain = d.domain)`);
  // Ordered by bytes here: both lists are small (50 claims at most) and merged anyway.
  return [...claims, ...routed].map((r) => ({ ...r, domain: r.domain.toLowerCase() })).sort((a, b) => Buffer.compare(Buffer.from(a.domain), Buffer.from(b.domain)));
}

/** The claim of one domain by the organization, if any. */
export async function claimRow(x: Executor, orgId: string, domain: string): Promise<ClaimRow | undefined> {
  return (await claimRows(x, orgId)).find((r) => r.domain === domain);
}

/** The organization that routes each of these domains, when another one does. */
export async function domainsRoutedElsewhere(x: Executor, orgId: string, domains: string[]): Promise<Set<string>> {
  if (domains.length === 0) return new Set();
  const rows = await x.all(sql<{ domain: string }>`SELECT domain FROM org_email_domains WHERE org_id <> ${orgId} AND domain IN (${sql.join(domains)})`);
  return new Set(rows.map((r) => r.domain.toLowerCase()));
}

/**
 * Replaces the organization's claims with `wanted` (lower-case): drops the others, with their routing
 * rows; keeps the existing ones with their tokens; adds the new ones with `tokens`.
 */
export function replaceClaimsQueries(orgId: string, wanted: string[], tokens: Map<string, string>, now: number): Query[] {
  const keep = wanted.length > 0 ? sql`AND domain NOT IN (${sql.join(wanted)})` : sql``;
  return [
    sql`DELETE FROM org_email_domain_claims WHERE org_id = ${orgId} ${keep}`,
    sql`DELETE FROM org_email_domains WHERE org_id = ${orgId} ${keep}`,
    ...wanted.map(
      (domain) => sql`INSERT INTO org_email_domain_claims (org_id, domain, token, created_at) VALUES (${orgId}, ${domain}, ${tokens.get(domain)!}, ${now})
        ON CONFLICT (org_id, domain) DO NOTHING`,
    ),
  ];
}

/**
 * The INSERT that makes the organization route a domain it claims. It changes no row when another
 * organization (or this one) routes it already, or the claim is gone.
 */
export function routeDomainQuery(orgId: string, domain: string, method: VerificationMethod, now: number): Query {
  // The casts type the SELECT list on PostgreSQL, whose parameters there have no column to take a type from.
  return sql`INSERT INTO org_email_domains (domain, org_id, verified_at, method)
    SELECT CAST(${domain} AS TEXT), CAST(${orgId} AS TEXT), CAST(${now} AS BIGINT), CAST(${method} AS TEXT)
    WHERE EXISTS (SELECT 1 FROM org_email_domain_claims WHERE org_id = ${orgId} AND domain = ${domain})
    ON CONFLICT (domain) DO NOTHING`;
}

/** Which organization routes a domain now, if any. */
export async function routingOrg(x: Executor, domain: string): Promise<string | undefined> {
  return (await x.one(sql<{ org_id: string }>`SELECT org_id FROM org_email_domains WHERE domain = ${domain}`))?.org_id;
}
