export type { GivenUpMail, GiveUpHook, MailAttachment, Mailer, MailMessage, MailQueue, StagedMail } from './mailer.ts';
export { createSmtpMailer } from './smtp-mailer.ts';
export { createMailQueue, listOutbox, mailOutcomes, MAX_ATTEMPTS } from './mail-queue.ts';
export { pendingMailCount } from './pending-mail.ts';
