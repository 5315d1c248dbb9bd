export type { Mailer, MailMessage } from './mailer.ts';
export { createSmtpMailer } from './smtp-mailer.ts';
export { createOutboxMailer, listOutbox } from './outbox-mailer.ts';
