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

test('a service without SMTP keeps account mail in the outbox and logs only that it was queued', async (t) => {
  const { startTestApp } = await import('../helpers/app.ts');
  const t0 = await startTestApp({ SEXTANT_BCRYPT_COST: '4' });
  try {
    const res = await t0.fetch('/api/auth/magic_link/request', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: t0.user().email }) });
    t.is(res.status, 202);
    const [mail] = listOutbox(t0.app.services.store.db);
    const token = /Magic link token: (\S+)/.exec(mail?.text ?? '')?.[1];
    t.truthy(token);
    t.true(t0.logs.some((l) => l['msg'] === 'mail queued in the outbox (no SMTP server configured)'));
    t.false(JSON.stringify(t0.logs).includes(token!));
  } finally {
    await t0.stop();
  }
});
