/** One outgoing message. Bodies may carry secrets (links, codes): never log them. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail. Implementations: SMTP (nodemailer) and the outbox table. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
