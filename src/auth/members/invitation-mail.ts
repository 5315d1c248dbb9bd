import { sql } from 'kysely';
import type { MailMessage, StagedMail } from '../../mail/index.ts';
import type { Principal } from '../principal.ts';
import type { MembersDeps } from './deps.ts';

const MAX_ORG_NAME = 80;

/**
 * An organization's name as an invitation may show it. Anyone can register an organization and name
 * it, so the name is cut to letters, digits, spaces and plain punctuation (no `:` or `/`, so no second
 * link or address beside the service's own), on one line, at most 80 characters.
 */
export function mailableOrgName(name: string): string {
  const plain = name
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N} .,&'()_+-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_ORG_NAME)
    .trim();
  return plain || 'an organization';
}

/**
 * The invitation mail: a single-use link to the web client's accept page, valid 7 days. The sender is
 * the service's own address (SEXTANT_MAIL_FROM); the inviter is named by their account address, never
 * by a display name they chose, and the organization by its cleaned name.
 */
export function invitationMail(baseUrl: string, to: string, token: string, orgName: string, inviterEmail: string): MailMessage {
  const link = `${baseUrl}/invitation?token=${encodeURIComponent(token)}`;
  const org = mailableOrgName(orgName);
  return {
    to,
    subject: `You are invited to "${org}" on Sextant`,
    text:
      `${inviterEmail} invited you to join the organization "${org}" on Sextant.\n\nAccept with this link (valid 7 days, usable once):\n\n${link}\n\n` +
      `Invitation token: ${token}\n\nIf you did not expect this, ignore this mail.\n`,
  };
}

/**
 * The mail of an invitation's link, staged for the batch that stores the invitation (or its new link):
 * it goes out if and only if that commits, never for a link that was rolled back.
 */
export async function stageInvitationMail(deps: Pick<MembersDeps, 'x' | 'mailer' | 'baseUrl'>, admin: Principal, to: string, token: string): Promise<StagedMail> {
  const org = await deps.x.one(sql<{ org_name: string }>`SELECT o.name AS org_name FROM organizations o WHERE o.id = ${admin.orgId}`);
  return deps.mailer.stage(invitationMail(deps.baseUrl, to, token, org?.org_name ?? '', admin.email));
}
