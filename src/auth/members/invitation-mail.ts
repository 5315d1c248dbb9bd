import type { MailMessage } from '../../mail/index.ts';

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
