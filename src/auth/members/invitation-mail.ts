import { sql } from 'kysely';
import type { MailMessage, StagedMail } from '../../mail/index.ts';
import type { Principal } from '../principal.ts';
import type { MembersDeps } from './deps.ts';

/** The invitation mail: a single-use link to the web client's accept page, valid 7 days. */
export function invitationMail(baseUrl: string, to: string, token: string, orgName: string, inviterName: string): MailMessage {
  const link = `${baseUrl}/invitation?token=${encodeURIComponent(token)}`;
  return {
    to,
    subject: `You are invited to ${orgName} on Sextant`,
    text:
      `${inviterName} invited you to join ${orgName} on Sextant.\n\nAccept with this link (valid 7 days, usable once):\n\n${link}\n\n` +
      `Invitation token: ${token}\n\nIf you did not expect this, ignore this mail.\n`,
  };
}

/**
 * The mail of an invitation's link, staged for the batch that stores the invitation (or its new link):
 * it goes out if and only if that commits, never for a link that was rolled back.
 */
export async function stageInvitationMail(deps: Pick<MembersDeps, 'x' | 'mailer' | 'baseUrl'>, admin: Principal, to: string, token: string): Promise<StagedMail> {
  const names = await deps.x.one(
    sql<{ org_name: string; inviter_name: string | null }>`SELECT o.name AS org_name, (SELECT u.name FROM users u WHERE u.id = ${admin.userId}) AS inviter_name
      FROM organizations o WHERE o.id = ${admin.orgId}`,
  );
  return deps.mailer.stage(invitationMail(deps.baseUrl, to, token, names?.org_name ?? '', names?.inviter_name || admin.email));
}
