// Email domains an organization claims and proves (issue 33): a claimed domain routes sign-ins and
// sign-ups to the organization only once verified by a DNS TXT record or a link mailed to the domain.
import { z } from 'zod';
import * as domains from '../../auth/email-domains/index.ts';
import { accountDeps } from '../../compose/account-deps.ts';
import { dnsTxtRecords } from '../../compose/dns-txt-records.ts';
import { clientInfo } from '../client-info.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

/** A lower-case host name of at least two labels, as the settings' allowed_email_domains take it. */
export const EmailDomainName = z.string().trim().toLowerCase().regex(/^(?=.{3,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'Invalid email domain');

/** A claimed domain with its status and proof, as the settings and these routes answer it. */
export const EmailDomain = z.object({
  domain: z.string(),
  status: z.enum(['pending', 'verified', 'taken']).describe('pending: does nothing yet; verified: routes sign-ins and sign-ups here; taken: another organization verified it first'),
  txt_record: z.object({ name: z.string(), value: z.string() }).nullable().describe('Publish this TXT record, then verify'),
  verified_at: z.string().nullable().describe('ISO 8601'),
  method: z.enum(['dns', 'email', 'operator']).nullable(),
});

const DomainParam = z.object({ domain: EmailDomainName });

/** Admin routes on the caller's base organization's email domains. */
export function adminEmailDomainRoutes(s: Services) {
  const deps: domains.EmailDomainDeps = { ...accountDeps(s), x: s.executor, txt: dnsTxtRecords(s.config.dnsServers) };
  const tags = ['admin'];
  const admin = { auth: 'user', role: 'admin', tags } as const;
  return [
    route({
      ...admin, method: 'GET', path: '/api/admin/email_domains', operationId: 'admin_list_email_domains',
      summary: 'Claimed email domains with their status and the TXT record that verifies each',
      response: z.object({ email_domains: z.array(EmailDomain) }),
      handler: async ({ principal }) => ({ email_domains: await domains.listEmailDomains(deps, principal) }),
    }),
    route({
      ...admin, method: 'POST', path: '/api/admin/email_domains/{domain}/verify', operationId: 'admin_verify_email_domain',
      summary: `Verifies a claimed domain by its TXT record ${domains.TXT_LABEL}.<domain>; 409 DOMAIN_NOT_VERIFIED (reason no_record, wrong_value, dns_failed) or DOMAIN_TAKEN`,
      params: DomainParam, response: EmailDomain,
      handler: ({ principal, params, ctx }) => domains.verifyDomainByDns(deps, principal, clientInfo(ctx), params.domain),
    }),
    route({
      ...admin, method: 'POST', path: '/api/admin/email_domains/{domain}/verify_by_email', operationId: 'admin_verify_email_domain_by_email', status: 202,
      summary: `Mails a single-use link (valid ${domains.DOMAIN_LINK_TTL_MS / 3600_000} hours) to an administrative mailbox at a claimed domain; an admin of the organization opens it`,
      params: DomainParam,
      body: z.object({ mailbox: z.enum(domains.VERIFICATION_MAILBOXES).describe('The part before @: only addresses reserved for the domain\'s administrator') }),
      response: z.object({ sent_to: z.string(), expires_at: z.string().describe('ISO 8601') }),
      handler: ({ principal, params, body, ctx }) => domains.requestDomainLink(deps, principal, clientInfo(ctx), params.domain, body.mailbox),
    }),
    route({
      ...admin, method: 'POST', path: '/api/admin/email_domains/verify_by_email/confirm', operationId: 'admin_confirm_email_domain_link',
      summary: 'Spends a mailed domain verification link (once, by an admin of the organization that asked) and verifies its domain',
      body: z.object({ token: z.string().min(1).max(200) }), response: EmailDomain,
      handler: ({ principal, body, ctx }) => domains.confirmDomainLink(deps, principal, clientInfo(ctx), body.token),
    }),
  ];
}
