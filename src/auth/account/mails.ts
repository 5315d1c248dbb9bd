// The text of every account mail. Links point at the web client; the API endpoints take the token.
import type { MailMessage } from '../../mail/index.ts';

const link = (baseUrl: string, path: string, token: string) => `${baseUrl}${path}?token=${encodeURIComponent(token)}`;

export function verificationMail(baseUrl: string, to: string, token: string): MailMessage {
  return {
    to,
    subject: 'Confirm your email address',
    text: `Confirm your Sextant account by opening this link (valid 24 hours):\n\n${link(baseUrl, '/verify', token)}\n\nVerification token: ${token}\n\nIf you did not sign up, ignore this mail.\n`,
  };
}

export function alreadyRegisteredMail(baseUrl: string, to: string): MailMessage {
  return {
    to,
    subject: 'Confirm your email address',
    text: `Someone tried to create a Sextant account with this address, which already has one.\n\nSign in at ${baseUrl}/login, or reset your password if you forgot it.\n`,
  };
}

export function resetPasswordMail(baseUrl: string, to: string, token: string): MailMessage {
  return {
    to,
    subject: 'Reset your password',
    text: `Choose a new Sextant password with this link (valid 1 hour, usable once):\n\n${link(baseUrl, '/reset-password', token)}\n\nReset token: ${token}\n\nIf you did not ask for this, ignore this mail; your password stays as it is.\n`,
  };
}

export function magicLinkMail(baseUrl: string, to: string, token: string, code: string): MailMessage {
  return {
    to,
    subject: 'Your sign-in link',
    text: `Sign in to Sextant with this link (valid 15 minutes, usable once):\n\n${link(baseUrl, '/magic-link', token)}\n\nMagic link token: ${token}\nOr enter this code: ${code}\n`,
  };
}

export function mfaRecoveryMail(baseUrl: string, to: string, token: string, meta: { ip: string; userAgent: string }): MailMessage {
  return {
    to,
    subject: 'Recover access: two-factor authentication',
    text: `A request to remove two-factor authentication from your Sextant account was made from ${meta.ip} (${meta.userAgent}).\n\nIf it was you, confirm with this link (valid 1 hour):\n\n${link(baseUrl, '/mfa-recovery', token)}\n\nRecovery token: ${token}\n\nIf it was not you, change your password and tell your administrator.\n`,
  };
}

export function mfaRecoveryAdminMail(to: string, userEmail: string, what: 'requested' | 'completed'): MailMessage {
  return {
    to,
    subject: `MFA recovery ${what} for ${userEmail}`,
    text: `Self-service recovery of two-factor authentication was ${what} for ${userEmail}.\n\nIf this looks wrong, disable the account and contact the user.\n`,
  };
}

export function mfaRemovedMail(to: string): MailMessage {
  return {
    to,
    subject: 'Two-factor authentication was removed',
    text: 'Two-factor authentication was removed from your Sextant account and you were signed out everywhere. Enroll again at your next sign-in.\n',
  };
}
