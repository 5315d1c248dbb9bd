import type { MailMessage } from '../mail/index.ts';
import type { AccountDeps } from './account-deps.ts';

/**
 * Sends mail without making the caller wait. Endpoints that must not reveal whether an account
 * exists use it, so an SMTP round trip for known addresses does not show up in response times.
 * Failures go to the log (without the body, which holds links and codes).
 */
export function deliverInBackground(deps: Pick<AccountDeps, 'mailer' | 'log'>, message: MailMessage): void {
  deps.mailer.send(message).catch((err: unknown) => deps.log.error({ err: err instanceof Error ? err.message : String(err), subject: message.subject }, 'mail delivery failed'));
}
