// A claimed domain as its organization's admin sees it: status, TXT record, when and how verified.
import type { Executor } from '../../store/index.ts';
import { claimRows, type ClaimRow, type VerificationMethod } from './domain-rows.ts';
import { txtRecordName } from './domain-names.ts';

/** A claimed domain as its organization's admin sees it. */
export interface EmailDomainView {
  domain: string;
  /** pending: it does nothing yet; verified: it routes sign-ins and sign-ups here; taken: another organization verified it first. */
  status: 'pending' | 'verified' | 'taken';
  /** The TXT record to publish (null for a domain an operator set up without a claim). */
  txt_record: { name: string; value: string } | null;
  verified_at: string | null;
  method: VerificationMethod | null;
}

/** The view of one claim row for the organization `orgId`. */
export function emailDomainView(orgId: string, r: ClaimRow): EmailDomainView {
  const status = r.verified_org === null ? 'pending' : r.verified_org === orgId ? 'verified' : 'taken';
  const mine = status === 'verified';
  return {
    domain: r.domain,
    status,
    txt_record: r.token === null ? null : { name: txtRecordName(r.domain), value: r.token },
    verified_at: mine && r.verified_at ? new Date(Number(r.verified_at)).toISOString() : null,
    method: mine ? r.method : null,
  };
}

/** The organization's claimed domains with their status, ordered by their bytes. */
export async function emailDomainsOf(x: Executor, orgId: string): Promise<EmailDomainView[]> {
  return (await claimRows(x, orgId)).map((r) => emailDomainView(orgId, r));
}
