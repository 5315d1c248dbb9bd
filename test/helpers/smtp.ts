// A real SMTP server on loopback that keeps every message it receives, for tests that follow links in mail.
import { SMTPServer } from 'smtp-server';
import { freePort } from './app.ts';

export interface CapturedMail {
  to: string[];
  raw: string;
  subject: string;
  text: string;
}

export interface TestSmtp {
  url: string;
  mails: CapturedMail[];
  /** Addresses the server refuses at RCPT TO with 550, as a mailbox that does not exist (empty unless a test adds one). */
  refuse: Set<string>;
  /** Waits until a mail to `to` matching `subject` arrives (resolves at once if it has). */
  next(to: string, subject?: RegExp): Promise<CapturedMail>;
  stop(): Promise<void>;
}

/** Starts an SMTP server on 127.0.0.1 with no auth and no TLS. */
export async function startTestSmtp(): Promise<TestSmtp> {
  const mails: CapturedMail[] = [];
  const waiters: (() => void)[] = [];
  const refuse = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!refuse.has(address.address)) return callback();
      callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, ...parse(raw) });
        for (const w of waiters.splice(0)) w();
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const find = (to: string, subject?: RegExp) => mails.find((m) => m.to.includes(to) && (!subject || subject.test(m.subject)));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    refuse,
    async next(to, subject) {
      for (;;) {
        const found = find(to, subject);
        if (found) {
          mails.splice(mails.indexOf(found), 1);
          return found;
        }
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Subject and decoded plain-text body of a simple nodemailer message. */
function parse(raw: string): { subject: string; text: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const subject = /^Subject: (.*)$/im.exec(unfolded)?.[1] ?? '';
  let body = rest.join('\n\n');
  if (/Content-Transfer-Encoding: quoted-printable/i.test(unfolded)) {
    body = qp(body.replace(/=\r?\n/g, ''));
  } else if (/Content-Transfer-Encoding: base64/i.test(unfolded)) {
    body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return { subject: decodeSubject(subject), text: body };
}

function decodeSubject(s: string): string {
  return s.replace(/=\?utf-8\?Q\?([^?]*)\?=\s*/gi, (_m, q: string) => qp(q.replace(/_/g, ' ')));
}

/** Decodes quoted-printable escapes as UTF-8 bytes. */
function qp(s: string): string {
  const latin = s.replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(latin, 'latin1').toString('utf8');
}
