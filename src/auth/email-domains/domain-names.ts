// What makes a domain claimable and how its proof looks: the TXT record's name and value, the mailboxes
// a verification link may go to, and the public mail domains nobody may claim.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';

/** The label under which an organization publishes its token: `_sextant-verification.<domain>`. */
export const TXT_LABEL = '_sextant-verification';

/**
 * The mailboxes a verification link may be sent to: the addresses RFC 2142 and the CA/Browser Forum
 * (Baseline Requirements 3.2.2.4.4) reserve for a domain's administrator. Any other mailbox at the
 * domain belongs to one person, who must not be able to route the whole domain's sign-ins.
 */
export const VERIFICATION_MAILBOXES = ['admin', 'administrator', 'hostmaster', 'postmaster', 'webmaster'] as const;

/** The TXT record's name for a domain. */
export const txtRecordName = (domain: string): string => `${TXT_LABEL}.${domain}`;

/** A new verification token: 'sxt-verify-' and 32 hex digits (the migration makes them alike). */
export const newDomainToken = (): string => `sxt-verify-${randomBytes(16).toString('hex')}`;

// email-providers (derhuerst/email-providers, ISC, refreshed monthly): some 8,800 domains of public and
// free mail services. Its entry point is ESM over this JSON list; read the list itself.
const PUBLIC_MAIL_DOMAINS: ReadonlySet<string> = new Set(
  (createRequire(import.meta.url)('email-providers/all.json') as string[]).map((d) => d.toLowerCase()),
);

/** A domain, or a parent of it, serves public mailboxes (gmail.com, outlook.com, ...): nobody may claim it. */
export function isPublicMailDomain(domain: string): boolean {
  const labels = domain.toLowerCase().split('.');
  for (let i = 0; i < labels.length - 1; i++) if (PUBLIC_MAIL_DOMAINS.has(labels.slice(i).join('.'))) return true;
  return false;
}
