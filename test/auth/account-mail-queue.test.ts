// The account mail queue: requests answered before a crash are still mailed at the next start, once;
// requests for addresses without a suitable account leave no trace but their limiter counters.
import test from 'ava';
import { createAccountMail } from '../../src/auth/index.ts';
import { accountDeps } from '../../src/compose/account-deps.ts';
import { listOutbox } from '../../src/mail/index.ts';
import type { TestApp } from '../helpers/app.ts';
import { startAuthApp } from '../helpers/auth.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startAuthApp();
});
test.after.always(() => t0.stop());

test.serial('requests queued before a crash are mailed when the service starts again, and only once', async (t) => {
  const db = t0.app.services.store.sqlite!;
  const known = t0.user();
  const sso = t0.user();
  db.prepare("UPDATE users SET identity_kind = 'sso' WHERE id = ?").run(sso.id);
  // What a crash right after answering leaves behind: the rows, nothing else.
  const insert = db.prepare('INSERT INTO account_mail_requests (id, kind, email, created_at) VALUES (?, ?, ?, ?)');
  insert.run('r1', 'magic_link', known.email, t0.clock.now());
  insert.run('r2', 'reset_password', 'nobody@example.com', t0.clock.now());
  insert.run('r3', 'magic_link', sso.email, t0.clock.now());
  const restarted = createAccountMail(accountDeps(t0.app.services));
  await restarted.idle();
  await t0.app.services.accountMail.idle();
  const mails = await listOutbox(t0.app.services.executor, 1000);
  t.is(mails.filter((m) => m.to === known.email && /sign-in link/.test(m.subject)).length, 1);
  t.false(mails.some((m) => m.to === 'nobody@example.com' || m.to === sso.email));
  t.is(db.prepare('SELECT COUNT(*) FROM account_mail_requests').pluck().get(), 0);
});

test.serial('a mailed sign-in link works, and a second request voids the first link', async (t) => {
  const user = t0.user();
  const linkOf = async () => {
    t.is((await t0.fetch('/api/auth/magic_link/request', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email }) })).status, 202);
    await t0.app.services.accountMail.idle();
    const mail = (await listOutbox(t0.app.services.executor)).find((m) => m.to === user.email)!;
    return /Magic link token: (\S+)/.exec(mail.text)![1]!;
  };
  const first = await linkOf();
  const second = await linkOf();
  t.not(first, second);
  const consume = (token: string) => t0.fetch('/api/auth/magic_link/consume', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) }).then((r) => r.status);
  t.is(await consume(first), 400);
  t.is(await consume(second), 200);
});
