import test from 'ava';
import { FakeClock } from '../../src/clock.ts';
import { createLogger } from '../../src/log.ts';
import { createOutboxMailer, createSmtpMailer, listOutbox } from '../../src/mail/index.ts';
import { openStore } from '../../src/store/index.ts';
import { Writable } from 'node:stream';
import { startTestSmtp } from '../helpers/smtp.ts';

test('the SMTP mailer delivers to a real SMTP server', async (t) => {
  const smtp = await startTestSmtp();
  const mailer = createSmtpMailer({ url: smtp.url, from: 'Sextant <no-reply@example.com>' });
  try {
    await mailer.send({ to: 'ann@example.com', subject: 'Héllo there', text: 'Open https://x.test/verify?token=abc' });
    const mail = await smtp.next('ann@example.com');
    t.is(mail.subject, 'Héllo there');
    t.true(mail.text.includes('https://x.test/verify?token=abc'));
  } finally {
    mailer.close();
    await smtp.stop();
  }
});

test('without SMTP, mail lands in the outbox and the log says so without the body', async (t) => {
  const store = openStore({ file: ':memory:' });
  const lines: string[] = [];
  const log = createLogger('info', new Writable({ write: (c: Buffer, _e, cb) => (lines.push(c.toString()), cb()) }));
  const mailer = createOutboxMailer({ db: store.db, clock: new FakeClock(), log });
  await mailer.send({ to: 'bob@example.com', subject: 'Sign in', text: 'secret-link-token-123' });
  const [mail] = listOutbox(store.db);
  t.is(mail?.to, 'bob@example.com');
  t.is(mail?.text, 'secret-link-token-123');
  t.is(lines.length, 1);
  t.false(lines.join('').includes('secret-link-token-123'));
  store.close();
});
