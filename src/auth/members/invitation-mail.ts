import { sql } from 'kysely';
import type { MailMessage } from '../../mail/index.ts';
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
 * Queues the mail of a stored invitation. It follows the invitation's commit rather than sharing it: a
 * crash in between leaves an invitation without a mail, which the admin resends, never a mail whose
 * link was rolled back.
 */
export async function sendInvitationMail(deps: Pick<MembersDeps, 'x' | 'mailer' | 'baseUrl'>, admin: Principal, to: string, token: string): Promise<void> {
  const names = await deps.x.one(
    sql<{ org_name: string; inviter_name: string | null }>`SELECT o.name AS org_name, (SELECT u.name FROM users u WHERE u.id = ${admin.userId}) AS inviter_name
      FROM organizations o WHERE o.id = ${admin.orgId}`,
  );
  deps.mailer.enqueue(invitationMail(deps.baseUrl, to, token, names?.org_name ?? '', names?.inviter_name || admin.email));
}
