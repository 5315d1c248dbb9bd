import type { Transporter } from 'nodemailer';
import type { Mailer } from './mailer.ts';

/**
 * A mailer over SMTP (`smtp://user:pass@host:port`, `smtps://...` for implicit TLS). nodemailer and
 * its transport are set up with the first mail, so a gateway that sends none does not carry them.
 */
export function createSmtpMailer({ url, from }: { url: string; from: string }): Mailer & { close(): void } {
  let transport: Promise<Transporter> | undefined;
  let closed = false;
  const open = async () => {
    const { default: nodemailer } = await import('nodemailer');
    const t = nodemailer.createTransport(url);
    if (closed) t.close();
    return t;
  };
  return {
    async send({ to, subject, text }) {
      await (await (transport ??= open())).sendMail({ from, to, subject, text });
    },
    close: () => {
      closed = true;
      void transport?.then((t) => t.close());
    },
  };
}
