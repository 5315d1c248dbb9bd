import nodemailer from 'nodemailer';
import type { Mailer } from './mailer.ts';

/** A mailer over SMTP (`smtp://user:pass@host:port`, `smtps://...` for implicit TLS). */
export function createSmtpMailer({ url, from }: { url: string; from: string }): Mailer & { close(): void } {
  const transport = nodemailer.createTransport(url);
  return {
    async send({ to, subject, text }) {
      await transport.sendMail({ from, to, subject, text });
    },
    close: () => transport.close(),
  };
}
