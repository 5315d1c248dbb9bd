import type { Transporter } from 'nodemailer';
import type { Mailer } from './mailer.ts';

/**
 * A mailer over SMTP (`smtp://user:pass@host:port`, `smtps://...` for implicit TLS). nodemailer and
 * its transport are set up with the first mail, so a gateway that sends none does not carry them. The
 * connection is pooled: the outbox queue sends its messages one after another, and a new connection
 * (and TLS handshake) per message made a burst of mail take seconds.
 */
export function createSmtpMailer({ url, from }: { url: string; from: string }): Mailer & { close(): void } {
  let transport: Promise<Transporter> | undefined;
  let closed = false;
  const open = async () => {
    const { default: nodemailer } = await import('nodemailer');
    const t = nodemailer.createTransport({ url, pool: true, maxConnections: 1 } as Parameters<typeof nodemailer.createTransport>[0]);
    if (closed) t.close();
    return t;
  };
  return {
    async send({ to, subject, text, html, attachments, headers }) {
      const files = attachments?.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content, encoding: 'base64', ...(a.cid ? { cid: a.cid } : {}) }));
      await (await (transport ??= open())).sendMail({ from, to, subject, text, ...(html ? { html } : {}), ...(files ? { attachments: files } : {}), ...(headers ? { headers } : {}) });
    },
    close: () => {
      closed = true;
      void transport?.then((t) => t.close());
    },
  };
}
