// The one write that turns a claim into routing, shared by the DNS and the mailed-link proofs.
import type { Query } from '../../store/index.ts';
import type { Principal } from '../principal.ts';
import { DomainTaken } from '../members/errors.ts';
import { adminAuditQuery, type RequestClient } from '../members/member-audit.ts';
import { routeDomainQuery, routingOrg, claimRow, type VerificationMethod } from './domain-rows.ts';
import { DomainNotClaimed } from './errors.ts';
import { emailDomainView, type EmailDomainView } from './email-domain-view.ts';
import type { EmailDomainDeps } from './deps.ts';

/**
 * Routes a claimed domain to the admin's organization, with the audit entry, in one batch that
 * requires the routing row (and `before`, e.g. spending a link, first). The routing table's key makes
 * the first organization to verify the only one; verifying again is a no-op that answers the same.
 */
export async function routeDomain(
  deps: Pick<EmailDomainDeps, 'x' | 'clock'>,
  admin: Principal,
  client: RequestClient,
  p: { domain: string; method: VerificationMethod; before?: Query[]; onBeforeMissed?: () => Error },
): Promise<EmailDomainView> {
  const now = deps.clock.now();
  const before = p.before ?? [];
  const audit = adminAuditQuery(deps, admin, client, { action: 'email_domain_verified', target: { type: 'email_domain', id: p.domain }, data: { method: p.method } });
  const done = await deps.x.batch([...before, routeDomainQuery(admin.orgId, p.domain, p.method, now), audit], { require: [...before.keys(), before.length] });
  if (!done.ok && done.failed < before.length) throw p.onBeforeMissed?.() ?? new DomainNotClaimed();
  const row = await claimRow(deps.x, admin.orgId, p.domain);
  if (!row) throw new DomainNotClaimed();
  if (!done.ok && (await routingOrg(deps.x, p.domain)) !== admin.orgId) throw new DomainTaken(p.domain);
  return emailDomainView(admin.orgId, row);
}
