import test from 'ava';
import { FakeClock } from '../../src/clock.ts';
import { createLogger } from '../../src/log.ts';
import { createMailQueue, createSmtpMailer, listOutbox, MAX_ATTEMPTS, type Mailer, type MailMessage } from '../../src/mail/index.ts';
import { openStore, sqliteExecutor } from '../../src/store/index.ts';
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
  const mailer = createMailQueue({ db: store.db, x: sqliteExecutor(store.db), clock: new FakeClock(), log });
  mailer.enqueue({ to: 'bob@example.com', subject: 'Sign in', text: 'secret-link-token-123' });
  await mailer.idle();
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
    await t0.app.services.accountMail.idle();
    const [mail] = listOutbox(t0.app.services.store.sqlite!);
    const token = /Magic link token: (\S+)/.exec(mail?.text ?? '')?.[1];
    t.truthy(token);
    t.true(t0.logs.some((l) => l['msg'] === 'mail queued in the outbox (no SMTP server configured)'));
    t.false(JSON.stringify(t0.logs).includes(token!));
  } finally {
    await t0.stop();
  }
});

/** A transport that fails while `failing` is set, and records what it delivered. */
function flakyTransport(): Mailer & { failing: boolean; sent: MailMessage[] } {
  const transport = {
    failing: true,
    sent: [] as MailMessage[],
    send(message: MailMessage) {
      if (transport.failing) return Promise.reject(new Error('connection refused'));
      transport.sent.push(message);
      return Promise.resolve();
    },
  };
  return transport;
}

const quietLog = () => createLogger('silent');

test('a queued message is delivered after the caller moves on, and keeps no body once sent', async (t) => {
  const store = openStore({ file: ':memory:' });
  const transport = flakyTransport();
  transport.failing = false;
  const queue = createMailQueue({ db: store.db, x: sqliteExecutor(store.db), clock: new FakeClock(), log: quietLog(), transport });
  queue.enqueue({ to: 'ann@example.com', subject: 'Sign in', text: 'token-abc' });
  t.is(transport.sent.length, 0, 'nothing is sent while the caller is still running');
  await queue.idle();
  t.deepEqual(transport.sent, [{ to: 'ann@example.com', subject: 'Sign in', text: 'token-abc' }]);
  const [row] = listOutbox(store.db);
  t.is(row?.text, '');
  t.truthy(row?.sent_at);
  queue.close();
  store.close();
});

test('a failing server is retried with growing waits, then the message is delivered once', async (t) => {
  const store = openStore({ file: ':memory:' });
  const clock = new FakeClock();
  const transport = flakyTransport();
  const queue = createMailQueue({ db: store.db, x: sqliteExecutor(store.db), clock, log: quietLog(), transport });
  queue.enqueue({ to: 'ann@example.com', subject: 'Reset', text: 'token-def' });
  await queue.idle();
  t.is(transport.sent.length, 0);
  await queue.deliverDue();
  t.is(transport.sent.length, 0, 'not due again before its wait ends');
  clock.advance(30_000);
  await queue.deliverDue();
  t.is(store.db.prepare('SELECT attempts FROM outbox').pluck().get(), 2);
  transport.failing = false;
  clock.advance(60_000);
  await queue.deliverDue();
  await queue.deliverDue();
  t.is(transport.sent.length, 1);
  queue.close();
  store.close();
});

test('a message that never goes through is given up after the last attempt and its body dropped', async (t) => {
  const store = openStore({ file: ':memory:' });
  const clock = new FakeClock();
  const queue = createMailQueue({ db: store.db, x: sqliteExecutor(store.db), clock, log: quietLog(), transport: flakyTransport() });
  queue.enqueue({ to: 'ann@example.com', subject: 'Reset', text: 'token-ghi' });
  for (let i = 0; i < MAX_ATTEMPTS + 2; i++) {
    await queue.deliverDue();
    clock.advance(3600_000);
  }
  const row = store.db.prepare('SELECT attempts, failed_at, text_body, next_attempt_at FROM outbox').get() as Record<string, unknown>;
  t.like(row, { attempts: MAX_ATTEMPTS, text_body: '', next_attempt_at: null });
  t.truthy(row['failed_at']);
  queue.close();
  store.close();
});

test('mail queued before a crash is delivered when the service starts again', async (t) => {
  const store = openStore({ file: ':memory:' });
  const clock = new FakeClock();
  const before = createMailQueue({ db: store.db, x: sqliteExecutor(store.db), clock, log: quietLog(), transport: { send: () => new Promise<void>(() => {}) } });
  // The process dies while the server is still being asked: the row is all that is left.
  before.enqueue({ to: 'ann@example.com', subject: 'Sign in', text: 'token-jkl' });
  before.close();
  const transport = flakyTransport();
  transport.failing = false;
  const after = createMailQueue({ db: store.db, x: sqliteExecutor(store.db), clock, log: quietLog(), transport });
  await new Promise((resolve) => setImmediate(resolve));
  await after.idle();
  t.deepEqual(transport.sent.map((m) => m.text), ['token-jkl']);
  after.close();
  store.close();
});
