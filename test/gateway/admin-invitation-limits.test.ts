// Invitation mail at the organization's boundary (issue 33, section 6): a stranger who registers an
// organization cannot use it as a mailer. New and resent invitations count against one daily
// allowance per organization (SEXTANT_INVITATIONS_PER_DAY, default 50), answered with 429 and
// Retry-After past it; the mail names the inviter by their account address and the organization by a
// cleaned name, never a display name of the inviter's choosing.
import test from 'ava';
import { loadConfig } from '../../src/config.ts';
import { listOutbox } from '../../src/mail/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { call } from '../auth/tokens/requests.ts';

const DAY = 24 * 3600_000;
let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp({ SEXTANT_INVITATIONS_PER_DAY: '3' });
});
test.after.always(() => t0.stop());

let n = 0;
function team() {
  const orgId = t0.org();
  const admin = t0.user({ orgId, role: 'admin' });
  return { orgId, admin, as: { session: t0.session(admin) } };
}
const invite = (as: { session: string }, email = `limit${++n}@invited.test`) => call(t0, 'POST', '/api/admin/invitations', as, { email, role: 'user' });
const outbox = () => listOutbox(t0.app.services.executor, 5000);

test('the daily allowance is 50 invitation mails per organization unless the operator sets another', (t) => {
  const base = { SEXTANT_JWT_SECRET: 'x'.repeat(40), SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') };
  t.is(loadConfig(base).mail.invitationsPerDay, 50);
  t.is(loadConfig({ ...base, SEXTANT_INVITATIONS_PER_DAY: '10' }).mail.invitationsPerDay, 10);
  t.throws(() => loadConfig({ ...base, SEXTANT_INVITATIONS_PER_DAY: '0' }));
});

test.serial('invitations and resends share the allowance; past it both answer 429 with Retry-After, mail nothing, and the next day opens it again', async (t) => {
  // Start the day at midnight UTC so the whole test stays inside one day.
  t0.clock.set(Math.ceil(t0.clock.now() / DAY) * DAY + 3600_000);
  const { as, admin } = team();
  const first = await invite(as);
  t.is(first.status, 201);
  const id = first.body['invitation_id'] as string;
  t.is((await call(t0, 'POST', `/api/admin/invitations/${id}/resend`, as)).status, 200);
  t.is((await invite(as)).status, 201);
  const mailed = (await outbox()).length;
  const res = await t0.fetch('/api/admin/invitations', {
    method: 'POST',
    headers: { cookie: `sextant_session=${as.session}; sextant_csrf=test-csrf-token-0123456789`, 'x-csrf-token': 'test-csrf-token-0123456789', 'content-type': 'application/json' },
    body: JSON.stringify({ email: `limit${++n}@invited.test`, role: 'user' }),
  });
  t.is(res.status, 429);
  t.is(((await res.json()) as { code: string }).code, 'INVITATIONS_PER_DAY');
  t.is(Number(res.headers.get('retry-after')), 23 * 3600);
  const resend = await call(t0, 'POST', `/api/admin/invitations/${id}/resend`, as);
  t.is(resend.status, 429);
  t.is(resend.body.code, 'INVITATIONS_PER_DAY');
  t.is((await outbox()).length, mailed, 'nothing mailed past the allowance');
  // Each refusal is audited once, as a failure, under the operation's action.
  const log = await call(t0, 'GET', '/api/admin/audit?outcome=failure', as);
  t.deepEqual((log.body['entries'] as { action: string; data: { code: string } }[]).map((e) => [e.action, e.data.code]).reverse(), [
    ['invitation_created', 'INVITATIONS_PER_DAY'],
    ['invitation_resent', 'INVITATIONS_PER_DAY'],
  ]);
  t0.clock.advance(23 * 3600_000);
  const fresh = { session: t0.session(admin) };
  t.is((await call(t0, 'POST', `/api/admin/invitations/${id}/resend`, fresh)).status, 200);
});

test("one organization's spent allowance leaves another's whole", async (t) => {
  const a = team();
  const b = team();
  let last = 0;
  for (let i = 0; i < 4; i++) last = (await invite(a.as)).status;
  t.is(last, 429);
  t.is((await invite(b.as)).status, 201);
});

test('the mail names the inviter by address and the organization by a cleaned name, not a display name or a link of their choosing', async (t) => {
  const { orgId, admin, as } = team();
  const db = t0.app.services.store.sqlite!;
  db.prepare('UPDATE users SET name = ? WHERE id = ?').run('Google Security Team', admin.id);
  db.prepare('UPDATE organizations SET name = ? WHERE id = ?').run('Acme\r\nBcc: victim@x.test — verify at https://evil.example/login\u0000' + 'x'.repeat(200), orgId);
  const email = `named${++n}@invited.test`;
  t.is((await invite(as, email)).status, 201);
  const mail = (await outbox()).find((m) => m.to === email)!;
  t.false(mail.text.includes('Google Security Team'));
  t.true(mail.text.startsWith(`${admin.email} invited you`));
  for (const part of [mail.subject, mail.text]) {
    const rest = part.replace(admin.email, '').replace(email, '');
    t.false(/evil\.example\/|https:\/\/evil|\r|@x\.test/.test(rest) || rest.includes('\u0000'), part);
  }
  t.false(mail.subject.includes('\n'));
  const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
  t.deepEqual(links.map((l) => new URL(l).origin), [new URL(t0.url).origin]);
  t.true(mail.subject.length < 120);
});
